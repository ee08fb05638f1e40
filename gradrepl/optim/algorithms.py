"""SGD, Adam, AdamW, RMSprop and Adagrad: PyTorch's single-tensor CPU algorithms
(torch/optim/*.py `_single_tensor_*`), each fused kernel computed as ATen's CPU kernel
rounds it: `add_(x, alpha=a)` and `lerp_` as one FMA, `addcmul_` as fma(v*t1, t2, self),
`addcdiv_` as self + (v*t1)/t2, Python scalars cast to float32 first.
"""
import numpy as np

from gradrepl.engine.ops.elementwise import sqrt_kernel as vml_sqrt   # Tensor.sqrt: MKL's VML, as PyTorch's
from gradrepl.nn import backend as B
from gradrepl.optim.optimizer import Optimizer


def _f(value, like):
    return like.dtype.type(value)


def add_alpha(a, b, alpha, out=None):
    """a + alpha * b (Tensor.add(b, alpha=...)), into `out` when given."""
    if a.dtype != np.float32 or alpha == 1:
        return np.add(a, b if alpha == 1 else b * alpha, out=out)
    return B.fma32(b, _f(alpha, a), a, out=out)


def lerp(start, end, weight):
    w = _f(weight, start)
    if start.dtype != np.float32:
        return start + w * (end - start) if abs(w) < 0.5 else end - (end - start) * (1 - w)
    if abs(w) < 0.5:
        return B.fma32(w, end - start, start)
    return B.fma32(w - np.float32(1), end - start, end)


def addcmul(s, t1, t2, value):
    v = _f(value, s)
    return B.fma32(v * t1, t2, s) if s.dtype == np.float32 else s + v * t1 * t2


def addcdiv(s, t1, t2, value):
    return s + (_f(value, s) * t1) / t2


def write(t, values):
    """Store into a tensor's own array (an in-place update under no_grad)."""
    a = B.array(t)
    a[...] = values
    B.bump_version(t)


def _param_update(param, values):
    write(param, values)


def _check_lr(lr):
    if B.is_tensor(lr) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _lr(group):
    lr = group["lr"]
    return lr.item() if B.is_tensor(lr) else lr


class SGD(Optimizer):
    torch_path = "torch.optim.sgd.SGD"

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        g = -grad if group["maximize"] else grad
        wd, momentum = group["weight_decay"], group["momentum"]
        if wd != 0:
            g = add_alpha(g, p, wd)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = B.wrap(np.array(g, copy=True))
            else:
                b = B.array(buf)
                write(buf, add_alpha(b * _f(momentum, b), g, 1 - group["dampening"]))
            bv = B.array(buf)
            g = add_alpha(g, bv, momentum) if group["nesterov"] else bv
        add_alpha(p, g, -_lr(group), out=p)
        B.bump_version(param)


class Adam(Optimizer):
    torch_path = "torch.optim.adam.Adam"
    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["exp_avg"] = B.zeros_like(param)
            state["exp_avg_sq"] = B.zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = B.zeros_like(param)
        g = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        lr, wd, eps = _lr(group), group["weight_decay"], group["eps"]
        step_t = state["step"]
        write(step_t, B.array(step_t) + np.float32(1))
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p = p * _f(1 - lr * wd, p)
            else:
                g = add_alpha(g, p, wd)
        m, v = state["exp_avg"], state["exp_avg_sq"]
        write(m, lerp(B.array(m), g, 1 - beta1))
        va = B.array(v)
        write(v, addcmul(va * _f(beta2, va), g, g, 1 - beta2))
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if group["amsgrad"]:
            mx = state["max_exp_avg_sq"]
            write(mx, np.maximum(B.array(mx), B.array(v)))
            root = vml_sqrt(B.array(mx))
        else:
            root = vml_sqrt(B.array(v))
        denom = root / _f(bias_correction2_sqrt, root) + _f(eps, root)
        _param_update(param, addcdiv(p, B.array(m), denom, -step_size))


class AdamW(Adam):
    torch_path = "torch.optim.adamw.AdamW"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    torch_path = "torch.optim.rmsprop.RMSprop"

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["square_avg"] = B.zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = B.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = B.zeros_like(param)
        step_t = state["step"]
        write(step_t, B.array(step_t) + np.float32(1))
        g = -grad if group["maximize"] else grad
        alpha, eps, wd, momentum = group["alpha"], group["eps"], group["weight_decay"], group["momentum"]
        if wd != 0:
            g = add_alpha(g, p, wd)
        sq = state["square_avg"]
        sa = B.array(sq)
        write(sq, addcmul(sa * _f(alpha, sa), g, g, 1 - alpha))
        if group["centered"]:
            ga = state["grad_avg"]
            write(ga, lerp(B.array(ga), g, 1 - alpha))
            gav = B.array(ga)
            avg = vml_sqrt(addcmul(B.array(sq), gav, gav, -1))
        else:
            avg = vml_sqrt(B.array(sq))
        avg = avg + _f(eps, avg)
        if momentum > 0:
            buf = state["momentum_buffer"]
            b = B.array(buf)
            write(buf, addcdiv(b * _f(momentum, b), g, avg, 1))
            _param_update(param, add_alpha(p, B.array(buf), -_lr(group)))
        else:
            _param_update(param, addcdiv(p, g, avg, -_lr(group)))


class Adagrad(Optimizer):
    torch_path = "torch.optim.adagrad.Adagrad"

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:       # Adagrad's state exists before the first step
            for p in group["params"]:
                self.state[p] = {"step": B.scalar_tensor(0.0),
                                     "sum": B.TORCH["full_like"](p, group["initial_accumulator_value"])}

    def update(self, param, grad, group, state):
        p = B.array(param)
        step_t = state["step"]
        write(step_t, B.array(step_t) + np.float32(1))
        step = step_t.item()
        g = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            g = add_alpha(g, p, group["weight_decay"])
        clr = _lr(group) / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"]
        write(s, addcmul(B.array(s), g, g, 1))
        sa = B.array(s)
        std = vml_sqrt(sa) + _f(group["eps"], sa)
        _param_update(param, addcdiv(p, g, std, -clr))


def _check_betas(betas):
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")


def _check_nonneg(**values):
    for name, value in values.items():
        if not 0.0 <= value:
            raise ValueError(f"Invalid {name} value: {value}")


def _step(state):
    """step_t += 1 (a float32 scalar tensor); its value as a Python float."""
    step_t = state["step"]
    write(step_t, B.array(step_t) + np.float32(1))
    return step_t.item()


def _decayed(g, p, group):
    g = -g if group["maximize"] else g
    if group["weight_decay"] != 0:
        g = add_alpha(g, p, group["weight_decay"])
    return g


class Adadelta(Optimizer):
    torch_path = "torch.optim.adadelta.Adadelta"

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_nonneg(epsilon=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["square_avg"] = B.zeros_like(param)
            state["acc_delta"] = B.zeros_like(param)
        _step(state)
        rho, eps = group["rho"], group["eps"]
        g = _decayed(grad, p, group)
        sq, acc = state["square_avg"], state["acc_delta"]
        sa = B.array(sq)
        write(sq, addcmul(sa * _f(rho, sa), g, g, 1 - rho))
        sa = B.array(sq)
        std = vml_sqrt(sa + _f(eps, sa))
        aa = B.array(acc)
        delta = vml_sqrt(aa + _f(eps, aa)) / std * g
        write(acc, addcmul(aa * _f(rho, aa), delta, delta, 1 - rho))
        _param_update(param, add_alpha(p, delta, -_lr(group)))


class Adamax(Optimizer):
    torch_path = "torch.optim.adamax.Adamax"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_nonneg(epsilon=eps)
        _check_betas(betas)
        _check_nonneg(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["exp_avg"] = B.zeros_like(param)
            state["exp_inf"] = B.zeros_like(param)
        g = -grad if group["maximize"] else grad
        step = _step(state)
        if group["weight_decay"] != 0:
            g = add_alpha(g, p, group["weight_decay"])
        beta1, beta2 = group["betas"]
        m, u = state["exp_avg"], state["exp_inf"]
        write(m, lerp(B.array(m), g, 1 - beta1))
        ua = B.array(u)
        write(u, np.maximum(ua * _f(beta2, ua), np.abs(g) + _f(group["eps"], ua)))
        clr = _lr(group) / (1 - beta1 ** step)
        _param_update(param, addcdiv(p, B.array(m), B.array(u), -clr))


class NAdam(Optimizer):
    torch_path = "torch.optim.nadam.NAdam"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_lr(lr)
        _check_nonneg(epsilon=eps)
        _check_betas(betas)
        _check_nonneg(weight_decay=weight_decay, momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["mu_product"] = B.scalar_tensor(1.0)
            state["exp_avg"] = B.zeros_like(param)
            state["exp_avg_sq"] = B.zeros_like(param)
        g = -grad if group["maximize"] else grad
        step = _step(state)
        beta1, beta2 = group["betas"]
        lr, wd, eps, decay = _lr(group), group["weight_decay"], group["eps"], group["momentum_decay"]
        bias_correction2 = 1 - beta2 ** step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p = p * _f(1 - lr * wd, p)
            else:
                g = add_alpha(g, p, wd)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        mp = state["mu_product"]
        write(mp, B.array(mp) * np.float32(mu))
        m, v = state["exp_avg"], state["exp_avg_sq"]
        write(m, lerp(B.array(m), g, 1 - beta1))
        va = B.array(v)
        write(v, addcmul(va * _f(beta2, va), g, g, 1 - beta2))
        va = B.array(v)
        denom = vml_sqrt(va / _f(bias_correction2, va))
        denom = denom + _f(eps, denom)
        mu_product = mp.item()
        mu_product_next = mu_product * mu_next
        p = addcdiv(p, g, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
        _param_update(param, addcdiv(p, B.array(m), denom, -lr * mu_next / (1.0 - mu_product_next)))


class RAdam(Optimizer):
    torch_path = "torch.optim.radam.RAdam"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_lr(lr)
        _check_nonneg(epsilon=eps)
        _check_betas(betas)
        _check_nonneg(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["exp_avg"] = B.zeros_like(param)
            state["exp_avg_sq"] = B.zeros_like(param)
        g = -grad if group["maximize"] else grad
        step = _step(state)
        beta1, beta2 = group["betas"]
        lr, wd, eps = _lr(group), group["weight_decay"], group["eps"]
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p = p * _f(1 - lr * wd, p)
            else:
                g = add_alpha(g, p, wd)
        m, v = state["exp_avg"], state["exp_avg_sq"]
        write(m, lerp(B.array(m), g, 1 - beta1))
        va = B.array(v)
        write(v, addcmul(va * _f(beta2, va), g, g, 1 - beta2))
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        ma = B.array(m)
        corrected = ma / _f(bias_correction1, ma)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
        update = corrected * _f(lr, ma)
        if rho_t > 5.0:
            va = B.array(v)
            root = vml_sqrt(va)
            root = root + _f(eps, root)
            adaptive = np.reciprocal(root) * _f(bias_correction2 ** 0.5, root)   # Tensor.__rtruediv__
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            update = update * adaptive * _f(rect, ma)
        _param_update(param, add_alpha(p, update, -1.0))


class ASGD(Optimizer):
    torch_path = "torch.optim.asgd.ASGD"

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_nonneg(weight_decay=weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["eta"] = B.scalar_tensor(float(np.float32(_lr(group))))
            state["mu"] = B.scalar_tensor(1.0)
            state["ax"] = B.zeros_like(param)
        g = -grad if group["maximize"] else grad
        step = _step(state)
        lr, lambd, alpha, t0 = _lr(group), group["lambd"], group["alpha"], group["t0"]
        if group["weight_decay"] != 0:
            g = add_alpha(g, p, group["weight_decay"])
        eta, mu, ax = state["eta"], state["mu"], state["ax"]
        eta_value = eta.item()
        p = add_alpha(p * _f(1 - lambd * eta_value, p), g, -eta_value)
        _param_update(param, p)
        p = B.array(param)
        if mu.item() != 1:
            a = B.array(ax)
            write(ax, a + (p - a) * B.array(mu))
        else:
            write(ax, p)
        write(eta, np.float32(lr / (1 + lambd * lr * step) ** alpha))
        write(mu, np.float32(1 / max(1, step - t0)))


class Rprop(Optimizer):
    torch_path = "torch.optim.rprop.Rprop"

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def update(self, param, grad, group, state):
        p = B.array(param)
        if not state:
            state["step"] = B.scalar_tensor(0.0)
            state["prev"] = B.zeros_like(param)
            state["step_size"] = B.TORCH["full_like"](param, _lr(group))
        g = -grad if group["maximize"] else grad
        _step(state)
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        prev, step_size = state["prev"], state["step_size"]
        sign = np.sign(g * B.array(prev))
        sign[sign > 0] = etaplus
        sign[sign < 0] = etaminus
        sign[sign == 0] = 1
        ss = B.array(step_size)
        write(step_size, np.clip(ss * sign, _f(step_size_min, ss), _f(step_size_max, ss)))
        g = np.array(g, copy=True)
        g[sign == _f(etaminus, sign)] = 0
        _param_update(param, addcmul(p, np.sign(g), B.array(step_size), -1))
        write(prev, g)
