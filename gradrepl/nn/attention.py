"""torch.nn.attention: SDPBackend's members and the sdpa_kernel context manager, which
restricts the backends F.scaled_dot_product_attention may pick while it is entered (a
CPU-only PyTorch has two: the flash kernel and the math composition; the others never run)."""
from gradrepl.engine.ops import nn_extra
from gradrepl.nn.module import LibraryMeta


_NAMES = ("ERROR", "MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "OVERRIDEABLE")


class SDPBackend(metaclass=LibraryMeta):
    """torch.nn.attention.SDPBackend (PyTorch's torch.nn.attention._SDPBackend): its members
    are its instances, printed as PyTorch's enum members print."""

    torch_path = "torch.nn.attention._SDPBackend"
    gradrepl_public = frozenset(("name", "value"))
    gradrepl_class_public = frozenset(_NAMES)

    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __repr__(self):
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __str__(self):
        return f"SDPBackend.{self.name}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value


for _value, _name in enumerate(_NAMES, start=-1):
    setattr(SDPBackend, _name, SDPBackend(_name, _value))


class SdpaKernel:
    """What sdpa_kernel(...) returns: inside the block only the backends named (one
    SDPBackend or a list of them) are enabled; the block's value is {}."""

    gradrepl_public = frozenset()

    def __init__(self, backends, set_priority=False):
        self.backends = backends
        self.saved = []

    def __enter__(self):
        backends = self.backends
        if not isinstance(backends, (list, SDPBackend)):
            raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances, "
                                 f"got {type(backends).__name__}")
        members = [backends] if isinstance(backends, SDPBackend) else backends
        self.saved.append(nn_extra.SDP_ENABLED[0])
        nn_extra.SDP_ENABLED[0] = frozenset(m.value for m in members if isinstance(m, SDPBackend))
        return {}

    def __exit__(self, *exc):
        if self.saved:
            nn_extra.SDP_ENABLED[0] = self.saved.pop()
        return False

    def __repr__(self):
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


def sdpa_kernel(backends, set_priority=False):
    return SdpaKernel(backends, set_priority)


def namespace():
    return {"SDPBackend": SDPBackend, "sdpa_kernel": sdpa_kernel}
