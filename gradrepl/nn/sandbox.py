"""What user code may touch on the objects of torch.nn / optim / utils.data.

The language (gradrepl.lang.facade) asks here for any object whose class is a LibraryMeta
class (a library class or a learner's subclass of one): readable names, writable names,
`type(x)` and `isinstance`.
"""
from gradrepl.nn.module import LibraryMeta, Module, Parameter, is_parameter


def is_library(obj):
    return isinstance(type(obj), LibraryMeta)


def public_attrs(obj):
    """Names user code may read on a library object; None when `obj` is not one."""
    t = type(obj)
    if not isinstance(t, LibraryMeta):
        return None
    if isinstance(obj, Module) or hasattr(t, "gradrepl_attrs"):
        names = obj.gradrepl_attrs()
    else:
        names = set(t.gradrepl_public)
        names.update(k for k in obj.__dict__ if not k.startswith("_"))
    for klass in t.__mro__:
        if "torch_path" not in klass.__dict__ and isinstance(klass, LibraryMeta):
            names.update(k for k in klass.__dict__ if not k.startswith("_") and k != "gradrepl_public")
    return names


def settable_attrs(obj):
    """None: any public name (modules, the learner's datasets); else the writable names."""
    t = type(obj)
    if isinstance(obj, Module) or t.__dict__.get("torch_path") is None:
        return None
    return getattr(t, "gradrepl_settable", frozenset())


def type_of(obj):
    """`type(obj)` for library objects and Parameters; None for anything else."""
    if is_parameter(obj):
        return Parameter
    t = type(obj)
    return t if isinstance(t, LibraryMeta) else None


def is_library_class(spec):
    return isinstance(spec, LibraryMeta)
