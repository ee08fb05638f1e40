"""torch.compile(module): torch._dynamo.eval_frame.OptimizedModule, which runs the module it
wraps (gradrepl compiles nothing: the eager code runs, its outputs behind one
CompiledFunctionBackward node as PyTorch's compiled graph puts them) and reads the wrapped
module's attributes."""
from gradrepl.engine.functional import compiled_outputs
from gradrepl.nn.module import Module

_USER = "_gradrepl_user"       # gradrepl.lang.classes.USER: the mark of a learner's class
_PUBLIC = "gradrepl_public"    # gradrepl.lang.classes.PUBLIC


def _readable(mod, name):
    """Whether user code may read `name` on mod itself (the facade's rule for library and
    learner objects): what the module holds, its learner-defined names, its public host names."""
    if name.startswith("_"):
        return False
    d = mod.__dict__
    if name in d or any(name in d.get(k, ()) for k in ("_parameters", "_buffers", "_modules")):
        return True
    for k in type(mod).__mro__:
        if _USER in k.__dict__:
            if name in k.__dict__:
                return True
        elif _PUBLIC in k.__dict__:
            return name in k.__dict__[_PUBLIC]
    return False


class OptimizedModule(Module):
    torch_path = "torch._dynamo.eval_frame.OptimizedModule"

    def __init__(self, mod):
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args, **kwargs):
        return compiled_outputs(self._orig_mod(*args, **kwargs))

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name != "_orig_mod" and "_modules" in self.__dict__:
                orig = self.__dict__["_modules"].get("_orig_mod")
                if orig is not None and _readable(orig, name):
                    return getattr(orig, name)
            raise


def compile_module(model):
    """torch.compile's answer for a module (None for anything else)."""
    return OptimizedModule(model) if isinstance(model, Module) else None
