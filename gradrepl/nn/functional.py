"""torch.nn.functional: the engine's kernels plus what PyTorch composes in Python."""
from gradrepl.nn import backend as B

_ENGINE = B.TORCH["nn"]["functional"]


def linear(input, weight, bias=None):
    out = input.matmul(weight.t())
    return out if bias is None else out + bias


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def _softmax_dim(name, ndim):
    B.warn("UserWarning", f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                          "include dim=X as an argument.")
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return input.softmax(dim, dtype=dtype) if dtype is not None else input.softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return input.log_softmax(dim, dtype=dtype) if dtype is not None else input.log_softmax(dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    return (-input).softmax(dim, dtype=dtype) if dtype is not None else (-input).softmax(dim)


mse_loss = _ENGINE["mse_loss"]
l1_loss = _ENGINE["l1_loss"]
cross_entropy = _ENGINE["cross_entropy"]
nll_loss = _ENGINE["nll_loss"]
binary_cross_entropy = _ENGINE["binary_cross_entropy"]
leaky_relu = _ENGINE["leaky_relu"]


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _ENGINE["dropout"](input, p, training, inplace)


PUBLIC = ("linear", "relu", "sigmoid", "tanh", "softmax", "log_softmax", "softmin", "mse_loss",
          "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy", "leaky_relu", "dropout")


def namespace():
    g = globals()
    return {name: g[name] for name in PUBLIC}
