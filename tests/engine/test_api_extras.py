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
