"""The layers of torch.nn (linear, flatten, dropout, activations), as torch/nn/modules/*.py."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter


def _path(name, file):
    return f"torch.nn.modules.{file}.{name}"


class Identity(Module):
    torch_path = _path("Identity", "linear")

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    torch_path = _path("Linear", "linear")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(B.TORCH["empty"]((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Flatten(Module):
    torch_path = _path("Flatten", "flatten")

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    torch_path = _path("Unflatten", "flatten")

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)) or \
                    not all(isinstance(e, int) for e in unflattened_size):
                raise TypeError("unflattened_size must be tuple of ints, but found type "
                                f"{type(unflattened_size).__name__}")
        else:
            raise TypeError(f"invalid argument type for dim parameter, got {type(dim).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        shape = list(input.shape)
        d = self.dim if self.dim >= 0 else self.dim + len(shape)
        return input.view(*shape[:d], *self.unflattened_size, *shape[d + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Dropout(Module):
    torch_path = _path("Dropout", "dropout")

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


# ------------------------------------------------------------------ activations
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
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class Softmax(Module):
    torch_path = _path("Softmax", "activation")

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    torch_path = _path("LogSoftmax", "activation")

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(Softmax):
    torch_path = _path("Softmin", "activation")

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)
