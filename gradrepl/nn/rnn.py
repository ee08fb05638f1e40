"""RNN, LSTM and GRU (torch/nn/modules/rnn.py): PyTorch's parameters, names, initial values
and printed form; the recurrence is written with the engine's ops, step by step (PyTorch's
CPU kernel fuses it, so gradients flow through ordinary nodes here)."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """ATen's GRUCell (RNN.cpp): h' = (h - n) * z + n, in its order of operations."""
    linear = F.namespace_fn("linear")
    gi = linear(x, w_ih, b_ih).chunk(3, -1)
    gh = linear(h, w_hh, b_hh).chunk(3, -1)
    r = (gh[0] + gi[0]).sigmoid()
    z = (gh[1] + gi[1]).sigmoid()
    n = (gi[2] + gh[2] * r).tanh()
    return (h - n) * z + n


class RNNBase(Module):
    torch_path = "torch.nn.modules.rnn.RNNBase"
    gradrepl_public = Module.gradrepl_public | {"reset_parameters", "all_weights"}

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            B.warn("UserWarning", "dropout option adds dropout after all but last recurrent layer, so non-zero "
                                  "dropout expects num_layers greater than 1, but got "
                                  f"dropout={dropout} and num_layers={num_layers}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size:
            raise NotImplementedError("LSTM(proj_size=...) is not available in gradrepl")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        names = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else hidden_size * directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for kind, shape in shapes:
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(B.TORCH["empty"](shape, dtype=dtype)))
                    names.append(name)
        object.__setattr__(self, "_flat_weights_names", names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in self._flat_weights_names[i:i + (4 if self.bias else 2)]]
                for i in range(0, len(self._flat_weights_names), 4 if self.bias else 2)]

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ------------------------------------------------------------ the recurrence
    def cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        linear = F.namespace_fn("linear")
        if self.mode == "LSTM":
            h, c = state
            gates = linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh)
            i, f, g, o = gates.chunk(4, -1)
            c = f.sigmoid() * c + i.sigmoid() * g.tanh()
            h = o.sigmoid() * c.tanh()
            return h, (h, c)
        if self.mode == "GRU":
            h = gru_cell(x, state, w_ih, w_hh, b_ih, b_hh)
            return h, h
        pre = linear(x, w_ih, b_ih) + linear(state, w_hh, b_hh)
        h = pre.tanh() if self.mode == "RNN_TANH" else pre.relu()
        return h, h

    def run(self, input, hx):
        stack = B.TORCH["stack"]
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")
        steps, batch = input.size(0), input.size(1)
        directions = 2 if self.bidirectional else 1
        zeros = B.TORCH["zeros"](self.num_layers * directions, batch, self.hidden_size, dtype=input.dtype)
        lstm = self.mode == "LSTM"
        if hx is None:
            h0, c0 = zeros, zeros
        elif lstm:
            h0, c0 = hx
            if not batched:
                h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
        else:
            h0 = hx if batched else hx.unsqueeze(1)
        per_step = 4 if self.bias else 2
        layer_input = input
        finals_h, finals_c = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                k = layer * directions + direction
                names = self._flat_weights_names[k * per_step:(k + 1) * per_step]
                w = [getattr(self, n) for n in names] + [None] * (4 - per_step)
                state = (h0[k], c0[k]) if lstm else h0[k]
                order = range(steps) if direction == 0 else range(steps - 1, -1, -1)
                outs = [None] * steps
                for t in order:
                    outs[t], state = self.cell(layer_input[t], state, *w)
                layer_out = stack(outs, 0)
                outputs.append(B.rnn_layer_output(layer_out) if lstm else layer_out)
                if lstm:
                    finals_h.append(state[0])
                    finals_c.append(state[1])
                else:
                    finals_h.append(state)
            layer_input = outputs[0] if directions == 1 else B.TORCH["cat"](outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        h_n = stack(finals_h, 0)
        c_n = stack(finals_c, 0) if lstm else None
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = None if c_n is None else c_n.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, ((h_n, c_n) if lstm else h_n)


class RNN(RNNBase):
    torch_path = "torch.nn.modules.rnn.RNN"

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional)

    def forward(self, input, hx=None):
        return self.run(input, hx)


class LSTM(RNNBase):
    torch_path = "torch.nn.modules.rnn.LSTM"

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size)

    def forward(self, input, hx=None):
        return self.run(input, hx)


class GRU(RNNBase):
    torch_path = "torch.nn.modules.rnn.GRU"

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional)

    def forward(self, input, hx=None):
        return self.run(input, hx)


# ------------------------------------------------------------------ single steps
class RNNCellBase(Module):
    """RNNCell, LSTMCell, GRUCell (torch/nn/modules/rnn.py): one step of the recurrence, as
    ATen's rnn_tanh_cell / lstm_cell / gru_cell compose it (RNN.cpp's SimpleCell, LSTMCell,
    GRUCell): gates = linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih)."""
    torch_path = "torch.nn.modules.rnn.RNNCellBase"
    gradrepl_public = Module.gradrepl_public | {"reset_parameters", "input_size", "hidden_size", "bias"}

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        n = num_chunks * hidden_size
        self.weight_ih = Parameter(B.TORCH["empty"]((n, input_size), dtype=dtype))
        self.weight_hh = Parameter(B.TORCH["empty"]((n, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(B.TORCH["empty"](n, dtype=dtype))
            self.bias_hh = Parameter(B.TORCH["empty"](n, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx):
        """(input, hx, is_batched) as the Python forward prepares them."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        return input, is_batched

    def _check(self, input, hiddens):
        """ATen's check_rnn_cell_forward_input / _hidden."""
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.input_size}")
        for k, hx in enumerate(hiddens):
            if input.size(0) != hx.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{k} batch size "
                                   f"{hx.size(0)}")
            if hx.size(1) != self.hidden_size:
                raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got {hx.size(1)}, expected "
                                   f"{self.hidden_size}")

    def _zeros(self, input):
        return B.TORCH["zeros"](input.size(0), self.hidden_size, dtype=input.dtype)

    def _gates(self, input, hx):
        linear = F.namespace_fn("linear")
        return linear(hx, self.weight_hh, self.bias_hh) + linear(input, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    torch_path = "torch.nn.modules.rnn.RNNCell"
    gradrepl_public = RNNCellBase.gradrepl_public | {"nonlinearity"}

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        input, is_batched = self._batched(input, hx)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(input, (hx,))
        pre = self._gates(input, hx)
        ret = pre.tanh() if self.nonlinearity == "tanh" else pre.relu()
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    torch_path = "torch.nn.modules.rnn.LSTMCell"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        if hx is not None:
            if B.is_tensor(hx) or not isinstance(hx, (tuple, list)):
                raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                                f"{'Tensor' if B.is_tensor(hx) else type(hx).__name__}")
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        input, is_batched = self._batched(input, hx)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        h, c = hx
        self._check(input, (h, c))
        ingate, forgetgate, cellgate, outgate = self._gates(input, h).chunk(4, 1)
        ingate, forgetgate = ingate.sigmoid(), forgetgate.sigmoid()
        cellgate, outgate = cellgate.tanh(), outgate.sigmoid()
        cy = forgetgate * c + ingate * cellgate
        hy = outgate * cy.tanh()
        return (hy, cy) if is_batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    torch_path = "torch.nn.modules.rnn.GRUCell"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        input, is_batched = self._batched(input, hx)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        self._check(input, (hx,))
        ret = gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
