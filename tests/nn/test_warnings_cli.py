"""PyTorch's warnings where a learner's bug hides, on stderr as Python shows them: the file
and line, `UserWarning: ...`, the source line; once per place (Python's default filter)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

MSE = ("UserWarning: Using a target size (torch.Size([3, 1])) that is different to the input size "
       "(torch.Size([3])). This will likely lead to incorrect results due to broadcasting. Please ensure "
       "they have the same size.")
SOFTMAX = ("UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to "
           "include dim=X as an argument.")


def test_mse_size_mismatch_and_softmax_without_dim_warn_once_with_their_line(tmp_path):
    prog = tmp_path / "train.py"
    prog.write_text("import torch\nimport torch.nn.functional as F\n"
                    "for i in range(3):\n    loss = F.mse_loss(torch.ones(3), torch.ones(3, 1))\n"
                    "p = F.softmax(torch.ones(2, 3))\nprint(loss.item())\n")
    done = subprocess.run([sys.executable, "-m", "gradrepl", "run", str(prog)], env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "0.0\n"
    lines = done.stderr.splitlines()
    assert lines == [f"{prog}:3: {MSE}", "  for i in range(3):",
                     f"{prog}:5: {SOFTMAX}", "  p = F.softmax(torch.ones(2, 3))"]


NODES = ("FutureWarning: Using a non-full backward hook when the forward contains multiple autograd Nodes is "
         "deprecated and will be removed in future versions. This hook will be missing some grad_input. Please "
         "use register_full_backward_hook to get the documented behavior.")
NOT_TENSORS = ("FutureWarning: Using non-full backward hooks on a Module that does not return a single Tensor or "
               "a tuple of Tensors is deprecated and will be removed in future versions. This hook will be missing "
               "some of the grad_output. Please use register_full_backward_hook to get the documented behavior.")


def test_register_backward_hook_warns_where_the_hook_misses_gradients(tmp_path):
    """The old-style module backward hook (as older tutorials register it on a conv layer):
    PyTorch's FutureWarning when the call builds more than the hooked node (a layer with
    weights) or returns something other than tensors; none for a one-node module."""
    prog = tmp_path / "hooks.py"
    prog.write_text("import torch\nrelu = torch.nn.ReLU()\n"
                    "relu.register_backward_hook(lambda m, gi, go: print(len(gi), len(go)))\n"
                    "x = torch.randn(3, requires_grad=True)\n"
                    "relu(x * 2).sum().backward()\n"
                    "lin = torch.nn.Linear(3, 2)\n"
                    "lin.register_backward_hook(lambda m, gi, go: print(len(gi), len(go)))\n"
                    "lin(x).sum().backward()\n"
                    "class Wrap(torch.nn.Module):\n"
                    "    def forward(self, a):\n"
                    "        return [a * 2]\n"
                    "w = Wrap()\nw.register_backward_hook(lambda m, gi, go: print(len(gi), len(go)))\n"
                    "w(x)[0].sum().backward()\n")
    done = subprocess.run([sys.executable, "-m", "gradrepl", "run", str(prog)], env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [ln for ln in done.stdout.splitlines() if "RemovableHandle" not in ln] == ["1 1", "1 1", "2 1"]
    lines = [ln for ln in done.stderr.splitlines() if not ln.startswith("  ")]
    assert lines == [f"{prog}:8: {NODES}", f"{prog}:14: {NOT_TENSORS}"]


def test_cross_without_dim_warns_once_a_process(tmp_path):
    """torch.cross / Tensor.cross with no dim (the introyt tensors tutorial's `torch.cross(v2, v1)`):
    PyTorch's deprecation warning, the first time only; linalg.cross (dim=-1) never warns."""
    prog = tmp_path / "cross.py"
    prog.write_text("import torch\nu = torch.tensor([1., 0., 0.])\nv = torch.tensor([0., 1., 0.])\n"
                    "print(torch.linalg.cross(u, v))\nprint(torch.cross(v, u))\nprint(u.cross(v))\n")
    done = subprocess.run([sys.executable, "-m", "gradrepl", "run", str(prog)], env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "tensor([0., 0., 1.])\ntensor([ 0.,  0., -1.])\ntensor([0., 0., 1.])\n"
    assert done.stderr.splitlines() == [
        f"{prog}:5: UserWarning: Using torch.cross without specifying the dim arg is deprecated.",
        "Please either pass the dim explicitly or simply use torch.linalg.cross.",
        "The default value of dim will change to agree with that of linalg.cross in a future release. "
        "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)",
        "  print(torch.cross(v, u))"]
