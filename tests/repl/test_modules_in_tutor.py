"""The tutor with torch.nn: a model prints as PyTorch prints it, its parameters appear
under their names (`model.0.weight`) in the .grad table after backward, :vars and :grad."""


def test_model_parameters_in_grad_table_vars_and_grad(drive):
    out = drive("\r".join([
        "torch.manual_seed(0)",
        "model = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.ReLU())",
        "model",
        "loss = model(torch.ones(3, 2)).sum()",
        "loss.backward()",
        ":vars",
        ":grad model",
    ]) + "\r")
    assert "Sequential(\n  (0): Linear(in_features=2, out_features=1, bias=True)\n  (1): ReLU()\n)" in out
    table = out[out.index(".grad changed"):]
    assert "model.0.weight" in table and "model.0.bias" in table and "(1, 2)" in table
    rows = out[out.index("requires_grad"):]
    assert "model.0.weight" in rows and "yes (1, 2)" in rows
    assert "model: .grad" in out
    assert drive.status == 0
