"""The learner's own classes: `class Point:`, `class B(A)`, `class Net(nn.Module)`.

A user class is a real host class made at run time with `type(name, (base,), ns)`, so
Python's own machinery (instances, `isinstance`, reprs such as `<__main__.Point object at
0x...>`, and a host base's `__setattr__`/`__call__`, as nn.Module has) works unchanged.
The namespace holds only what the learner wrote: methods (as descriptors that bind the
sandbox function to the instance), static/class methods and class constants, plus the
marker USER.  User code reaches these classes only through gradrepl.lang.facade.Access,
which reads names the learner defined and the public names a subclassable host base lists
(`gradrepl_public`), never anything else of the host class.
"""
from gradrepl.engine.tensor import PARAMETERS, Tensor
from gradrepl.lang.policy import EXCEPTION_ATTRS
from gradrepl.lang.runtime import function, safe_repr

# torch.Tensor's methods written in Python (torch/_tensor.py) print as bound methods; the rest are C
TENSOR_PYTHON_METHODS = frozenset(("backward", "dim_order", "is_shared", "istft", "lu", "module_load", "norm",
                                   "register_hook", "register_post_accumulate_grad_hook", "resize", "resize_as",
                                   "share_memory_", "split", "stft", "storage", "storage_type", "to_sparse_coo",
                                   "unflatten", "unique", "unique_consecutive"))

USER = "_gradrepl_user"     # in every user class's namespace; user code cannot name it
PUBLIC = "gradrepl_public"  # on a subclassable host base: the names user code may read


class method:
    """A user method bound to its instance (or class, for a classmethod); also a tensor's
    method read without a call (`t.sum`), printed as PyTorch prints it."""

    __slots__ = ("fn", "obj", "name")

    def __init__(self, fn, obj, name=None):
        self.fn = fn
        self.obj = obj
        self.name = name        # the def's qualified name, when a decorator wrapped it

    def __call__(self, *args, **kwargs):
        fn = self.fn
        if type(fn) is function:
            return fn.invoke((self.obj, *args), kwargs)
        return fn(self.obj, *args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, method) and other.fn is self.fn and other.obj is self.obj

    def __hash__(self):
        return hash((id(self.fn), id(self.obj)))

    def __repr__(self):
        fn = self.fn
        name = self.name or (fn.name if type(fn) is function
                             else getattr(fn, "__qualname__", "function"))
        if type(self.obj) is Tensor:
            short = name.rsplit(".", 1)[-1]
            if short not in TENSOR_PYTHON_METHODS:
                kind = "Parameter" if PARAMETERS.get(id(self.obj)) is self.obj else "Tensor"
                return f"<built-in method {short} of {kind} object at {id(self.obj):#x}>"
            name = f"Tensor.{short}"
        return f"<bound method {name} of {safe_repr(self.obj)}>"


class tensor_builtin_method(method):
    """A tensor's C-level method read without a call (`x.size`): Python's messages name its type
    'builtin_function_or_method', as they do PyTorch's (`x.size[0]` is not subscriptable)."""

    __slots__ = ()


tensor_builtin_method.__name__ = tensor_builtin_method.__qualname__ = "builtin_function_or_method"


def bound_method(fn, obj, name):
    """The method object for `obj.name` read without a call."""
    if type(obj) is Tensor and name not in TENSOR_PYTHON_METHODS:
        return tensor_builtin_method(fn, obj, name)
    return method(fn, obj, name)


class user_method:
    """A plain method in a class namespace: binds to the instance it is read from."""

    __slots__ = ("fn", "name")

    def __init__(self, fn, name=None):
        self.fn = fn
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.fn
        return method(self.fn, obj, self.name)


class user_property:
    """`@property` on a method: a read-only computed attribute."""

    __slots__ = ("fn", "name")

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        fn = self.fn
        return fn.invoke((obj,), {}) if type(fn) is function else fn(obj)

    def __set__(self, obj, value):
        raise AttributeError(f"property '{self.name}' of '{type(obj).__name__}' object has no "
                             f"setter")

    def __delete__(self, obj):
        raise AttributeError(f"property '{self.name}' of '{type(obj).__name__}' object has no "
                             f"deleter")

    def __repr__(self):
        return f"<property object at {id(self):#x}>"


user_property.__name__ = "property"


class user_classmethod:
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, obj, cls=None):
        return method(self.fn, cls if cls is not None else type(obj))


class user_staticmethod:
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, obj, cls=None):
        return self.fn


def _no_union(cls, other):
    return NotImplemented


_METAS = {}


def _meta_for(kind):
    """A metaclass over the base's own metaclass: `Point | None` (a host union object) is
    refused; everything else is the base's metaclass. Each one derives from the plain classes'
    one too, so a class may have a learner's class and nn.Module as bases together."""
    meta = _METAS.get(kind)
    if meta is None:
        bases = (kind,) if kind is type else (kind, _meta_for(type))
        meta = _METAS[kind] = type("type", bases, {"__or__": _no_union, "__ror__": _no_union,
                                                   "__module__": "builtins"})
    return meta


def _host_kind(base):
    """The metaclass a base brings (the host's own, under the refusing layer)."""
    kind = type(base)
    return kind.__bases__[0] if kind in _METAS.values() else kind


def is_user_class(obj):
    return isinstance(obj, type) and USER in obj.__dict__


def is_user_instance(obj):
    return getattr(type(obj), USER, False) is True


def is_subclassable(obj):
    """A host class the learner may subclass (nn.Module, Dataset)."""
    return isinstance(obj, type) and getattr(obj, "gradrepl_subclassable", False) is True \
        and USER not in obj.__dict__     # (nn.Linear too: subclasses of a marked class)


def host_public(cls):
    """The names of a user class's host part (nn.Module's methods) user code may read."""
    if issubclass(cls, BaseException):
        return EXCEPTION_ATTRS
    for k in cls.__mro__:
        if USER not in k.__dict__:      # a learner's class attribute never widens the list
            names = k.__dict__.get(PUBLIC)
            if names is not None:
                return names
    return frozenset()


def make_class(name, qualname, base, entries, doc):
    """The host class for `class name(base)` (base None, a class, or a tuple of classes for
    `class name(A, B)`: Python's own MRO orders them); entries: (attr, kind, value) in source
    order, kind one of 'method', 'static', 'class', 'property', 'value'."""
    ns = {"__module__": "__main__", "__qualname__": qualname, "__doc__": doc, USER: True}
    for attr, kind, value in entries:
        if kind == "method":
            value = user_method(value, f"{qualname}.{attr}")
        elif kind == "static":
            value = user_staticmethod(value)
        elif kind == "class":
            value = user_classmethod(value)
        elif kind == "property":
            value = user_property(value, attr)
        else:
            value = as_class_value(value)     # f = lambda self: ... is a method too
        ns[attr] = value
    bases = base if isinstance(base, tuple) else (base,) if base is not None else (object,)
    kinds = [_host_kind(b) for b in bases]
    kind = kinds[0]
    for k in kinds[1:]:
        if issubclass(k, kind):
            kind = k
        elif not issubclass(kind, k):
            raise TypeError("metaclass conflict: the metaclass of a derived class must be a (non-strict) "
                            "subclass of the metaclasses of all its bases")
    return _meta_for(kind)(name, bases, ns)


def owner_of(cls, name, start=0):
    """The class in cls's MRO (from index start) whose namespace defines name, or None."""
    mro = cls.__mro__
    for k in mro[start:]:
        if name in k.__dict__:
            return k
    return None


def class_attr(cls, owner, name):
    """Reading a user-defined attribute from the class itself (`Point.origin`)."""
    raw = owner.__dict__[name]
    kind = type(raw)
    if kind is user_method or kind is user_staticmethod:
        return raw.fn
    if kind is user_classmethod:
        return method(raw.fn, cls)
    return raw


def as_class_value(value):
    """A value assigned to a class attribute from user code: functions become methods."""
    if type(value) is function:
        return user_method(value)
    return value


class super_proxy:
    """What `super()` / `super(Name, self)` returns: attribute reads go past `cls`."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls, obj):
        self.cls = cls
        self.obj = obj

    def __repr__(self):
        return f"<super: <class '{self.cls.__name__}'>, <{type(self.obj).__name__} object>>"


super_proxy.__name__ = "super"


def make_super(cls, obj):
    if not isinstance(cls, type) or not (is_user_class(cls) or is_subclassable(cls)):
        raise TypeError("super() argument 1 must be a class")
    if not isinstance(obj, cls) and not (isinstance(obj, type) and issubclass(obj, cls)):
        raise TypeError("super(type, obj): obj must be an instance or subtype of type")
    return super_proxy(cls, obj)
