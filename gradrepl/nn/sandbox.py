"""How the language sees torch.nn / optim / utils.data objects beyond their `gradrepl_public`
lists (read by gradrepl.lang.classes / facade): `type(x)` and `isinstance`."""
from gradrepl.nn.module import LibraryMeta, Parameter, is_parameter


def type_of(obj):
    """`type(obj)` for library objects (their class, printing as PyTorch's) and Parameters."""
    if is_parameter(obj):
        return Parameter
    t = type(obj)
    return t if isinstance(t, LibraryMeta) else None


def is_library_class(spec):
    return isinstance(spec, LibraryMeta)
