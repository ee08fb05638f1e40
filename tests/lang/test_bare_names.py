"""DECISIONS, bare names: shorthand at the prompt and in files that never import torch; a
file that imports torch is a PyTorch script, where a bare `exp` is a NameError as in Python."""
import pytest
from lang_helpers import run


@pytest.mark.parametrize("importing", ["import torch\n", "from torch import nn\n", "import torch.nn as nn\n",
                                       "if False:\n    import torch\n"])
def test_a_file_that_imports_torch_has_no_shorthand(importing):
    out, result = run(importing + "x = torch.ones(2)\ny = exp(x)\n")
    error = result.errors[0]
    assert error.headline == "NameError: name 'exp' is not defined"
    assert error.hint.startswith("write torch.exp: this file imports torch")


def test_an_expression_file_keeps_the_shorthand():
    out, result = run("x = tensor([0., 1.])\nexp(x)\n")
    assert result.ok and out == "tensor([1.0000, 2.7183])\n"


def test_the_prompt_keeps_the_shorthand_even_after_import_torch():
    out, result = run("import torch\nx = ones(2)\nsigmoid(x * 0)\n", trusted=True)
    assert result.ok and out == "tensor([0.5000, 0.5000])\n"


def test_the_shorthand_comes_back_after_a_script_ran_in_the_session():
    from gradrepl.lang import Session, run_source
    out = []
    session = Session(write=out.append)
    assert not run_source("import torch\nexp(torch.zeros(1))\n", session).ok
    assert run_source("exp(torch.zeros(1))\n", session, trusted=True).ok
    assert out == ["tensor([1.])\n"]


def test_a_learners_own_name_is_not_shorthand():
    out, result = run("import torch\ndef exp(v):\n    return v + 1\nprint(exp(1))\n")
    assert result.ok and out == "2\n"
