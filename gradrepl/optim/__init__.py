"""torch.optim for gradrepl: `namespace()` is what the `torch.optim` facade shows."""
from gradrepl.optim import lr_scheduler
from gradrepl.optim.algorithms import ASGD, SGD, Adadelta, Adagrad, Adam, Adamax, AdamW, NAdam, RAdam, RMSprop, Rprop
from gradrepl.optim.lbfgs import LBFGS
from gradrepl.optim.optimizer import Optimizer


def namespace():
    return {"Optimizer": Optimizer, "SGD": SGD, "Adam": Adam, "AdamW": AdamW, "RMSprop": RMSprop,
            "Adagrad": Adagrad, "Adadelta": Adadelta, "Adamax": Adamax, "NAdam": NAdam, "RAdam": RAdam,
            "ASGD": ASGD, "Rprop": Rprop, "LBFGS": LBFGS,
            "lr_scheduler": {name: getattr(lr_scheduler, name) for name in lr_scheduler.PUBLIC}}
