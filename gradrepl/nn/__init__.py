"""torch.nn for gradrepl: Module, Parameter, layers, losses, init and functional.

`namespace()` is what the `torch.nn` facade shows user code.
"""
from gradrepl.nn import containers, functional, init, layers, layers_extra, loss, rnn, utils
from gradrepl.nn.module import Module, Parameter


def namespace():
    ns = {"Module": Module, "Parameter": Parameter}
    for mod in (containers, layers, layers_extra, loss, rnn):
        for name, value in vars(mod).items():
            if isinstance(value, type) and "torch_path" in value.__dict__ and not name.startswith("_"):
                ns[name] = value
    ns["functional"] = functional.namespace()
    ns["init"] = init.namespace()
    ns["utils"] = utils.namespace()
    return ns
