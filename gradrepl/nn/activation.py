"""The activation modules of torch.nn (torch/nn/modules/activation.py)."""
from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter, _path


class ReLU(Module):
    torch_path = _path("ReLU", "activation")

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    torch_path = _path("Sigmoid", "activation")

    def forward(self, input):
        return input.sigmoid()


class Tanh(Module):
    torch_path = _path("Tanh", "activation")

    def forward(self, input):
        return input.tanh()


class LeakyReLU(Module):
    torch_path = _path("LeakyReLU", "activation")

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.namespace_fn("leaky_relu")(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class _DimActivation(Module):
    """Softmax, LogSoftmax and Softmin keep a `dim` (three unrelated classes in PyTorch)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_DimActivation):
    torch_path = _path("Softmax", "activation")

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_DimActivation):
    torch_path = _path("LogSoftmax", "activation")

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(_DimActivation):
    torch_path = _path("Softmin", "activation")

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


def _activation(name, function, params=(), extra=None, base=Module):
    """An activation module class whose __init__ stores `params` (name, default) and whose
    forward calls nn.functional.`function` with them, printed as `extra(self)`."""
    names = [p for p, _ in params]

    def __init__(self, *args, **kwargs):
        Module.__init__(self)
        values = dict(params)
        for key, value in zip(names, args):
            values[key] = value
        for key, value in kwargs.items():
            if key not in values:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        for key in names:
            setattr(self, key, values[key])

    def forward(self, input):
        return F.namespace_fn(function)(input, *[getattr(self, k) for k in names if k != "inplace"])

    ns = {"torch_path": _path(name, "activation"), "__init__": __init__, "forward": forward,
          "__module__": __name__, "__qualname__": name}
    if extra is not None:
        ns["extra_repr"] = extra
    return type(Module)(name, (base,), ns)


def _inplace_str(self, lead=", "):
    return f"{lead}inplace=True" if self.inplace else ""


GELU = _activation("GELU", "gelu", (("approximate", "none"),), lambda self: f"approximate={self.approximate!r}")
ELU = _activation("ELU", "elu", (("alpha", 1.0), ("inplace", False)),
                  lambda self: f"alpha={self.alpha}{_inplace_str(self)}")
CELU = _activation("CELU", "celu", (("alpha", 1.0), ("inplace", False)),
                   lambda self: f"alpha={self.alpha}{_inplace_str(self)}")
SELU = _activation("SELU", "selu", (("inplace", False),), lambda self: _inplace_str(self, ""))
SiLU = _activation("SiLU", "silu", (("inplace", False),), lambda self: _inplace_str(self, ""))
Mish = _activation("Mish", "mish", (("inplace", False),), lambda self: _inplace_str(self, ""))
Softplus = _activation("Softplus", "softplus", (("beta", 1.0), ("threshold", 20.0)),
                       lambda self: f"beta={self.beta}, threshold={self.threshold}")
Hardtanh = _activation("Hardtanh", "hardtanh", (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)),
                       lambda self: f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self)}")






class ReLU6(Hardtanh):
    torch_path = _path("ReLU6", "activation")

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def forward(self, input):
        return F.namespace_fn("relu6")(input)

    def extra_repr(self):
        return _inplace_str(self, "")


Hardsigmoid = _activation("Hardsigmoid", "hardsigmoid", (("inplace", False),))
Hardswish = _activation("Hardswish", "hardswish", (("inplace", False),))
LogSigmoid = _activation("LogSigmoid", "logsigmoid")
Softsign = _activation("Softsign", "softsign")
Tanhshrink = _activation("Tanhshrink", "tanhshrink")


class Softmax2d(Module):
    torch_path = _path("Softmax2d", "activation")

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class PReLU(Module):
    torch_path = _path("PReLU", "activation")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(B.TORCH["empty"](num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.namespace_fn("prelu")(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Threshold(Module):
    torch_path = _path("Threshold", "activation")

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.namespace_fn("threshold")(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class GLU(Module):
    torch_path = _path("GLU", "activation")

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.namespace_fn("glu")(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class _Shrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def extra_repr(self):
        return f"{self.lambd}"


class Hardshrink(_Shrink):
    torch_path = _path("Hardshrink", "activation")

    def forward(self, input):
        return F.namespace_fn("hardshrink")(input, self.lambd)


class Softshrink(_Shrink):
    torch_path = _path("Softshrink", "activation")

    def forward(self, input):
        return F.namespace_fn("softshrink")(input, self.lambd)


class RReLU(Module):
    torch_path = _path("RReLU", "activation")

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.namespace_fn("rrelu")(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


class ChannelShuffle(Module):
    torch_path = _path("ChannelShuffle", "channelshuffle")

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.namespace_fn("channel_shuffle")(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"
