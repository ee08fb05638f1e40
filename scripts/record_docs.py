"""Record gradrepl's short documentation (help(obj)) from PyTorch 2.13's own docstrings.

Lists every function of gradrepl's torch facade and every public tensor attribute, asks a
Python with torch for each one's docstring, and keeps what PyTorch's docstrings start
with: the signature line and the first sentence of the description (Sphinx roles such
as :attr:`size` reduced to their text). Writes gradrepl/lang/docs.json, keyed by name
("torch.ones", "Tensor.backward"); entries already there that PyTorch does not document
(hand-written ones) are kept. New ops: rerun this script, or add an entry by hand.

    /work/venv/bin/python scripts/record_docs.py [--torch PYTHON]
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TABLE = ROOT / "gradrepl" / "lang" / "docs.json"

_TORCH_SIDE = r'''
import inspect, json, re, sys, torch
import torch.nn.utils.prune  # a submodule torch.nn.utils does not import
MATH = {r"\geq": "≥", r"\leq": "≤", r"\neq": "≠", r"\times": "×", r"\cdot": "·", r"\ge": "≥",
        r"\le": "≤", r"\ne": "≠"}
def clean(text):
    text = re.sub(r":\w+:`~?([^`<]*?)\s*(<[^`]*>)?`", r"\1", text)
    text = re.sub(r"\\(?:text|mathrm|operatorname)\{([^}]*)\}", r"\1", text)
    for tex, sign in MATH.items():
        text = text.replace(tex, sign)
    text = text.replace("torch._C.", "torch.")
    text = re.sub(r"``([^`]*)``", r"\1", text)
    text = re.sub(r"`([^`]*)`", r"\1", text)
    return " ".join(text.split())
def first_sentence(paragraph):
    m = re.match(r"(.+?\.)(\s|$)", paragraph)
    return m.group(1) if m else paragraph
def resolve(name):
    head, *rest = name.split(".")
    obj = torch.Tensor if head == "Tensor" else torch if head == "torch" else __import__(head)
    for part in rest:
        obj = getattr(obj, part)
    return obj
out = {}
for name in json.load(sys.stdin):
    try:
        obj = resolve(name)
    except AttributeError:
        continue
    doc = inspect.getdoc(obj) or ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", doc) if p.strip()]
    short = name.rsplit(".", 1)[-1]
    signature = None
    if not callable(obj):                 # an attribute (grad, shape, requires_grad)
        signature = short
    elif paragraphs and re.match(re.escape(short) + r"\(.*\)", paragraphs[0].split("\n")[0]):
        signature = " ".join(paragraphs.pop(0).split())
    if signature is None:
        try:
            sig = inspect.signature(obj)
            sig = sig.replace(parameters=[q.replace(annotation=inspect.Parameter.empty)
                                          for q in sig.parameters.values()],
                              return_annotation=inspect.Signature.empty)
            signature = short + str(sig)
        except (TypeError, ValueError):
            signature = None
    summary = ""
    for p in paragraphs:
        text = clean(p)
        if text.startswith(("See ", ".. ", "Alias for", "Args:", "Example")) and not text.startswith("See also"):
            m = re.match(r"See (torch\.\w+(?:\.\w+)*)", text)
            if m:
                try:
                    ref = inspect.getdoc(resolve(m.group(1))) or ""
                    parts = [q.strip() for q in re.split(r"\n\s*\n", ref) if q.strip()]
                    if parts and parts[0].startswith(m.group(1).rsplit(".", 1)[-1] + "("):
                        parts.pop(0)
                    if parts:
                        summary = first_sentence(clean(parts[0]))
                        break
                except AttributeError:
                    pass
            if text.startswith("Alias for"):
                summary = first_sentence(text)
                break
            continue
        summary = first_sentence(text)
        break
    if signature or summary:
        signature = (signature or short + "(...)").replace("torch._C.", "torch.")
        out[name] = {"signature": signature, "summary": summary}
json.dump(out, sys.stdout, indent=0)
'''


# Written by hand: what PyTorch documents elsewhere or in words gradrepl cannot show as is.
HAND = {
    "torch.dropout": ("dropout(input, p, train) -> Tensor",
        "torch.nn.functional.dropout's kernel: zeroes elements with probability p and scales the rest by 1 / (1 - p) when train."),
    "torch.dropout_": ("dropout_(input, p, train) -> Tensor", "In-place version of torch.dropout."),
    "torch.feature_dropout": ("feature_dropout(input, p, train) -> Tensor",
        "Zeroes whole channels (dim 1) with probability p, as nn.functional.dropout1d/2d/3d do."),
    "torch.feature_dropout_": ("feature_dropout_(input, p, train) -> Tensor", "In-place version of torch.feature_dropout."),
    "torch.alpha_dropout": ("alpha_dropout(input, p, train) -> Tensor",
        "Alpha dropout (keeps the mean and variance of SELU outputs); see torch.nn.functional.alpha_dropout."),
    "torch.alpha_dropout_": ("alpha_dropout_(input, p, train) -> Tensor", "In-place version of torch.alpha_dropout."),
    "torch.feature_alpha_dropout": ("feature_alpha_dropout(input, p, train) -> Tensor",
        "Alpha dropout of whole channels; see torch.nn.functional.feature_alpha_dropout."),
    "torch.feature_alpha_dropout_": ("feature_alpha_dropout_(input, p, train) -> Tensor",
        "In-place version of torch.feature_alpha_dropout."),
    "torch.as_strided_": ("as_strided_(input, size, stride, storage_offset=None) -> Tensor",
        "In-place version of torch.as_strided: input itself becomes the view of its storage."),
    "torch.ctc_loss": ("ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, "
        "zero_infinity=False) -> Tensor", "The Connectionist Temporal Classification loss (reduction: 0 none, 1 mean, "
        "2 sum); see torch.nn.functional.ctc_loss."),
    "torch.max_pool3d": ("max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor",
        "3D max pooling; see torch.nn.functional.max_pool3d."),
    "torch.max_pool1d": ("max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor",
        "1D max pooling; see torch.nn.functional.max_pool1d."),
    "torch.max_pool1d_with_indices": ("max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, "
        "ceil_mode=False) -> (Tensor, Tensor)", "1D max pooling and the indices of the maxima."),
    "torch.adaptive_max_pool1d": ("adaptive_max_pool1d(input, output_size) -> (Tensor, Tensor)",
        "1D adaptive max pooling: the output and the indices of the maxima."),
    "torch.group_norm": ("group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True) -> Tensor",
        "Group normalization; see torch.nn.functional.group_norm."),
    "torch.instance_norm": ("instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, "
        "eps, cudnn_enabled) -> Tensor", "Instance normalization; see torch.nn.functional.instance_norm."),
    "torch.embedding": ("embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False) -> Tensor",
        "The rows of weight at indices; see torch.nn.functional.embedding (note the order of the arguments)."),
    "torch.rrelu": ("rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None) -> Tensor",
        "Randomized leaky ReLU; see torch.nn.functional.rrelu."),
    "Tensor.prelu": ("prelu(weight) -> Tensor", "See torch.nn.functional.prelu."),
    "torch.masked_scatter": ("masked_scatter(input, mask, source) -> Tensor", "See Tensor.masked_scatter."),
    "torch.put": ("put(input, index, source, accumulate=False) -> Tensor", "See Tensor.put."),
    "torch.index_put": ("index_put(input, indices, values, accumulate=False) -> Tensor", "See Tensor.index_put."),
    "Tensor.new": ("new(*args) -> Tensor", "The legacy constructor: new(data) makes a tensor of the data, new(*sizes) "
                   "an uninitialized one, both with this tensor's dtype (prefer new_tensor / new_empty)."),
    "torch.kl_div": ("kl_div(input, target, reduction=0, *, log_target=False) -> Tensor",
        "The Kullback-Leibler divergence loss (reduction: 0 none, 1 mean, 2 sum); see torch.nn.functional.kl_div."),
    "torch.poisson_nll_loss": ("poisson_nll_loss(input, target, log_input, full, eps, reduction) -> Tensor",
        "Poisson negative log likelihood loss; see torch.nn.functional.poisson_nll_loss."),
    "torch.cosine_embedding_loss": ("cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1) -> Tensor",
        "See torch.nn.functional.cosine_embedding_loss."),
    "torch.triplet_margin_loss": ("triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, "
        "swap=False, reduction=1) -> Tensor", "See torch.nn.functional.triplet_margin_loss."),
    "torch.rms_norm": ("rms_norm(input, normalized_shape, weight=None, eps=None) -> Tensor",
        "Root mean square layer normalization; see torch.nn.functional.rms_norm."),
    "Tensor": ("Tensor", "A multi-dimensional array of one dtype; with requires_grad=True, autograd records "
               "the operations on it so that backward() can compute gradients."),
    "torch.Tensor": ("Tensor", "A multi-dimensional array of one dtype; with requires_grad=True, autograd "
                     "records the operations on it so that backward() can compute gradients."),
    "torch.tensor": ("tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor",
                     "Constructs a tensor with no autograd history (a leaf tensor) by copying data."),
    "Tensor.clamp_min_": ("clamp_min_(min) -> Tensor", "In-place version of Tensor.clamp_min."),
    "Tensor.clamp_max_": ("clamp_max_(max) -> Tensor", "In-place version of Tensor.clamp_max."),
    "torch.clamp_max_": ("clamp_max_(input, max) -> Tensor", "In-place version of torch.clamp_max."),
    "torch.clamp_min_": ("clamp_min_(input, min) -> Tensor", "In-place version of torch.clamp_min."),
    "torch.logit_": ("logit_(input, eps=None) -> Tensor", "In-place version of torch.logit."),
    "torch.nan_to_num_": ("nan_to_num_(input, nan=0.0, posinf=None, neginf=None) -> Tensor",
        "In-place version of torch.nan_to_num."),
    "torch.round_": ("round_(input, *, decimals=0) -> Tensor", "In-place version of torch.round."),
    "torch.square_": ("square_(input) -> Tensor", "In-place version of torch.square."),
    "torch.negative_": ("negative_(input) -> Tensor", "In-place version of torch.negative."),
    "torch.clip_": ("clip_(input, min=None, max=None) -> Tensor", "In-place version of torch.clip."),
    "torch.fix_": ("fix_(input) -> Tensor", "In-place version of torch.fix."),
    "torch.split_with_sizes": ("split_with_sizes(input, split_sizes, dim=0) -> List of Tensors",
        "Splits the tensor into pieces of the given sizes along dim (as torch.split with a list)."),
    "Tensor.split_with_sizes": ("split_with_sizes(split_sizes, dim=0) -> List of Tensors",
        "See torch.split_with_sizes."),
    "torch.is_neg": ("is_neg(input) -> bool",
        "Whether the tensor's negative bit is set (never, for gradrepl's real tensors)."),
    "Tensor.is_nonzero": ("is_nonzero() -> bool", "See torch.is_nonzero."),
    "Tensor.is_same_size": ("is_same_size(other) -> bool", "Whether the tensor and other have the same shape."),
    "Tensor.map2_": ("map2_(x, y, callable)",
        "Not supported in gradrepl: it calls a Python function on every element."),
    "torch.scalar_tensor": ("scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor",
        "A 0-dimensional tensor holding s (of the default floating dtype unless dtype is given)."),
    "torch.threshold": ("threshold(input, threshold, value) -> Tensor",
        "Replaces each element of input that is not greater than threshold by value "
        "(see torch.nn.functional.threshold)."),
    "torch.is_signed": ("is_signed(input) -> bool", "Whether the tensor's dtype is a signed type."),
    "torch.is_same_size": ("is_same_size(input, other) -> bool", "Whether the two tensors have the same shape."),
    "torch.arcsin_": ("arcsin_(input) -> Tensor", "In-place version of torch.arcsin."),
    "torch.arccos_": ("arccos_(input) -> Tensor", "In-place version of torch.arccos."),
    "torch.arctan_": ("arctan_(input) -> Tensor", "In-place version of torch.arctan."),
    "torch.arcsinh_": ("arcsinh_(input) -> Tensor", "In-place version of torch.arcsinh."),
    "torch.arccosh_": ("arccosh_(input) -> Tensor", "In-place version of torch.arccosh."),
    "torch.arctanh_": ("arctanh_(input) -> Tensor", "In-place version of torch.arctanh."),
    "Tensor.shape": ("shape", "The size of the tensor, a torch.Size (a tuple of ints); same as size()."),
    "Tensor.data": ("data", "The tensor's values without autograd history (shares storage with it); "
                    "prefer detach() or torch.no_grad()."),
    "Tensor.dtype": ("dtype", "The data type of the tensor's elements, such as torch.float32."),
    "Tensor.grad_fn": ("grad_fn", "The autograd node that created this tensor (None for a leaf); "
                       "backward() starts from it."),
    "torch.relu": ("relu(input) -> Tensor", "Applies the rectified linear unit function element-wise."),
    "Tensor.relu": ("relu() -> Tensor", "Applies the rectified linear unit function element-wise."),
    "Tensor.relu_": ("relu_() -> Tensor", "In-place version of relu()."),
    "torch.log_softmax": ("log_softmax(input, dim, *, dtype=None) -> Tensor",
                          "Applies a softmax followed by a logarithm along dim."),
    "Tensor.log_softmax": ("log_softmax(dim, *, dtype=None) -> Tensor",
                           "Applies a softmax followed by a logarithm along dim."),
    "Tensor.clamp_max": ("clamp_max(max) -> Tensor", "Clamps all elements to be at most max."),
    "Tensor.clamp_min": ("clamp_min(min) -> Tensor", "Clamps all elements to be at least min."),
    "torch.detach": ("detach(input) -> Tensor", "Returns a new tensor, detached from the current graph."),
    "torch.selu": ("selu(input) -> Tensor", "Applies element-wise the scaled exponential linear unit."),
    "torch.celu": ("celu(input, alpha=1.0) -> Tensor", "Applies element-wise the continuously differentiable "
                   "exponential linear unit."),
    "torch.max_pool2d": ("max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)"
                         " -> Tensor", "Applies a 2D max pooling over an input made of several input planes."),
    "torch.layer_norm": ("layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05) -> Tensor",
                         "Applies layer normalization over the last dimensions of the input."),
    "torch.masked_fill": ("masked_fill(input, mask, value) -> Tensor",
                          "Fills elements of input with value where mask is True."),
    "torch.Generator": ("Generator(device='cpu')", "Creates and returns a generator object that manages the "
                        "state of the algorithm which produces pseudo random numbers."),
    "torch.device": ("device(type, index=None)", "An object representing the device on which a tensor is or "
                     "will be allocated (gradrepl, like a CPU-only PyTorch, has the cpu only)."),
    "torch.finfo": ("finfo(type=None)", "The numerical properties of a floating point dtype: bits, eps, max, "
                    "min, tiny, resolution."),
    "torch.iinfo": ("iinfo(type)", "The numerical properties of an integer dtype: bits, max, min."),
    "torch.autograd.Variable": ("Variable(data, requires_grad=False)", "Deprecated: Variable(t) returns a "
                                "tensor; use tensors directly (requires_grad=True where needed)."),
    "torch.FloatTensor": ("FloatTensor(data)", "The legacy constructor of a torch.float32 tensor; prefer "
                          "torch.tensor(data, dtype=torch.float32)."),
    "torch.DoubleTensor": ("DoubleTensor(data)", "The legacy constructor of a torch.float64 tensor; prefer "
                          "torch.tensor(data, dtype=torch.float64)."),
    "torch.BFloat16Tensor": ("BFloat16Tensor(data)", "The legacy constructor of a torch.bfloat16 tensor; prefer "
                              "torch.tensor(data, dtype=torch.bfloat16)."),
    "torch.HalfTensor": ("HalfTensor(data)", "The legacy constructor of a torch.float16 tensor; prefer "
                          "torch.tensor(data, dtype=torch.float16)."),
    "torch.LongTensor": ("LongTensor(data)", "The legacy constructor of a torch.int64 tensor; prefer "
                          "torch.tensor(data, dtype=torch.int64)."),
    "torch.IntTensor": ("IntTensor(data)", "The legacy constructor of a torch.int32 tensor; prefer "
                          "torch.tensor(data, dtype=torch.int32)."),
    "torch.ShortTensor": ("ShortTensor(data)", "The legacy constructor of a torch.int16 tensor; prefer "
                          "torch.tensor(data, dtype=torch.int16)."),
    "torch.CharTensor": ("CharTensor(data)", "The legacy constructor of a torch.int8 tensor; prefer "
                          "torch.tensor(data, dtype=torch.int8)."),
    "torch.ByteTensor": ("ByteTensor(data)", "The legacy constructor of a torch.uint8 tensor; prefer "
                          "torch.tensor(data, dtype=torch.uint8)."),
    "torch.BoolTensor": ("BoolTensor(data)", "The legacy constructor of a torch.bool tensor; prefer "
                          "torch.tensor(data, dtype=torch.bool)."),
    "torch.clamp_min": ("clamp_min(input, min) -> Tensor", "Clamps all elements of input to be at least min."),
    "torch.clamp_max": ("clamp_max(input, max) -> Tensor", "Clamps all elements of input to be at most max."),
    "torch.index_fill": ("index_fill(input, dim, index, value) -> Tensor",
                         "Out-of-place version of Tensor.index_fill_: fills the elements of input at index "
                         "along dim with value."),
    "torch.is_anomaly_enabled": ("is_anomaly_enabled() -> bool",
                                 "Returns True if anomaly detection is currently enabled."),
    "torch.save": ("save(obj, f, pickle_module=None, pickle_protocol=2)",
                   "Saves a copy of obj under the name f; gradrepl keeps it in the session (no file is "
                   "written), and torch.load(f) returns a fresh copy of it."),
    "torch.load": ("load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None)",
                   "Loads a fresh copy of what torch.save saved under the name f in this session; "
                   "weights_only (the default) refuses modules and optimizers, as PyTorch does."),
    "torch.nn.RNNCellBase": ("RNNCellBase(input_size, hidden_size, bias, num_chunks, device=None, dtype=None)",
                             "Base class of RNNCell, LSTMCell and GRUCell."),
    "help": ("help(obj)", "gradrepl's short documentation of obj: its signature and one line, as PyTorch's "
             "docstrings start."),
    "dir": ("dir([obj])", "The names of obj's attributes (or of your variables), sorted."),
}


def names():
    from gradrepl.lang import Session
    from gradrepl.lang.facade import module

    session = Session()
    found = []
    stack = [(name, mod) for name, mod in session.modules.items()]
    while stack:
        prefix, mod = stack.pop(0)
        for key, value in mod.entries.items():
            if key.startswith("_"):
                continue
            if type(value) is module:
                stack.append((f"{prefix}.{key}", value))
            elif callable(value) and type(value) not in session.access.unavailable:
                found.append(f"{prefix}.{key}")
    tensor = session.api.TORCH["ones"](1)
    found += [f"Tensor.{attr}" for attr in sorted(session.api.public_attrs(tensor)) if not attr.startswith("_")]
    return found


# torch.cuda.FloatTensor & co.: named by old CUDA code; a CPU-only PyTorch (and gradrepl) builds none
HAND.update({f"torch.cuda.{name}": (f"{name}(data)", "The legacy constructor of a CUDA tensor: not available, "
                                    "as in a CPU-only PyTorch (use torch.tensor(data) on the cpu).")
             for name in ("FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor",
                          "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor")})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch installed")
    args = parser.parse_args()
    wanted = names()
    done = subprocess.run([args.torch, "-c", _TORCH_SIDE], input=json.dumps(wanted), capture_output=True,
                          text=True, check=True)
    recorded = json.loads(done.stdout)
    table = json.loads(TABLE.read_text(encoding="utf-8")) if TABLE.exists() else {}
    table.update(recorded)
    table.update({name: {"signature": sig, "summary": summary} for name, (sig, summary) in HAND.items()})
    TABLE.write_text(json.dumps(dict(sorted(table.items())), indent=1, ensure_ascii=False) + "\n",
                     encoding="utf-8")
    missing = [n for n in wanted if n not in table]
    print(f"{len(recorded)} entries recorded from PyTorch; {len(table)} in {TABLE.relative_to(ROOT)}; "
          f"without an entry: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
