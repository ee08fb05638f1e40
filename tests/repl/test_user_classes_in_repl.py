"""A learner's classes and generators in the REPL: typed at the prompt or loaded with
:load, shown by :vars and :grad without host names, a user nn.Module's parameters listed
under their names."""


def test_class_generator_and_module_in_the_repl(drive, tmp_path):
    model = tmp_path / "model.py"
    model.write_text("import torch\nclass Net(torch.nn.Module):\n    def __init__(self):\n"
                     "        super().__init__()\n        self.fc = torch.nn.Linear(2, 1)\n\n"
                     "    def forward(self, x):\n        return self.fc(x)\n")
    out = drive("\r".join([
        "class Point:",
        "def __init__(self, x):",
        "self.x = x",
        "", "", "",
        "p = Point(3)",
        "p.x * 11",
        "def gen():",
        "yield 7",
        "", "",
        "g = gen()",
        "next(g) * 6",
        f":load {model}",
        "net = Net()",
        "net(torch.ones(1, 2)).sum().backward()",
        "net",
        ":vars",
        ":grad net",
    ]) + "\r")
    assert "\n33\n" in out and "\n42\n" in out
    assert "Net(\n  (fc): Linear(in_features=2, out_features=1, bias=True)\n)" in out
    assert "net.fc.weight" in out and "net: .grad" in out
    assert "p (Point)" in out and "g (generator)" in out and "net (Net)" in out
    for host in ("gradrepl.", "user_method", "LibraryMeta", "Traceback", "Error"):
        assert host not in out
    assert drive.status == 0
