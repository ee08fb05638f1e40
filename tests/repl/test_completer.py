import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from gradrepl.engine import api
from gradrepl.lang import Session, run_source
from gradrepl.repl.completer import Names, ReplCompleter

SETUP = """
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
import torch.nn.functional as F
def scale(t, factor=2.0, *, bias=0):
    return t * factor + bias
count = 3
"""


@pytest.fixture(scope="module")
def completer():
    session = Session()
    warnings = []
    session.warn = lambda category, message: warnings.append(message)
    assert run_source(SETUP, session).ok
    names = Names(session.namespace, session.fallback, api,
                  meta_commands=lambda: [":help", ":history", ":lesson", ":load", ":vars"],
                  lesson_names=lambda: ["autograd-tutorial", "train-by-hand"],
                  help_topics=["autograd", "keys"])
    completer = ReplCompleter(names)
    completer.warnings = warnings
    return completer


def complete(completer, text):
    doc = Document(text, len(text))
    return [c.text for c in completer.get_completions(doc, CompleteEvent(completion_requested=True))]


@pytest.mark.parametrize("text, expected", [
    ("x.requ", ["requires_grad", "requires_grad_"]),
    ("y.grad_f", ["grad_fn"]),
    ("y.grad_fn.na", ["name"]),
    ("y.grad.ze", ["zero_"]),              # typed by what .grad is, not by reading it
    ("x.shape.nu", ["numel"]),
    ("torch.autograd.functional.", ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]),
    ("torch.no_", ["no_grad"]),
    ("F.mse", ["mse_loss"]),
    ("sca", ["scale"]),
    ("cou", ["count"]),
    ("ex", ["exp", "expm1", "except"]),    # the shorthand, then keywords
    ("count.bit", ["bit_length"]),
    (":hi", [":history"]),
    (":lesson tr", ["train-by-hand"]),
    (":help au", ["autograd"]),
    (":tutor o", ["off", "on"]),
    (":graph ", ["x", "y"]),
    # results of calls and subscripts known to be tensors
    ("x.sum().requ", ["requires_grad", "requires_grad_"]),
    ("torch.ones(3).bac", ["backward"]),
    ("exp(x).grad_", ["grad_dtype", "grad_fn"]),
    ("F.relu(x).deta", ["detach", "detach_"]),
    ("x[0].is_l", ["is_leaf"]),
    ("y.grad[:, 1].ab", ["abs", "abs_", "absolute", "absolute_"]),
])
def test_completions(completer, text, expected):
    assert complete(completer, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("x.backward(", ["gradient=", "retain_graph=", "create_graph=", "inputs="]),
    ("torch.ones(2, 2, requ", ["requires_grad="]),
    ("torch.sum(x, ke", ["keepdim="]),        # torch.sum forwards to Tensor.sum
    ("scale(x, ", ["t=", "factor=", "bias="]),
    ("scale(x, fa", ["factor="]),
    ("x.sum().backward(retain", ["retain_graph="]),
    ("print(x.sum(di", ["dim=", "dict", "dir", "divmod"]),
])
def test_keyword_arguments(completer, text, expected):
    assert complete(completer, text) == expected


@pytest.mark.parametrize("text", [
    "x.__cl",                     # private names are never offered
    "print('x.requ",              # inside a string
    "y  # x.requ",                # inside a comment
    "1e5",
    "x.requires_grad.",           # a bool attribute: nothing known to offer
    "unknown.attr",
    "torch.from_fi",              # refused torch names (torch.from_file) are not offered
    "x.item().",                  # a Python number, not a tensor
    "x.size().",
    "scale(x).",                  # what a learner's function returns is unknown
    "(x + 1).",
])
def test_nothing_to_offer(completer, text):
    assert complete(completer, text) == []


def test_completion_never_reads_grad_of_a_non_leaf(completer):
    complete(completer, "y.grad.")
    complete(completer, "y.grad.add(")
    assert completer.warnings == []


def test_paths_after_load(completer, tmp_path, monkeypatch):
    (tmp_path / "model.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    assert complete(completer, ":load mod") == ["el.py"]
