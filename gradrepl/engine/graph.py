"""torch.autograd.graph's saved-tensor hooks: saved_tensors_hooks(pack, unpack),
save_on_cpu and disable_saved_tensors_hooks, context managers around the engine's
SAVED_HOOKS stack (autograd.py)."""
from gradrepl.engine.autograd import SAVED_HOOKS

DISABLED = []   # the error messages of the disable_saved_tensors_hooks blocks entered, innermost last


class saved_tensors_hooks:
    """with saved_tensors_hooks(pack, unpack): pack(t) runs when a node saves t for backward,
    unpack(packed) when backward reads it."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if DISABLED:
            raise RuntimeError(DISABLED[-1])
        SAVED_HOOKS.append((self.pack_hook, self.unpack_hook))
        return None

    def __exit__(self, *exc):
        SAVED_HOOKS.pop()
        return False

    def __repr__(self):
        return f"<torch.autograd.graph.{type(self).__name__} object at {id(self):#x}>"


def _keep(t):
    return t


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU (where gradrepl's tensors always are)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(_keep, _keep)


class disable_saved_tensors_hooks:
    """with disable_saved_tensors_hooks(error_message): entering saved_tensors_hooks inside
    raises RuntimeError(error_message); so does entering it while such hooks are active.
    PyTorch's is a contextlib generator, and prints as one."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if SAVED_HOOKS:
            raise RuntimeError(self.error_message)
        DISABLED.append(self.error_message)
        return None

    def __exit__(self, *exc):
        DISABLED.pop()
        return False

    def __repr__(self):
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


CONTEXT_TYPES = {saved_tensors_hooks: "torch.autograd.graph.saved_tensors_hooks",
                 save_on_cpu: "torch.autograd.graph.save_on_cpu",
                 disable_saved_tensors_hooks: "contextlib._GeneratorContextManager"}

GRAPH_NS = {"saved_tensors_hooks": saved_tensors_hooks, "save_on_cpu": save_on_cpu,
            "disable_saved_tensors_hooks": disable_saved_tensors_hooks}
