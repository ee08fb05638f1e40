"""torch.nn / optim / utils.data objects reach user code, their host internals never do:
underscore names are refused, host helpers outside the public lists do not exist, and
what the library hands out (generators, bound methods, classes) has no attributes."""
import pytest

from gradrepl.lang import Session, run_source

SETUP = ("import torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\n"
         "model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\nlstm = nn.LSTM(2, 3)\n"
         "opt = torch.optim.Adam(model.parameters())\nsched = torch.optim.lr_scheduler.StepLR(opt, 2)\n"
         "loader = DataLoader(TensorDataset(torch.ones(4, 2)), batch_size=2)\n")


def run(src):
    out = []
    session = Session(write=out.append)
    result = run_source(SETUP + src, session)
    return "".join(out), result


@pytest.mark.parametrize("src", [
    "model._modules\n", "model._parameters\n", "model.__dict__\n", "model.__class__\n",
    "model.parameters().gi_frame\n", "model.parameters().gi_code\n", "model.train.__func__\n",
    "type(model).mro\n", "type(model).forward\n", "nn.Linear.reset_parameters\n", "lstm.cell\n",
    "lstm.run\n", "loader.fetch\n", "loader.batches\n", "opt.update\n", "sched.optimizer.update\n",
    "model[0].weight._a\n", "opt.state_dict.__self__\n", "nn.Module.__subclasses__\n",
    "getattr(model, '_apply')\n", "setattr(model, '_modules', {})\n",
])
def test_host_internals_are_out_of_reach(src):
    out, result = run(src)
    assert not result.ok
    assert result.errors[0].type_name in ("AttributeError", "SyntaxError", "NameError", "TypeError")
    assert "gradrepl." not in result.errors[0].message and "0x" not in out


def test_public_api_works_through_the_sandbox():
    out, result = run("print(len(list(model.parameters())), model[0].in_features, lstm.hidden_size)\n"
                      "print(opt.param_groups[0]['lr'], sched.get_last_lr(), len(loader))\n"
                      "print(type(model), type(model[0].weight), isinstance(model, nn.Module))\n")
    assert result.ok, result.errors
    assert out == ("2 2 3\n0.001 [0.001] 2\n<class 'torch.nn.modules.container.Sequential'> "
                   "<class 'torch.nn.parameter.Parameter'> True\n")


def test_completion_lists_a_models_public_names_parameters_and_methods():
    from gradrepl.engine import api
    from gradrepl.repl.completer import attributes
    session = Session(write=lambda text: None)
    run_source("import torch\nfrom torch import nn\nclass Net(nn.Module):\n    def __init__(self):\n"
               "        super().__init__()\n        self.fc1 = nn.Linear(2, 2)\n    def forward(self, x):\n"
               "        return self.fc1(x)\nnet = Net()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n", session)
    names = attributes(session.namespace["net"], api)
    assert {"fc1", "forward", "parameters", "training", "state_dict"} <= set(names)
    assert not [n for n in names if n.startswith("_")]
    assert attributes(session.namespace["opt"], api) == sorted(
        ["add_param_group", "defaults", "load_state_dict", "param_groups", "state", "state_dict", "step",
         "zero_grad"])
