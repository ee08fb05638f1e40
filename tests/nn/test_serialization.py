"""torch.save / torch.load: the session's in-memory files (gradrepl.nn.serialization).

PyTorch's printed results are in tests/data/nn_cases/save_load.*; here what a golden case
cannot show: nothing touches the disk, the store belongs to one session, the copies are
independent, weights_only refuses what PyTorch's refuses, and the memory budget caps it."""
import os

import pytest

from gradrepl.lang import Session, run_source
from gradrepl.limits import Limits


def run(src, session=None):
    out = []
    if session is None:
        session = Session()
    session.write_out = out.append
    result = run_source(src, session, trusted=False)
    return "".join(out), result, session


def test_save_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, r, _ = run("import torch\nx = torch.ones(2)\ntorch.save(x, 'x.pt')\ntorch.save(x, '/tmp/nnapi-never.pt')\n"
                    "print(torch.load('x.pt'), torch.load('/tmp/nnapi-never.pt'))\n")
    assert r.ok, r.errors
    assert out == "tensor([1., 1.]) tensor([1., 1.])\n"
    assert os.listdir(tmp_path) == [] and not os.path.exists("/tmp/nnapi-never.pt")


def test_files_belong_to_their_session():
    _, r, session = run("import torch\ntorch.save(torch.ones(1), 'a.pt')\n")
    assert r.ok
    out, r, _ = run("print(torch.load('a.pt'))\n", session)
    assert r.ok and out == "tensor([1.])\n"
    _, r, _ = run("import torch\ntorch.load('a.pt')\n")
    assert r.errors[0].type_name == "FileNotFoundError"
    assert r.errors[0].message == "[Errno 2] No such file or directory: 'a.pt'"


def test_saved_copy_is_a_snapshot_and_each_load_is_independent():
    out, r, _ = run("import torch\nx = torch.zeros(2)\ntorch.save({'x': x}, 'f')\n_ = x.add_(5)\n"
                    "a = torch.load('f')\n_ = a['x'].add_(1)\nb = torch.load('f')\nprint(x, a['x'], b['x'])\n")
    assert r.ok, r.errors
    assert out == "tensor([5., 5.]) tensor([1., 1.]) tensor([0., 0.])\n"


@pytest.mark.parametrize("saved,name", [
    ("torch.nn.Linear(2, 1)", "torch.nn.modules.linear.Linear"),
    ("torch.optim.SGD(torch.nn.Linear(2, 1).parameters(), lr=0.1)", "torch.optim.sgd.SGD"),
    ("Box()", "__main__.Box"),
    ("{'f': range(3)}", "range"),
])
def test_weights_only_refuses_what_pytorchs_unpickler_refuses(saved, name):
    src = f"import torch\nclass Box:\n    pass\ntorch.save({saved}, 'm.pt')\ntorch.load('m.pt')\n"
    _, r, _ = run(src)
    err = r.errors[0]
    assert err.type_name == "UnpicklingError"
    assert err.message.startswith("Weights only load failed. This file can still be loaded")
    assert f"Unsupported global: GLOBAL {name} was not an allowed global by default" in err.message
    out, r, _ = run(src.replace("torch.load('m.pt')", "print(type(torch.load('m.pt', weights_only=False)))"))
    assert r.ok, r.errors


def test_a_whole_user_model_round_trips_with_weights_only_false():
    src = ("import torch\nfrom torch import nn\n_ = torch.manual_seed(0)\n"
           "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(3, 2)\n        self.scale = 2.0\n"
           "    def forward(self, x):\n        return self.fc(x) * self.scale\n"
           "net = Net()\ntorch.save(net, 'net.pt')\nnew = torch.load('net.pt', weights_only=False)\n"
           "x = torch.ones(1, 3)\nprint(type(new), new.fc.weight is net.fc.weight, torch.equal(new(x), net(x)))\n"
           "new(x).sum().backward()\nprint(new.fc.weight.grad is not None, net.fc.weight.grad)\n")
    out, r, _ = run(src)
    assert r.ok, r.errors
    assert out == "<class '__main__.Net'> False True\nTrue None\n"


def test_a_lambda_cannot_be_saved_and_bad_paths_say_what_pytorch_says():
    _, r, _ = run("import torch\ntorch.save({'f': lambda x: x}, 'f.pt')\n")
    assert r.errors[0].type_name == "PicklingError"
    assert r.errors[0].message.endswith(": attribute lookup <lambda> on __main__ failed")
    _, r, _ = run("import torch\ntorch.save(torch.ones(1), 5)\n")
    assert r.errors[0].message == "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
    _, r, _ = run("import torch\ntorch.load(5)\n")
    assert r.errors[0].message.startswith("'int' object has no attribute 'seek'. You can only torch.load from a file")
    _, r, _ = run("import torch\ntorch.save(torch.ones(1), '')\n")
    assert r.errors[0].message == "[enforce fail at inline_container.cc:720] . invalid file name: "
    _, r, _ = run("import torch\ntorch.save(torch.ones(1), 'a.pt')\ntorch.load('a.pt', map_location='cuda')\n")
    assert r.errors[0].message.startswith("Attempting to deserialize object on a CUDA device")


def test_saved_files_are_capped_by_the_memory_budget():
    _, r, _ = run("import torch\ntorch.save(torch.ones(2000), 'a.pt')\ntorch.save(torch.ones(2000), 'a.pt')\n"
                  "torch.save(torch.ones(2000), 'b.pt')\n", Session(limits=Limits(max_bytes=10_000)))
    assert len(r.errors) == 1 and r.errors[0].line == 4
    assert "--max-memory" in r.errors[0].message


def test_a_missing_file_can_be_caught_as_in_python():
    out, r, _ = run("import torch\ntry:\n    sd = torch.load('ckpt.pt')\nexcept FileNotFoundError as e:\n"
                    "    print('no checkpoint:', e)\n    sd = None\nprint(sd)\n")
    assert r.ok, r.errors
    assert out == "no checkpoint: [Errno 2] No such file or directory: 'ckpt.pt'\nNone\n"


def test_deep_nesting_and_cycles():
    out, r, _ = run("import torch\na = []\nfor i in range(600):\n    a = [a]\ntorch.save(a, 'deep.pt')\n")
    # pickle fails there too; here the copy stops at its own depth or at the call-depth budget
    assert r.errors[0].line == 5 and r.errors[0].type_name in ("RecursionError", "BudgetExceeded")
    out, r, _ = run("import torch\nd = {'x': torch.ones(1)}\nd['self'] = d\ntorch.save(d, 'c.pt')\n"
                    "e = torch.load('c.pt')\nprint(e['self'] is e, e['x'])\n"
                    "m = torch.nn.Linear(1, 1)\nk = m.load_state_dict(m.state_dict())\ntorch.save([k], 'k.pt')\n"
                    "print(torch.load('k.pt', weights_only=False))\n")
    assert r.ok, r.errors
    assert out == "True tensor([1.])\n[<All keys matched successfully>]\n"
