"""`:graph` / `gradrepl graph` label a model's parameters with their names in the model
(`0.weight`), as torchviz does with make_dot(y, params=dict(model.named_parameters()))."""
from gradrepl.lang import Session, run_source
from gradrepl.viz.graph import Names, build_graph


def test_leaves_of_a_model_carry_their_parameter_names():
    session = Session(write=lambda text: None)
    run_source("import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), "
               "nn.Linear(3, 1))\nloss = model(torch.ones(4, 2)).mean()\n", session)
    graph = build_graph(session.namespace["loss"], Names(session.namespace))
    leaves = sorted(n.title for n in graph.nodes.values() if n.kind == "leaf")
    assert leaves == ["0.bias", "0.weight", "2.bias", "2.weight"]
    ops = {n.title for n in graph.nodes.values() if n.kind == "op"}
    assert {"AddmmBackward0", "TBackward0", "TanhBackward0", "MeanBackward0"} <= ops
