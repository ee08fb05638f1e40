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
