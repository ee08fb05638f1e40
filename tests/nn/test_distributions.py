"""torch.distributions beyond the golden cases (tests/data/nn_cases/dist_*): what gradrepl
refuses, and the host helpers of the distribution classes that user code cannot reach."""
import pytest

from gradrepl.lang import Session, run_source

SETUP = ("import torch\nfrom torch.distributions import Normal, Gamma, Categorical\n"
         "d = Normal(torch.zeros(2), torch.ones(2))\nc = Categorical(logits=torch.zeros(3))\n")


def run(src):
    out = []
    session = Session(write=out.append)
    result = run_source(SETUP + src, session)
    return "".join(out), result


def test_gamma_rsample_with_a_concentration_that_requires_grad_is_refused_clearly():
    out, result = run("a = torch.tensor([2.0], requires_grad=True)\nGamma(a, 1.0).rsample()\n")
    assert [e.headline for e in result.errors] == [
        "NotImplementedError: Gamma.rsample with a concentration that requires grad is not supported in gradrepl "
        "yet (PyTorch's _standard_gamma_grad); sample() or a concentration without grad works"]


@pytest.mark.parametrize("src", ["d.validate_sample\n", "d.new_instance\n", "d.extended_shape\n", "d.validating\n",
                                 "d._validate_args\n", "c._param\n", "Normal.new_instance\n"])
def test_host_helpers_are_out_of_reach(src):
    out, result = run(src)
    assert not result.ok and result.errors[0].headline.startswith("AttributeError")


def test_public_names_read():
    out, result = run("print(d.loc, d.batch_shape, c.probs.shape, Normal.has_rsample, d.support)\n")
    assert result.ok, result.errors
    assert out == "tensor([0., 0.]) torch.Size([2]) torch.Size([3]) True Real()\n"
