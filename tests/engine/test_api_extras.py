"""Issue 14 behaviour that golden stdout cases cannot show: PyTorch's warnings on stderr
(never NumPy's), data_ptr identity of views, the numpy() stand-in sharing memory."""
import os
import subprocess
import sys
from pathlib import Path

from gradrepl.engine import api

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path, source):
    f = tmp_path / "prog.py"
    f.write_text(source)
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "gradrepl", "run", str(f)], capture_output=True, text=True,
                          env=env, timeout=120)


def test_std_without_degrees_of_freedom_and_tensor_copy_warn_as_pytorch(tmp_path):
    p = _run(tmp_path, "import torch\nx = torch.tensor([1.5])\nprint(x.std())\ny = torch.tensor(x)\n"
                       "print(torch.tensor([1.0, 2.0]).var(correction=3))\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "tensor(nan)\ntensor(inf)\n"
    assert ("UserWarning: std(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).") in p.stderr
    assert ("UserWarning: To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).") in p.stderr
    assert "UserWarning: var(): degrees of freedom is <= 0" in p.stderr
    assert "site-packages" not in p.stderr and "numpy" not in p.stderr and "RuntimeWarning" not in p.stderr


def test_views_share_data_ptr_and_offsets():
    T = api.TORCH
    x = T["arange"](12.0).reshape(3, 4)
    assert x.data_ptr() == x.view(12).data_ptr()
    assert x[1].data_ptr() == x.data_ptr() + 4 * x.element_size()
    assert x[1].storage_offset() == 4 and x[:, 1:].storage_offset() == 1
    assert x.t().stride() == (1, 4) and x.unsqueeze(1).stride() == (4, 4, 1)


def test_numpy_stand_in_shares_memory_and_hides_the_array():
    T = api.TORCH
    t = T["ones"](3)
    n = t.numpy()
    t.add_(1)
    assert n.tolist() == [2.0, 2.0, 2.0] and str(n) == "[2. 2. 2.]"
    assert "base" not in api.public_attrs(n) and "tofile" not in api.public_attrs(n)
    assert api.type_name(n) == "gradrepl.ndarray"


def test_per_element_python_callbacks_are_refused_with_a_clear_message(tmp_path):
    p = _run(tmp_path, "import torch\nx = torch.ones(3)\nfor name in ['apply_', 'map_', 'map2_']:\n"
                       "    try:\n        getattr(x, name)(abs)\n    except RuntimeError as err:\n        print(err)\n")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 3
    for name, line in zip(["apply_", "map_", "map2_"], lines):
        assert line.startswith(f"Tensor.{name} is not supported in gradrepl: it calls a Python function"), line


def test_cov_warns_as_pytorch_when_degrees_of_freedom_run_out(tmp_path):
    p = _run(tmp_path, "import torch\nprint(torch.cov(torch.tensor([1.0, 2.0]), correction=2))\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "tensor(inf)\n"
    assert "UserWarning: cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of " \
           "observations." in p.stderr


def test_settings_read_back():
    T = api.TORCH
    before = T["get_num_threads"]()
    T["set_num_threads"](1)
    assert T["get_num_threads"]() == 1
    T["set_num_threads"](before)
    T["set_float32_matmul_precision"]("medium")
    assert T["get_float32_matmul_precision"]() == "medium"
    T["set_float32_matmul_precision"]("highest")


def test_deprecated_init_names_warn_and_delegate(tmp_path):
    p = _run(tmp_path, "import torch\nimport torch.nn as nn\nw = nn.init.constant(torch.empty(2), 0.5)\nprint(w)\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "tensor([0.5000, 0.5000])\n"
    assert "FutureWarning: `nn.init.constant` is now deprecated in favor of `nn.init.constant_`." in p.stderr


def test_deprecation_and_mode_warnings_as_pytorch(tmp_path):
    """Texts recorded from PyTorch 2.13 (python -W always), at the learner's line."""
    p = _run(tmp_path, "import torch\nwith torch.autograd.detect_anomaly():\n    pass\nprint(torch.ones(3).T.shape)\n"
                       "print(torch.tensor(2.).T)\nloss = torch.nn.MSELoss(size_average=False)\n"
                       "print(torch.zeros(2, dtype=torch.long).new_tensor(torch.tensor([1.5, 2.5])))\n"
                       "print(torch.nn.functional.l1_loss(torch.ones(2), torch.zeros(2), reduce=False))\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "torch.Size([3])\ntensor(2.)\ntensor([1, 2])\ntensor([1., 1.])\n"
    err = p.stderr
    assert ("prog.py:2: UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.") in err
    assert ("prog.py:4: UserWarning: The use of `x.T` on tensors of dimension other than 2 to reverse their shape "
            "is deprecated and it will throw an error in a future release.") in err
    assert "prog.py:5: UserWarning: Tensor.T is deprecated on 0-D tensors. This function is the identity" in err
    assert ("prog.py:6: UserWarning: size_average and reduce args will be deprecated, please use reduction='sum' "
            "instead.") in err
    assert "rather than tensor.new_tensor(sourceTensor)." in err
    assert "prog.py:8: UserWarning: size_average and reduce args will be deprecated, please use reduction='none'" in err


def test_float_of_a_tensor_that_requires_grad_warns_once_as_pytorch(tmp_path):
    p = _run(tmp_path, "import torch\nx = torch.tensor([0.5, 1.5], requires_grad=True)\nprint(x[0].item(), int(x[1]))\n"
                       "print(float(x[0].detach()))\nprint(float(x[0]))\nprint(float(x.sum()))\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "0.5 1\n0.5\n0.5\n2.0\n"
    warning = ("UserWarning: Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
               "behavior.\nConsider using tensor.detach() first.")
    assert p.stderr.count(warning) == 1 and "prog.py:5:" in p.stderr, p.stderr


def test_affine_grid_and_grid_sample_warn_without_align_corners_as_pytorch(tmp_path):
    p = _run(tmp_path, "import torch\nimport torch.nn.functional as F\ntheta = torch.eye(2, 3).unsqueeze(0)\n"
                       "g = F.affine_grid(theta, (1, 1, 2, 2))\ny = F.grid_sample(torch.ones(1, 1, 2, 2), g)\n"
                       "print(y.sum())\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "tensor(4.)\n"
    assert p.stderr.count("UserWarning: Default grid_sample and affine_grid behavior has changed to "
                          "align_corners=False since 1.3.0.") == 2, p.stderr


def test_old_variable_api_and_storage_warn_as_pytorch(tmp_path):
    """The textbooks' Variable(..., volatile=True), x.volatile and x.storage(): PyTorch 2.13's
    warnings (the storage one the first time only)."""
    p = _run(tmp_path, "import torch\nfrom torch.autograd import Variable\n"
                       "x = Variable(torch.ones(2), volatile=True)\nprint(x.volatile, x.requires_grad)\n"
                       "print(x.storage().size(), x.storage().size())\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == "False False\n2 2\n"
    assert "UserWarning: volatile was removed and now has no effect. Use `with torch.no_grad():` instead." in p.stderr
    assert "UserWarning: volatile was removed (Variable.volatile is always False)" in p.stderr
    assert p.stderr.count("UserWarning: TypedStorage is deprecated.") == 1
