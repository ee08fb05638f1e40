"""torch.nn.Module machinery, from Python (the learner's side is tests/test_golden_cases.py)."""
import pytest

from gradrepl.engine import api
from gradrepl.nn import activation, containers, layers, loss
from gradrepl.nn.module import Module, Parameter, is_parameter

torch = api.TORCH


def test_linear_draws_pytorchs_numbers_after_manual_seed():
    torch["manual_seed"](0)
    lin = layers.Linear(3, 2)
    # recorded: torch.manual_seed(0); torch.nn.Linear(3, 2).weight / .bias
    assert lin.weight.tolist() == [[-0.004322517663240433, 0.3097158372402191, -0.4751853346824646],
                                   [-0.4248946011066437, -0.2223689705133438, 0.15482072532176971]]
    assert lin.bias.tolist() == [-0.011439144611358643, 0.45777493715286255]


def test_parameters_register_in_order_and_by_name():
    net = containers.Sequential(layers.Linear(2, 3), activation.ReLU(), layers.Linear(3, 1))
    assert [n for n, _ in net.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(is_parameter(p) and p.requires_grad for p in net.parameters())
    assert list(net.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_setattr_rules_match_pytorch():
    m = Module()
    m.w = Parameter(torch["ones"](2))
    assert list(m._parameters) == ["w"]
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'w' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        m.w = torch["ones"](2)
    m.w = None
    assert m.w is None and m._parameters == {"w": None}

    class Early(Module):
        def __init__(self):
            self.p = Parameter(torch["ones"](1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Early()


def test_load_state_dict_reports_missing_and_unexpected_keys():
    a = layers.Linear(2, 2)
    assert repr(a.load_state_dict(layers.Linear(2, 2).state_dict())) == "<All keys matched successfully>"
    with pytest.raises(RuntimeError) as e:
        a.load_state_dict({"weight": torch["zeros"](2, 2), "extra": torch["zeros"](1)})
    assert str(e.value) == ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: '
                            '"bias". \n\tUnexpected key(s) in state_dict: "extra". ')


def test_modulelist_repr_compresses_repeats():
    ml = containers.ModuleList([layers.Linear(2, 2), layers.Linear(2, 2), activation.ReLU()])
    assert repr(ml) == ("ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
                        "  (2): ReLU()\n)")


def test_loss_modules_print_like_pytorch():
    assert repr(loss.MSELoss()) == "MSELoss()"
    assert repr(loss.CrossEntropyLoss()) == "CrossEntropyLoss()"
