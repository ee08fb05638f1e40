"""torch.utils.data for gradrepl."""


def namespace():
    return {}
