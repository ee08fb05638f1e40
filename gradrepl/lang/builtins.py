"""The builtins user code sees: sandbox wrappers with size caps (names in policy.BUILTIN_NAMES)."""
import math

from gradrepl.errors import BudgetExceeded
from gradrepl.lang.classes import make_super, method
from gradrepl.lang.errors import ExitRequested
from gradrepl.lang.facade import Access, isinstance_of, pytype, type_of
from gradrepl.lang.policy import BUILTIN_NAMES, EXCEPTIONS, TRUSTED_BUILTIN_NAMES, is_private
from gradrepl.lang.runtime import _SIZED, MISSING, add, bits_exceeded, \
    builtin_function_or_method, format_value, function, items_exceeded, length, materialize, \
    power, safe_repr, safe_str
from gradrepl.limits import LIMITS


def make_builtins(*, budget, write, api, tensor_type, trusted, access=None):
    """name -> value for every builtin; `write(text)` prints, `api` is the engine api,
    `access` the session's attribute rule (getattr and friends apply it)."""
    access = access if access is not None else Access(api)

    def _print(*args, sep=" ", end="\n", flush=False):
        for what, value in (("sep", sep), ("end", end)):
            if value is not None and type(value) is not str:
                raise TypeError(f"{what} must be None or a string, not {type(value).__name__}")
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        parts = [safe_str(a) for a in args]
        size = sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0) + len(end)
        if budget.output + size > budget.max_output:    # refused before the text is built
            raise BudgetExceeded(
                "output", f"output limit exceeded: more than {budget.max_output} characters "
                f"printed by one statement (raise it with --max-output)", "--max-output")
        write(sep.join(parts) + end)

    def _items(iterable):
        return materialize(iterable, budget)

    def _minmax(pick, name):
        def run(*args, key=None, default=MISSING):
            if not args:
                raise TypeError(f"{name} expected at least 1 argument, got 0")
            items = _items(args[0]) if len(args) == 1 else list(args)
            kwargs = {}
            if key is not None:
                kwargs["key"] = key
            if default is not MISSING:
                if len(args) > 1:
                    raise TypeError(f"Cannot specify a default for {name}() with multiple "
                                    f"positional arguments")
                kwargs["default"] = default
            _charge_comparisons(items, key, 1)
            return pick(items, **kwargs)
        return run

    def _charge_comparisons(items, key, rounds):
        """Steps for the work done in C: a key call per item, or comparing lists item by
        item (max of [[0] * 10**7] * 10**7 compares 10**14 items), before it starts."""
        if key is not None:
            budget.charge(len(items))
        elif items and type(items[0]) in (list, tuple):
            budget.charge(rounds * sum(len(i) for i in items if type(i) in (list, tuple)))

    def _sum(iterable, start=0):
        items = _items(iterable)
        if type(start) in (list, tuple) or (items and type(items[0]) in (list, tuple)):
            total = start
            for item in items:
                total = add(total, item)
            return total
        return sum(items, start)

    def _sorted(iterable, *, key=None, reverse=False):
        items = _items(iterable)
        _charge_comparisons(items, key, max(1, len(items).bit_length()))
        return sorted(items, key=key, reverse=reverse)

    def _zip(*iterables, **kwargs):
        if len(iterables) > 64:     # zip(*rows): each item is a tuple of len(rows) values
            lengths = [length(i) for i in iterables if type(i) in _SIZED]
            if len(lengths) == len(iterables) and \
                    len(iterables) * min(lengths) > LIMITS.max_items:
                raise items_exceeded(len(iterables) * min(lengths))
        return zip(*iterables, **kwargs)

    def _int(*args, **kwargs):
        text = args[0] if args else kwargs.get("x")
        if type(text) in (str, bytes, bytearray):
            base = args[1] if len(args) > 1 else kwargs.get("base", 10)
            per_digit = math.log2(base) if type(base) is int and 2 <= base <= 36 else 4
            bits = int(len(text) * per_digit)
            if bits > LIMITS.max_int_bits:     # refused before the conversion
                raise bits_exceeded(bits)
        return int(*args, **kwargs)

    def _any(iterable):
        return any(_items(iterable))

    def _all(iterable):
        return all(_items(iterable))

    def _list(iterable=()):
        return _items(iterable)

    def _tuple(iterable=()):
        return tuple(_items(iterable))

    def _set(iterable=()):
        return set(_items(iterable))

    def _dict(source=MISSING, **kwargs):
        if source is MISSING:
            result = {}
        elif type(source) is dict:
            result = dict(source)
        else:
            result = dict(_items(source))
        result.update(kwargs)
        return result

    def _str(value="", *rest):
        if rest:
            raise TypeError("str() takes at most 1 argument in gradrepl")
        return safe_str(value)

    def _type(*args):
        if len(args) != 1:
            raise TypeError("type() takes exactly 1 argument in gradrepl")
        return type_of(args[0], api, pytypes, tensor_type)

    def _isinstance(obj, spec):
        return isinstance_of(obj, spec, api, tensor_type)

    def _format(value, spec=""):
        return format_value(value, spec)

    def _exit(*args):
        raise ExitRequested()

    def _attr_name(name):
        if type(name) is not str:
            raise TypeError(f"attribute name must be string, not '{access.type_label(name)}'")
        if is_private(name):
            raise AttributeError(f"attribute '{name}' is not available in gradrepl (names "
                                 f"starting with '_' are refused)")
        return name

    def _getattr(obj, name, *default):
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        if default and type(name) is str and is_private(name):
            return default[0]
        _attr_name(name)
        try:
            return access.get(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def _hasattr(obj, name):
        if type(name) is str and is_private(name):
            return False
        try:
            access.get(obj, _attr_name(name))
        except AttributeError:
            return False
        return True

    def _setattr(obj, name, value):
        access.set(obj, _attr_name(name), value)

    def _delattr(obj, name):
        access.delete(obj, _attr_name(name))

    def _super(*args):
        if not args:
            raise RuntimeError("super(): no arguments")
        if len(args) != 2:
            raise TypeError("super() takes 2 arguments in gradrepl: super(ClassName, self)")
        return make_super(*args)

    def _iter(obj, *sentinel):
        if not sentinel:
            return iter(obj)
        if len(sentinel) > 1:
            raise TypeError(f"iter expected at most 2 arguments, got {1 + len(sentinel)}")
        if type(obj) is not function and not isinstance(obj, method):
            raise TypeError("iter(callable, sentinel) takes a function you defined in gradrepl")
        return iter(obj, sentinel[0])

    for fn, name in ((_str, "str"), (_list, "list"), (_tuple, "tuple"), (_set, "set"),
                     (_dict, "dict"), (_int, "int")):
        fn.__name__ = fn.__qualname__ = name
    pytypes = {
        int: pytype(int, _int, "int"),
        float: pytype(float, float, "float"),
        complex: pytype(complex, complex, "complex"),
        bool: pytype(bool, bool, "bool"),
        str: pytype(str, _str, "str"),
        list: pytype(list, _list, "list"),
        tuple: pytype(tuple, _tuple, "tuple"),
        dict: pytype(dict, _dict, "dict"),
        set: pytype(set, _set, "set"),
        slice: pytype(slice, slice, "slice"),
    }
    functions = {
        "print": _print, "len": len, "range": range, "enumerate": enumerate, "zip": _zip,
        "abs": abs, "min": _minmax(min, "min"), "max": _minmax(max, "max"), "sum": _sum,
        "round": round, "isinstance": _isinstance, "sorted": _sorted, "reversed": reversed,
        "any": _any, "all": _all, "type": _type, "repr": safe_repr, "format": _format,
        "pow": power, "divmod": divmod, "chr": chr, "ord": ord, "callable": callable,
        "getattr": _getattr, "hasattr": _hasattr, "setattr": _setattr, "delattr": _delattr,
        "super": _super, "map": map, "filter": filter, "id": id, "iter": _iter, "next": next,
        "bin": bin, "hex": hex, "oct": oct, "hash": hash,
    }
    for name, fn in functions.items():
        if hasattr(fn, "__code__"):     # Python's own messages name the function: the public name
            fn.__name__ = fn.__qualname__ = name
    names = {}
    for name in BUILTIN_NAMES:
        names[name] = builtin_function_or_method(functions[name], name) if name in functions \
            else pytypes[{"int": int, "float": float, "complex": complex, "bool": bool, "str": str, "list": list,
                          "tuple": tuple, "dict": dict, "set": set, "slice": slice}[name]]
    for exc in EXCEPTIONS:
        names[exc.__name__] = exc
    if trusted:
        for name in TRUSTED_BUILTIN_NAMES:
            names[name] = builtin_function_or_method(_exit, name)
    return names, pytypes
