"""torch.optim for gradrepl: `namespace()` is what the `torch.optim` facade shows."""
from gradrepl.optim import lr_scheduler
from gradrepl.optim.algorithms import SGD, Adagrad, Adam, AdamW, RMSprop
from gradrepl.optim.optimizer import Optimizer


def namespace():
    return {"Optimizer": Optimizer, "SGD": SGD, "Adam": Adam, "AdamW": AdamW, "RMSprop": RMSprop,
            "Adagrad": Adagrad,
            "lr_scheduler": {name: getattr(lr_scheduler, name) for name in lr_scheduler.PUBLIC}}
