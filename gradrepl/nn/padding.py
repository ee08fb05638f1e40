"""The padding modules of torch.nn (torch/nn/modules/padding.py)."""
from gradrepl.nn import functional as F
from gradrepl.nn.module import Module, _path


def _padding(padding, n):
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * n)


class _ConstantPadNd(Module):
    dims = 1

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _padding(padding, self.dims)
        self.value = value

    def forward(self, input):
        return F.namespace_fn("pad")(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _ModePadNd(Module):
    dims = 1
    mode = "reflect"

    def __init__(self, padding):
        super().__init__()
        self.padding = _padding(padding, self.dims)

    def forward(self, input):
        return F.namespace_fn("pad")(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


def _pad_class(name, bases, dims, mode=None):
    ns = {"torch_path": _path(name, "padding"), "dims": dims, "__module__": __name__, "__qualname__": name}
    if mode is not None:
        ns["mode"] = mode
    return type(Module)(name, bases if isinstance(bases, tuple) else (bases,), ns)


ConstantPad1d = _pad_class("ConstantPad1d", _ConstantPadNd, 1)
ConstantPad2d = _pad_class("ConstantPad2d", _ConstantPadNd, 2)
ConstantPad3d = _pad_class("ConstantPad3d", _ConstantPadNd, 3)
ZeroPad1d = _pad_class("ZeroPad1d", (_ZeroPadNd, ConstantPad1d), 1)
ZeroPad2d = _pad_class("ZeroPad2d", (_ZeroPadNd, ConstantPad2d), 2)
ZeroPad3d = _pad_class("ZeroPad3d", (_ZeroPadNd, ConstantPad3d), 3)
ReflectionPad1d = _pad_class("ReflectionPad1d", _ModePadNd, 1, "reflect")
ReflectionPad2d = _pad_class("ReflectionPad2d", _ModePadNd, 2, "reflect")
ReflectionPad3d = _pad_class("ReflectionPad3d", _ModePadNd, 3, "reflect")
ReplicationPad1d = _pad_class("ReplicationPad1d", _ModePadNd, 1, "replicate")
ReplicationPad2d = _pad_class("ReplicationPad2d", _ModePadNd, 2, "replicate")
ReplicationPad3d = _pad_class("ReplicationPad3d", _ModePadNd, 3, "replicate")
CircularPad1d = _pad_class("CircularPad1d", _ModePadNd, 1, "circular")
CircularPad2d = _pad_class("CircularPad2d", _ModePadNd, 2, "circular")
CircularPad3d = _pad_class("CircularPad3d", _ModePadNd, 3, "circular")
