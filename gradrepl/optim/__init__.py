"""torch.optim for gradrepl."""


def namespace():
    return {}
