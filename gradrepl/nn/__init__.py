"""torch.nn for gradrepl: Module, Parameter, layers, losses, init and functional.

`namespace()` is what the `torch.nn` facade shows user code.
"""
from gradrepl.nn import (activation, attention, compiled, containers, conv, dropout, functional, init, layers, loss, normalization, padding,
                         pooling, rnn, transformer, utils)
from gradrepl.nn.module import Module, Parameter


# classes PyTorch defines in torch.nn.modules.* but does not export as torch.nn.NAME
NOT_IN_TORCH_NN = frozenset(("NonDynamicallyQuantizableLinear",))


def namespace():
    ns = {"Module": Module, "Parameter": Parameter}
    for mod in (containers, layers, activation, conv, pooling, normalization, dropout, padding, loss, rnn, transformer):
        for name, value in vars(mod).items():
            if isinstance(value, type) and "torch_path" in value.__dict__ and not name.startswith("_") \
                    and name not in NOT_IN_TORCH_NN:
                ns[name] = value
    ns["functional"] = functional.namespace()
    ns["init"] = init.namespace()
    ns["utils"] = utils.namespace()
    ns["attention"] = attention.namespace()
    return ns
