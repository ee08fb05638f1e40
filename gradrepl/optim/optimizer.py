"""torch.optim.Optimizer (torch/optim/optimizer.py): parameter groups, state, zero_grad,
state_dict, and PyTorch's printed form."""
from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta, typename

REQUIRED = object()


class Optimizer(metaclass=LibraryMeta):
    torch_path = "torch.optim.optimizer.Optimizer"
    gradrepl_public = frozenset(("param_groups", "state", "defaults", "zero_grad", "step", "state_dict",
                                 "load_state_dict", "add_param_group"))

    def __init__(self, params, defaults):
        self.defaults = defaults
        if B.is_tensor(params):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + typename(params))
        self.state = {}      # keyed by the parameter tensor, as PyTorch's; state_dict() numbers them
        self.param_groups = []
        self._opt_called = False
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {B.class_repr(param_group)}")
        params = param_group["params"]
        if B.is_tensor(params):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not B.is_tensor(param):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is REQUIRED and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter "
                                 f"{name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            B.warn("UserWarning", "optimizer contains a parameter group with duplicate parameters; in future, "
                                  "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                                  "information")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if not seen.isdisjoint(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with B.TORCH["enable_grad"]():
                loss = closure()
        self._opt_called = True
        with B.TORCH["no_grad"]():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        state = self.state.get(p)
                        if state is None:
                            state = {}
                        self.update(p, B.array(p.grad), group, state)
                        if state:
                            self.state[p] = state
        return loss

    def update(self, param, grad, group, state):
        raise NotImplementedError

    def state_dict(self):
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(k)]: dict(v) for k, v in self.state.items() if id(k) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = {old: p for s, g in zip(saved_groups, groups) for old, p in zip(s["params"], g["params"])}
        self.state = {}
        for k, v in state_dict["state"].items():
            if k in id_map:
                self.state[id_map[k]] = {name: value.clone() if B.is_tensor(value) else value
                                             for name, value in v.items()}
        for g, s in zip(groups, saved_groups):
            params = g["params"]
            g.clear()
            g.update({k: v for k, v in s.items() if k != "params"})
            g["params"] = params

    def __repr__(self):
        format_string = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        return format_string + ")"
