"""torch.distributions for gradrepl, as torch/distributions/*.py compute them.

Every value is composed from gradrepl's own ops in PyTorch's formula and order, so grad_fn
chains and bits follow PyTorch's; sample()/rsample() draw through the same generator calls
(torch.normal, torch.bernoulli, torch.rand, normal_, exponential_, torch.multinomial), so
after torch.manual_seed the draws are PyTorch's. Argument and sample validation (on by
default, as PyTorch's `__debug__`) raise PyTorch's ValueError text.
"""
import math

from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta

TORCH = B.TORCH
_NUMBER = (int, float)


def _size(shape=()):
    return TORCH["Size"](shape)


def _F(name):
    return TORCH["nn"]["functional"][name]


def _is_number(x):
    return isinstance(x, _NUMBER) or (hasattr(x, "__index__") and not B.is_tensor(x))


def broadcast_all(*values):
    """torch.distributions.utils.broadcast_all: numbers become tensors of the first tensor's dtype."""
    if not all(B.is_tensor(v) or _is_number(v) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(B.is_tensor(v) for v in values):
        dtype = TORCH["get_default_dtype"]()
        for v in values:
            if B.is_tensor(v):
                dtype = v.dtype
                break
        values = [v if B.is_tensor(v) else TORCH["tensor"](v, dtype=dtype) for v in values]
    return TORCH["broadcast_tensors"](*values)


def _standard_normal(shape, dtype):
    return TORCH["empty"](tuple(shape), dtype=dtype).normal_()


def _sum_rightmost(value, dim):
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def clamp_probs(probs):
    eps = TORCH["finfo"](probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


_clamp_probs = clamp_probs


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return TORCH["log"](ps_clamped) - TORCH["log1p"](-ps_clamped)
    return TORCH["log"](ps_clamped)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return TORCH["sigmoid"](logits)
    return _F("softmax")(logits, dim=-1)


def _type_name(t):
    return "Parameter" if B.PARAMETERS.get(id(t)) is t else "Tensor"


# ------------------------------------------------------------------ constraints
class Constraint(metaclass=LibraryMeta):
    torch_path = "torch.distributions.constraints.Constraint"
    gradrepl_public = frozenset(("check", "is_discrete", "event_dim"))
    is_discrete = False
    event_dim = 0

    def __repr__(self):
        return type(self).__name__.lstrip("_") + "()"


class _Real(Constraint):
    def check(self, value):
        return value == value


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self):
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self):
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self):
        return f"HalfOpenInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerGreaterThan(_GreaterThan):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self):
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return TORCH["all"](value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        is_normalized = value.sum(-1).eq(1)
        return is_boolean.all(-1) & is_normalized


class _IndependentConstraint(Constraint):
    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if result.dim() < n:
            expected = self.base_constraint.event_dim + n
            raise ValueError(f"Expected value.dim() >= {expected} but got {value.dim()}")
        result = result.reshape(tuple(result.shape[:result.dim() - n]) + (-1,))
        return result.all(-1)

    def __repr__(self):
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        value_tril = value.tril()
        lower_triangular = (value_tril == value).view(tuple(value.shape[:-2]) + (-1,)).min(-1)[0]
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        return lower_triangular & positive_diagonal


class _PositiveDefinite(Constraint):
    event_dim = 2

    def check(self, value):
        sym = (value == value.mT).view(tuple(value.shape[:-2]) + (-1,)).all(-1)
        return sym & (TORCH["linalg"]["cholesky_ex"](value).info.eq(0))


real = _Real()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
real_vector = _IndependentConstraint(real, 1)
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
greater_than, greater_than_eq, less_than = _GreaterThan, _GreaterThanEq, _LessThan
interval, integer_interval, independent = _Interval, _IntegerInterval, _IndependentConstraint
half_open_interval = _HalfOpenInterval


def _all_true(valid):
    return bool(valid.all().item()) if B.is_tensor(valid) else bool(valid)


# ------------------------------------------------------------------ Distribution
class Distribution(metaclass=LibraryMeta):
    torch_path = "torch.distributions.distribution.Distribution"
    gradrepl_public = frozenset(("batch_shape", "event_shape", "sample", "sample_n", "rsample", "log_prob",
                                 "entropy", "mean", "mode", "variance", "stddev", "probs", "logits", "param_shape",
                                 "expand", "arg_constraints", "support", "has_rsample", "cdf", "icdf",
                                 "perplexity", "enumerate_support", "has_enumerate_support",
                                 "set_default_validate_args"))
    gradrepl_class_public = ("arg_constraints", "support", "has_rsample", "has_enumerate_support",
                             "set_default_validate_args")
    arg_constraints = {}
    has_rsample = False
    has_enumerate_support = False
    default_validate_args = True
    lazy_args = ()

    @staticmethod
    def set_default_validate_args(value):
        if value not in [True, False]:
            raise ValueError
        Distribution.default_validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self.batch_shape = _size(batch_shape)
        self.event_shape = _size(event_shape)
        if validate_args is not None:
            self.validate_args = validate_args
        if self.validating:
            for param, constraint in self.arg_constraints.items():
                if constraint is None or (param not in self.__dict__ and param in self.lazy_args):
                    continue
                value = getattr(self, param)
                if not _all_true(constraint.check(value)):
                    raise ValueError(f"Expected parameter {param} ({_type_name(value)} of shape "
                                     f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                     f"{constraint!r}, but found invalid values:\n{value}")

    @property
    def validating(self):
        return self.__dict__.get("validate_args", Distribution.default_validate_args)

    def new_instance(self):
        return type(self).__new__(type(self))

    def expand_params(self, batch_shape, *names):
        """expand() of a distribution whose parameters all have its batch shape (Normal's loc
        and scale, ...): each one expanded, no validation, the validate flag kept."""
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        for name in names:
            setattr(new, name, getattr(self, name).expand(batch_shape))
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    def extended_shape(self, sample_shape=()):
        return _size(tuple(sample_shape) + tuple(self.batch_shape) + tuple(self.event_shape))

    def validate_sample(self, value):
        if not B.is_tensor(value):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self.event_shape)
        if value.size()[event_dim_start:] != self.event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self.event_shape}.")
        actual_shape = value.size()
        expected_shape = self.batch_shape + self.event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual_shape} vs "
                                 f"{expected_shape}.")
        support = self.support
        if not _all_true(support.check(value)):
            raise ValueError(f"Expected value argument ({_type_name(value)} of shape {tuple(value.shape)}) to be "
                             f"within the support ({support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    @property
    def support(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def variance(self):
        raise NotImplementedError

    def sample(self, sample_shape=()):
        with TORCH["no_grad"]():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        raise NotImplementedError

    def sample_n(self, n):
        B.warn("UserWarning", "sample_n will be deprecated. Use .sample((n,)) instead")
        return self.sample(_size((n,)))

    def log_prob(self, value):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        return TORCH["exp"](self.entropy())

    def __repr__(self):
        args = []
        for p in self.arg_constraints:
            if p in self.__dict__:
                v = self.__dict__[p]
                args.append(f"{p}: {v if v.numel() == 1 else v.size()}")
        return f"{type(self).__name__}({', '.join(args)})"


# ------------------------------------------------------------------ Normal, Uniform, Exponential
class LocScale(Distribution):
    """Normal, Laplace and Cauchy: a real location and a positive scale of one batch shape
    (each of PyTorch's three classes has this same __init__ and expand)."""
    gradrepl_public = Distribution.gradrepl_public | {"loc", "scale"}
    arg_constraints = {"loc": real, "scale": positive}
    support = real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        batch_shape = _size() if _is_number(loc) and _is_number(scale) else self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self.expand_params(batch_shape, "loc", "scale")


class Normal(LocScale):
    torch_path = "torch.distributions.normal.Normal"

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        with TORCH["no_grad"]():
            return TORCH["normal"](self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        eps = _standard_normal(shape, self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        return 0.5 * (1 + TORCH["erf"]((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * TORCH["erfinv"](2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + TORCH["log"](self.scale)


class Uniform(Distribution):
    torch_path = "torch.distributions.uniform.Uniform"
    gradrepl_public = Distribution.gradrepl_public | {"low", "high"}
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        batch_shape = _size() if _is_number(low) and _is_number(high) else self.low.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def arg_constraints(self):
        return {"low": less_than(self.high), "high": greater_than(self.low)}

    def expand(self, batch_shape, _instance=None):
        return self.expand_params(batch_shape, "low", "high")

    @property
    def support(self):
        return interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return math.nan * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        rand = TORCH["rand"](tuple(shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return TORCH["log"](lb.mul(ub)) - TORCH["log"](self.high - self.low)

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return TORCH["log"](self.high - self.low)


class Exponential(Distribution):
    torch_path = "torch.distributions.exponential.Exponential"
    gradrepl_public = Distribution.gradrepl_public | {"rate"}
    arg_constraints = {"rate": positive}
    support = nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = _size() if _is_number(rate) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self.expand_params(batch_shape, "rate")

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return TORCH["zeros_like"](self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        return TORCH["empty"](tuple(shape), dtype=self.rate.dtype).exponential_() / self.rate

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        return 1 - TORCH["exp"](-self.rate * value)

    def icdf(self, value):
        return -TORCH["log1p"](-value) / self.rate

    def entropy(self):
        return 1.0 - TORCH["log"](self.rate)


class Laplace(LocScale):
    torch_path = "torch.distributions.laplace.Laplace"

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        eps = TORCH["finfo"](self.loc.dtype).eps
        u = TORCH["empty"](tuple(shape), dtype=self.loc.dtype).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * TORCH["log1p"](-u.abs())

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        return -TORCH["log"](2 * self.scale) - TORCH["abs"](value - self.loc) / self.scale

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * TORCH["expm1"](-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * TORCH["log1p"](-2 * term.abs())

    def entropy(self):
        return 1 + TORCH["log"](2 * self.scale)


class Poisson(Distribution):
    torch_path = "torch.distributions.poisson.Poisson"
    gradrepl_public = Distribution.gradrepl_public | {"rate"}
    arg_constraints = {"rate": nonnegative}
    support = nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = _size() if _is_number(rate) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    expand = Exponential.expand

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        with TORCH["no_grad"]():
            return TORCH["poisson"](self.rate.expand(shape))

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()


def _standard_gamma(concentration, name="Gamma"):
    """torch._standard_gamma: drawn by the generator as PyTorch's CPU kernel draws it."""
    if concentration.requires_grad and TORCH["is_grad_enabled"]():
        from gradrepl.messages import msg
        raise NotImplementedError(msg("dist.gamma_grad", "en", name=name))
    return B.wrap(B.generator().standard_gamma(B.array(concentration)))


class Gamma(Distribution):
    torch_path = "torch.distributions.gamma.Gamma"
    gradrepl_public = Distribution.gradrepl_public | {"concentration", "rate"}
    arg_constraints = {"concentration": positive, "rate": positive}
    support = nonnegative
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        batch_shape = _size() if _is_number(concentration) and _is_number(rate) else self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self.expand_params(batch_shape, "concentration", "rate")

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        value = _standard_gamma(self.concentration.expand(shape), type(self).__name__) / self.rate.expand(shape)
        value.detach().clamp_(min=TORCH["finfo"](value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = TORCH["as_tensor"](value, dtype=self.rate.dtype)
        if self.validating:
            self.validate_sample(value)
        return (TORCH["xlogy"](self.concentration, self.rate) + TORCH["xlogy"](self.concentration - 1, value)
                - self.rate * value - TORCH["lgamma"](self.concentration))

    def entropy(self):
        return (self.concentration - TORCH["log"](self.rate) + TORCH["lgamma"](self.concentration)
                + (1.0 - self.concentration) * TORCH["digamma"](self.concentration))


def _sample_dirichlet(concentration, name):
    if concentration.requires_grad and TORCH["is_grad_enabled"]():
        from gradrepl.messages import msg
        raise NotImplementedError(msg("dist.gamma_grad", "en", name=name))

    def sum_last(gamma):      # gamma.sum(-1, true): PyTorch's float64 reduction, as the engine sums
        return B.array(B.wrap(gamma).sum(-1, keepdim=True))

    return B.wrap(B.generator().dirichlet(B.array(concentration), sum_last))


class Dirichlet(Distribution):
    torch_path = "torch.distributions.dirichlet.Dirichlet"
    gradrepl_public = Distribution.gradrepl_public | {"concentration"}
    arg_constraints = {"concentration": independent(positive, 1)}
    support = simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        return _sample_dirichlet(self.concentration.expand(shape), type(self).__name__)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        return (TORCH["xlogy"](self.concentration - 1.0, value).sum(-1) + TORCH["lgamma"](self.concentration.sum(-1))
                - TORCH["lgamma"](self.concentration).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = _F("one_hot")(mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (TORCH["lgamma"](self.concentration).sum(-1) - TORCH["lgamma"](a0) - (k - a0) * TORCH["digamma"](a0)
                - ((self.concentration - 1.0) * TORCH["digamma"](self.concentration)).sum(-1))


class Beta(Distribution):
    torch_path = "torch.distributions.beta.Beta"
    gradrepl_public = Distribution.gradrepl_public | {"concentration1", "concentration0"}
    arg_constraints = {"concentration1": positive, "concentration0": positive}
    support = unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if _is_number(concentration1) and _is_number(concentration0):
            both = TORCH["tensor"]([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            both = TORCH["stack"]([concentration1, concentration0], -1)
        self.dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self.dirichlet.batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self.expand_params(batch_shape, "dirichlet")

    @property
    def concentration1(self):
        return self.dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self.dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self.dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        shape = self.dirichlet.extended_shape(sample_shape)
        return _sample_dirichlet(self.dirichlet.concentration.expand(shape), "Beta").select(-1, 0)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        heads_tails = TORCH["stack"]([value, 1.0 - value], -1)
        return self.dirichlet.log_prob(heads_tails)

    def entropy(self):
        return self.dirichlet.entropy()


class Cauchy(LocScale):
    torch_path = "torch.distributions.cauchy.Cauchy"

    @property
    def mean(self):
        return TORCH["full"](tuple(self.extended_shape()), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return TORCH["full"](tuple(self.extended_shape()), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        eps = TORCH["empty"](tuple(shape), dtype=self.loc.dtype).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        return TORCH["atan"]((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return TORCH["tan"](math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class Chi2(Gamma):
    torch_path = "torch.distributions.chi2.Chi2"
    gradrepl_public = Gamma.gradrepl_public | {"df"}
    arg_constraints = {"df": positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2


class StudentT(Distribution):
    torch_path = "torch.distributions.studentT.StudentT"
    gradrepl_public = Distribution.gradrepl_public | {"df", "loc", "scale"}
    arg_constraints = {"df": positive, "loc": real, "scale": positive}
    support = real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self.chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.df, new.loc, new.scale = (t.expand(batch_shape) for t in (self.df, self.loc, self.scale))
        new.chi2 = self.chi2.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def mean(self):
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        m = self.df.clone()
        m[self.df > 2] = self.scale[self.df > 2].pow(2) * self.df[self.df > 2] / (self.df[self.df > 2] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        X = _standard_normal(shape, self.df.dtype)
        Z = self.chi2.rsample(sample_shape)
        Y = X * TORCH["rsqrt"](Z / self.df)
        return self.loc + self.scale * Y

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + TORCH["lgamma"](0.5 * self.df)
             - TORCH["lgamma"](0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * TORCH["log1p"](y ** 2.0 / self.df) - Z

    def entropy(self):
        lbeta = TORCH["lgamma"](0.5 * self.df) + math.lgamma(0.5) - TORCH["lgamma"](0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (TORCH["digamma"](0.5 * (self.df + 1))
                                                         - TORCH["digamma"](0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)


# ------------------------------------------------------------------ Bernoulli, Categorical, ...
class _LazyProbs:
    """probs / logits computed from the other on first read and then kept (PyTorch's lazy_property)."""
    binary = False

    def __getattr__(self, name):
        d = self.__dict__
        if name == "probs" and "logits" in d:
            value = logits_to_probs(d["logits"], is_binary=self.binary)
        elif name == "logits" and "probs" in d:
            value = probs_to_logits(d["probs"], is_binary=self.binary)
        else:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        d[name] = value
        return value


class Bernoulli(_LazyProbs, Distribution):
    torch_path = "torch.distributions.bernoulli.Bernoulli"
    arg_constraints = {"probs": unit_interval, "logits": real}
    support = boolean
    has_enumerate_support = True
    lazy_args = ("probs", "logits")
    binary = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = _is_number(probs)
            (self.probs,) = broadcast_all(probs)
            self.param = self.probs
        else:
            is_scalar = _is_number(logits)
            (self.logits,) = broadcast_all(logits)
            self.param = self.logits
        batch_shape = _size() if is_scalar else self.param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new.param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new.param = new.logits
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self):
        return self.param.size()

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        with TORCH["no_grad"]():
            return TORCH["bernoulli"](self.probs.expand(shape))

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_F("binary_cross_entropy_with_logits")(logits, value, reduction="none")

    def entropy(self):
        return _F("binary_cross_entropy_with_logits")(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        values = TORCH["arange"](2, dtype=self.param.dtype)
        values = values.view((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self.batch_shape))
        return values


class Geometric(_LazyProbs, Distribution):
    torch_path = "torch.distributions.geometric.Geometric"
    arg_constraints = {"probs": unit_interval, "logits": real}
    support = nonnegative_integer
    lazy_args = ("probs", "logits")
    binary = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        given = probs if probs is not None else logits
        batch_shape = _size() if _is_number(given) else given.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self.validating and probs is not None:
            value = self.probs
            valid = value > 0
            if not valid.all():
                raise ValueError(f"Expected parameter probs ({_type_name(value)} of shape {tuple(value.shape)}) of "
                                 f"distribution {self!r} to be positive but found invalid values:\n"
                                 f"{value.data[~valid]}")

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return TORCH["zeros_like"](self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        tiny = TORCH["finfo"](self.probs.dtype).tiny
        with TORCH["no_grad"]():
            u = TORCH["empty"](tuple(shape), dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return _F("binary_cross_entropy_with_logits")(self.logits, self.probs, reduction="none") / self.probs


class Categorical(_LazyProbs, Distribution):
    torch_path = "torch.distributions.categorical.Categorical"
    arg_constraints = {"probs": simplex, "logits": real_vector}
    has_enumerate_support = True
    lazy_args = ("probs", "logits")

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            param = self.logits
        self.param = param
        self.num_events = param.size()[-1]
        batch_shape = param.size()[:-1] if param.ndimension() > 1 else _size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        param_shape = batch_shape + _size((self.num_events,))
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(param_shape)
            new.param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(param_shape)
            new.param = new.logits
        new.num_events = self.num_events
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def support(self):
        return integer_interval(0, self.num_events - 1)

    @property
    def param_shape(self):
        return self.param.size()

    @property
    def mean(self):
        return TORCH["full"](tuple(self.extended_shape()), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return TORCH["full"](tuple(self.extended_shape()), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape=()):
        sample_shape = _size(sample_shape)
        with TORCH["no_grad"]():
            probs_2d = self.probs.reshape(-1, self.num_events)
            samples_2d = TORCH["multinomial"](probs_2d, sample_shape.numel(), True).T
            return samples_2d.reshape(self.extended_shape(sample_shape))

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = TORCH["broadcast_tensors"](value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = TORCH["finfo"](self.logits.dtype).min
        logits = TORCH["clamp"](self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        values = TORCH["arange"](self.num_events, dtype=TORCH["long"])
        values = values.view((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self.batch_shape))
        return values


class OneHotCategorical(Distribution):
    torch_path = "torch.distributions.one_hot_categorical.OneHotCategorical"
    arg_constraints = {"probs": simplex, "logits": real_vector}
    support = one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self.categorical = Categorical(probs, logits)
        super().__init__(self.categorical.batch_shape, self.categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.categorical = self.categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def probs(self):
        return self.categorical.probs

    @property
    def logits(self):
        return self.categorical.logits

    @property
    def mean(self):
        return self.categorical.probs

    @property
    def mode(self):
        probs = self.categorical.probs
        mode = probs.argmax(dim=-1)
        return _F("one_hot")(mode, num_classes=probs.shape[-1]).to(probs)

    @property
    def variance(self):
        return self.categorical.probs * (1 - self.categorical.probs)

    @property
    def param_shape(self):
        return self.categorical.param_shape

    def sample(self, sample_shape=()):
        sample_shape = _size(sample_shape)
        probs = self.categorical.probs
        indices = self.categorical.sample(sample_shape)
        return _F("one_hot")(indices, self.categorical.num_events).to(probs)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        indices = value.max(-1)[1]
        return self.categorical.log_prob(indices)

    def entropy(self):
        return self.categorical.entropy()


class OneHotCategoricalStraightThrough(OneHotCategorical):
    torch_path = "torch.distributions.one_hot_categorical.OneHotCategoricalStraightThrough"
    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self.categorical.probs
        return samples + (probs - probs.detach())


class Multinomial(Distribution):
    torch_path = "torch.distributions.multinomial.Multinomial"
    gradrepl_public = Distribution.gradrepl_public | {"total_count"}
    arg_constraints = {"probs": simplex, "logits": real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self.categorical = Categorical(probs=probs, logits=logits)
        super().__init__(self.categorical.batch_shape, self.categorical.param_shape[-1:],
                         validate_args=validate_args)

    @property
    def support(self):
        return _IndependentConstraint(_IntegerInterval(0, self.total_count), 1)

    @property
    def probs(self):
        return self.categorical.probs

    @property
    def logits(self):
        return self.categorical.logits

    @property
    def param_shape(self):
        return self.categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        sample_shape = _size(sample_shape)
        with TORCH["no_grad"]():
            samples = self.categorical.sample(_size((self.total_count,)) + sample_shape)
            shifted = list(range(samples.dim()))
            shifted.append(shifted.pop(0))
            samples = samples.permute(*shifted)
            counts = TORCH["zeros"](tuple(self.extended_shape(sample_shape)), dtype=samples.dtype)
            counts.scatter_add_(-1, samples, TORCH["ones_like"](samples))
            return counts.type_as(self.probs)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        logits, value = TORCH["broadcast_tensors"](self.logits, value)
        logits = logits.clone()
        log_factorial_n = TORCH["lgamma"](value.sum(-1) + 1)
        log_factorial_xs = TORCH["lgamma"](value + 1).sum(-1)
        logits[(value == 0) & (logits == -float("inf"))] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers


class Independent(Distribution):
    torch_path = "torch.distributions.independent.Independent"
    gradrepl_public = Distribution.gradrepl_public | {"base_dist", "reinterpreted_batch_ndims"}
    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                             f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}")
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.base_dist = self.base_dist.expand(batch_shape + self.event_shape[:self.reinterpreted_batch_ndims])
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance

    def sample(self, sample_shape=()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


# ------------------------------------------------------------------ MultivariateNormal
def _batch_mv(bmat, bvec):
    return TORCH["matmul"](bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    n = bx.size(-1)
    bx_batch_shape = bx.shape[:-1]
    bx_batch_dims = len(bx_batch_shape)
    bL_batch_dims = bL.dim() - 2
    outer_batch_dims = bx_batch_dims - bL_batch_dims
    old_batch_dims = outer_batch_dims + bL_batch_dims
    new_batch_dims = outer_batch_dims + 2 * bL_batch_dims
    bx_new_shape = tuple(bx.shape[:outer_batch_dims])
    for sL, sx in zip(bL.shape[:-2], bx.shape[outer_batch_dims:-1]):
        bx_new_shape += (sx // sL, sL)
    bx_new_shape += (n,)
    bx = bx.reshape(bx_new_shape)
    permute_dims = (list(range(outer_batch_dims)) + list(range(outer_batch_dims, new_batch_dims, 2))
                    + list(range(outer_batch_dims + 1, new_batch_dims, 2)) + [new_batch_dims])
    bx = bx.permute(permute_dims)
    flat_L = bL.reshape(-1, n, n)
    flat_x = bx.reshape(-1, flat_L.size(0), n)
    flat_x_swap = flat_x.permute(1, 2, 0)
    M_swap = TORCH["linalg"]["solve_triangular"](flat_L, flat_x_swap, upper=False).pow(2).sum(-2)
    M = M_swap.t()
    permuted_M = M.reshape(bx.shape[:-1])
    permute_inv_dims = list(range(outer_batch_dims))
    for i in range(bL_batch_dims):
        permute_inv_dims += [outer_batch_dims + i, old_batch_dims + i]
    return permuted_M.permute(permute_inv_dims).reshape(bx_batch_shape)


def _precision_to_scale_tril(P):
    Lf = TORCH["linalg"]["cholesky"](TORCH["flip"](P, (-2, -1)))
    L_inv = TORCH["transpose"](TORCH["flip"](Lf, (-2, -1)), -2, -1)
    Id = TORCH["eye"](P.shape[-1], dtype=P.dtype)
    return TORCH["linalg"]["solve_triangular"](L_inv, Id, upper=False)


class MultivariateNormal(Distribution):
    torch_path = "torch.distributions.multivariate_normal.MultivariateNormal"
    gradrepl_public = Distribution.gradrepl_public | {"loc", "scale_tril", "covariance_matrix", "precision_matrix"}
    arg_constraints = {"loc": real_vector, "covariance_matrix": positive_definite,
                       "precision_matrix": positive_definite, "scale_tril": lower_cholesky}
    support = real_vector
    has_rsample = True
    lazy_args = ("covariance_matrix", "precision_matrix", "scale_tril")

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        broadcast_shapes = TORCH["broadcast_shapes"]
        if scale_tril is not None:
            if scale_tril.dim() < 2:
                raise ValueError("scale_tril matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = broadcast_shapes(scale_tril.shape[:-2], loc.shape[:-1])
            self.scale_tril = scale_tril.expand(tuple(batch_shape) + (-1, -1))
        elif covariance_matrix is not None:
            if covariance_matrix.dim() < 2:
                raise ValueError("covariance_matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = broadcast_shapes(covariance_matrix.shape[:-2], loc.shape[:-1])
            self.covariance_matrix = covariance_matrix.expand(tuple(batch_shape) + (-1, -1))
        else:
            if precision_matrix.dim() < 2:
                raise ValueError("precision_matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = broadcast_shapes(precision_matrix.shape[:-2], loc.shape[:-1])
            self.precision_matrix = precision_matrix.expand(tuple(batch_shape) + (-1, -1))
        self.loc = loc.expand(tuple(batch_shape) + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self.unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self.unbroadcasted_scale_tril = TORCH["linalg"]["cholesky"](covariance_matrix)
        else:
            self.unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def __getattr__(self, name):        # PyTorch's lazy_property matrices
        d = self.__dict__
        if name not in self.lazy_args or "unbroadcasted_scale_tril" not in d:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        L = d["unbroadcasted_scale_tril"]
        shape = tuple(self.batch_shape) + tuple(self.event_shape) * 2
        if name == "scale_tril":
            value = L.expand(shape)
        elif name == "covariance_matrix":
            value = TORCH["matmul"](L, L.mT).expand(shape)
        else:
            value = TORCH["cholesky_inverse"](L).expand(shape)
        d[name] = value
        return value

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        loc_shape = batch_shape + self.event_shape
        cov_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(loc_shape)
        new.unbroadcasted_scale_tril = self.unbroadcasted_scale_tril
        for name in self.lazy_args:
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(cov_shape))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self.unbroadcasted_scale_tril.pow(2).sum(-1).expand(self.batch_shape + self.event_shape)

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        eps = _standard_normal(shape, self.loc.dtype)
        return self.loc + _batch_mv(self.unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        diff = value - self.loc
        M = _batch_mahalanobis(self.unbroadcasted_scale_tril, diff)
        half_log_det = self.unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self.event_shape[0] * math.log(2 * math.pi) + M) - half_log_det

    def entropy(self):
        half_log_det = self.unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        H = 0.5 * self.event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        if len(self.batch_shape) == 0:
            return H
        return H.expand(self.batch_shape)


class _MixtureSameFamilyConstraint(Constraint):
    def __init__(self, base_constraint):
        self.base_constraint = base_constraint

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        num_dim_to_keep = value.dim() - self.event_dim
        result = result.reshape(tuple(result.shape[:num_dim_to_keep]) + (-1,))
        return result.all(-1)

    def __repr__(self):
        return f"MixtureSameFamilyConstraint({self.base_constraint!r})"


class MixtureSameFamily(Distribution):
    torch_path = "torch.distributions.mixture_same_family.MixtureSameFamily"
    gradrepl_public = Distribution.gradrepl_public | {"mixture_distribution", "component_distribution"}
    arg_constraints = {}

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        self.mixture, self.component = mixture_distribution, component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(" The Mixture distribution needs to be an  instance of torch.distributions.Categorical")
        if not isinstance(component_distribution, Distribution):
            raise ValueError("The Component distribution needs to be an instance of torch.distributions.Distribution")
        mdbs = mixture_distribution.batch_shape
        cdbs = component_distribution.batch_shape[:-1]
        for size1, size2 in zip(reversed(mdbs), reversed(cdbs)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise ValueError(f"`mixture_distribution.batch_shape` ({mdbs}) is not compatible with "
                                 f"`component_distribution.batch_shape`({cdbs})")
        km = mixture_distribution.logits.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise ValueError(f"`mixture_distribution component` ({km}) does not equal "
                             f"`component_distribution.batch_shape[-1]` ({kc})")
        self.num_component = km
        self.event_ndims = len(component_distribution.event_shape)
        super().__init__(cdbs, component_distribution.event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = _size(batch_shape)
        new = self.new_instance()
        new.component = self.component.expand(batch_shape + _size((self.num_component,)))
        new.mixture = self.mixture.expand(batch_shape)
        new.num_component, new.event_ndims = self.num_component, self.event_ndims
        Distribution.__init__(new, batch_shape, new.component.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def support(self):
        return _MixtureSameFamilyConstraint(self.component.support)

    @property
    def mixture_distribution(self):
        return self.mixture

    @property
    def component_distribution(self):
        return self.component

    @property
    def mean(self):
        probs = self._pad_mixture_dimensions(self.mixture.probs)
        return TORCH["sum"](probs * self.component.mean, dim=-1 - self.event_ndims)

    @property
    def variance(self):
        probs = self._pad_mixture_dimensions(self.mixture.probs)
        mean_cond_var = TORCH["sum"](probs * self.component.variance, dim=-1 - self.event_ndims)
        var_cond_mean = TORCH["sum"](probs * (self.component.mean - self._pad(self.mean)).pow(2.0),
                                     dim=-1 - self.event_ndims)
        return mean_cond_var + var_cond_mean

    def cdf(self, x):
        x = self._pad(x)
        cdf_x = self.component.cdf(x)
        return TORCH["sum"](cdf_x * self.mixture.probs, dim=-1)

    def log_prob(self, x):
        if self.validating:
            self.validate_sample(x)
        x = self._pad(x)
        log_prob_x = self.component.log_prob(x)
        log_mix_prob = TORCH["log_softmax"](self.mixture.logits, dim=-1)
        return TORCH["logsumexp"](log_prob_x + log_mix_prob, dim=-1)

    def sample(self, sample_shape=()):
        sample_shape = _size(sample_shape)
        with TORCH["no_grad"]():
            gather_dim = len(sample_shape) + len(self.batch_shape)
            es = self.event_shape
            mix_sample = self.mixture.sample(sample_shape)
            mix_shape = mix_sample.shape
            comp_samples = self.component.sample(sample_shape)
            mix_sample_r = mix_sample.reshape(tuple(mix_shape) + (1,) * (len(es) + 1))
            mix_sample_r = mix_sample_r.repeat((1,) * len(mix_shape) + (1,) + tuple(es))
            samples = TORCH["gather"](comp_samples, gather_dim, mix_sample_r)
            return samples.squeeze(gather_dim)

    def _pad(self, x):
        return x.unsqueeze(-1 - self.event_ndims)

    def _pad_mixture_dimensions(self, x):
        dist_batch_ndims = len(self.batch_shape)
        cat_batch_ndims = len(self.mixture.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else dist_batch_ndims - cat_batch_ndims
        xs = tuple(x.shape)
        return x.reshape(xs[:-1] + (1,) * pad_ndims + xs[-1:] + (1,) * self.event_ndims)

    def __repr__(self):
        return f"MixtureSameFamily(\n  {self.mixture!r},\n  {self.component!r})"


# ------------------------------------------------------------------ transforms, TransformedDistribution
class Transform(metaclass=LibraryMeta):
    torch_path = "torch.distributions.transforms.Transform"
    gradrepl_public = frozenset(("inv", "sign", "domain", "codomain", "bijective", "event_dim",
                                 "log_abs_det_jacobian", "forward_shape", "inverse_shape"))
    domain = real
    codomain = real
    bijective = False
    sign = 1

    @property
    def event_dim(self):
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self):
        return _InverseTransform(self)

    def __call__(self, x):
        return self.forward(x)

    def forward(self, x):
        raise NotImplementedError

    def inverse(self, y):
        raise NotImplementedError

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def __repr__(self):
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    torch_path = "torch.distributions.transforms._InverseTransform"

    def __init__(self, transform):
        self.base = transform

    domain = property(lambda self: self.base.codomain)
    codomain = property(lambda self: self.base.domain)
    sign = property(lambda self: self.base.sign)
    inv = property(lambda self: self.base)

    def __call__(self, y):
        return self.base.inverse(y)

    def log_abs_det_jacobian(self, x, y):
        return -self.base.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self.base.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self.base.forward_shape(shape)

    def __repr__(self):
        return f"_InverseTransform({self.base!r})"


class ExpTransform(Transform):
    torch_path = "torch.distributions.transforms.ExpTransform"
    bijective = True
    codomain = positive

    def forward(self, x):
        return x.exp()

    def inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class SigmoidTransform(Transform):
    torch_path = "torch.distributions.transforms.SigmoidTransform"
    bijective = True
    codomain = unit_interval

    def forward(self, x):
        finfo = TORCH["finfo"](x.dtype)
        return TORCH["clamp"](TORCH["sigmoid"](x), min=finfo.tiny, max=1.0 - finfo.eps)

    def inverse(self, y):
        finfo = TORCH["finfo"](y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        softplus = _F("softplus")
        return -softplus(-x) - softplus(x)


class TanhTransform(Transform):
    torch_path = "torch.distributions.transforms.TanhTransform"
    bijective = True
    codomain = _Interval(-1.0, 1.0)

    def forward(self, x):
        return x.tanh()

    def inverse(self, y):
        return TORCH["atanh"](y)

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - _F("softplus")(-2.0 * x))


class AffineTransform(Transform):
    torch_path = "torch.distributions.transforms.AffineTransform"
    bijective = True
    gradrepl_public = Transform.gradrepl_public | {"loc", "scale"}

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        self.loc, self.scale, self.affine_event_dim = loc, scale, event_dim

    @property
    def event_dim(self):
        return self.affine_event_dim

    @property
    def domain(self):
        return real if self.event_dim == 0 else independent(real, self.event_dim)

    codomain = domain

    @property
    def sign(self):
        if _is_number(self.scale):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def forward(self, x):
        return self.loc + self.scale * x

    def inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x.shape
        scale = self.scale
        if _is_number(scale):
            result = TORCH["full_like"](x, math.log(abs(scale)))
        else:
            result = TORCH["abs"](scale).log()
        if self.event_dim:
            result = result.view(tuple(result.size()[:-self.event_dim]) + (-1,)).sum(-1)
            shape = shape[:-self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return TORCH["broadcast_shapes"](shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ()))

    inverse_shape = forward_shape


class AbsTransform(Transform):
    torch_path = "torch.distributions.transforms.AbsTransform"
    codomain = positive

    def forward(self, x):
        return x.abs()

    def inverse(self, y):
        return y



class PowerTransform(Transform):
    torch_path = "torch.distributions.transforms.PowerTransform"
    gradrepl_public = Transform.gradrepl_public | {"exponent"}
    domain = positive
    codomain = positive
    bijective = True

    def __init__(self, exponent, cache_size=0):
        (self.exponent,) = broadcast_all(exponent)

    @property
    def sign(self):
        return self.exponent.sign()

    def forward(self, x):
        return x.pow(self.exponent)

    def inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return TORCH["broadcast_shapes"](shape, getattr(self.exponent, "shape", ()))

    inverse_shape = forward_shape


class SoftplusTransform(Transform):
    torch_path = "torch.distributions.transforms.SoftplusTransform"
    codomain = positive
    bijective = True

    def forward(self, x):
        return _F("softplus")(x)

    def inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -_F("softplus")(-x)


class SoftmaxTransform(Transform):
    torch_path = "torch.distributions.transforms.SoftmaxTransform"
    domain = real_vector
    codomain = simplex

    def forward(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape

    inverse_shape = forward_shape


class ComposeTransform(Transform):
    """Transforms applied in order; its inverse applies the parts' inverses in reverse."""
    torch_path = "torch.distributions.transforms.ComposeTransform"
    gradrepl_public = Transform.gradrepl_public | {"parts"}

    def __init__(self, parts, cache_size=0):
        self.parts = list(parts)

    @property
    def domain(self):
        if not self.parts:
            return real
        domain = self.parts[0].domain
        event_dim = _compose_event_dims(self.parts)[0]
        return independent(domain, event_dim - domain.event_dim) if event_dim > domain.event_dim else domain

    @property
    def codomain(self):
        if not self.parts:
            return real
        codomain = self.parts[-1].codomain
        event_dim = _compose_event_dims(self.parts)[1]
        return (independent(codomain, event_dim - codomain.event_dim) if event_dim > codomain.event_dim
                else codomain)

    @property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self):
        return ComposeTransform([p.inv for p in reversed(self.parts)])

    def forward(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def inverse(self, y):
        return self.inv(y)

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return TORCH["zeros_like"](x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        total = None
        event_dim = self.domain.event_dim
        for part, a, b in zip(self.parts, xs[:-1], xs[1:]):
            term = _sum_rightmost(part.log_abs_det_jacobian(a, b), event_dim - part.domain.event_dim)
            total = term if total is None else total + term
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return total

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self):
        return "ComposeTransform(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"


identity_transform = ComposeTransform([])

def _compose_event_dims(parts):
    """ComposeTransform's domain and codomain event_dim."""
    if not parts:
        return 0, 0
    event_dim = parts[-1].codomain.event_dim
    for part in reversed(parts):
        event_dim += part.domain.event_dim - part.codomain.event_dim
        event_dim = max(event_dim, part.domain.event_dim)
    domain_dim = max(event_dim, parts[0].domain.event_dim)
    event_dim = parts[0].domain.event_dim
    for part in parts:
        event_dim += part.codomain.event_dim - part.domain.event_dim
        event_dim = max(event_dim, part.codomain.event_dim)
    return domain_dim, max(event_dim, parts[-1].codomain.event_dim)


class TransformedDistribution(Distribution):
    torch_path = "torch.distributions.transformed_distribution.TransformedDistribution"
    gradrepl_public = Distribution.gradrepl_public | {"base_dist", "transforms"}
    arg_constraints = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        base_shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        domain_dim, codomain_dim = _compose_event_dims(self.transforms)
        if len(base_shape) < domain_dim:
            raise ValueError(f"base_distribution needs to have shape with size at least {domain_dim}, but got "
                             f"{base_shape}.")
        forward_shape = base_shape
        for t in self.transforms:
            forward_shape = _size(t.forward_shape(forward_shape))
        expanded_base_shape = forward_shape
        for t in reversed(self.transforms):
            expanded_base_shape = _size(t.inverse_shape(expanded_base_shape))
        if base_shape != expanded_base_shape:
            base_distribution = base_distribution.expand(expanded_base_shape[:len(expanded_base_shape) - base_event_dim])
        if domain_dim - base_event_dim > 0:
            base_distribution = Independent(base_distribution, domain_dim - base_event_dim)
        self.base_dist = base_distribution
        event_dim = max(codomain_dim, base_event_dim + codomain_dim - domain_dim)
        cut = len(forward_shape) - event_dim
        super().__init__(forward_shape[:cut], forward_shape[cut:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        shape = batch_shape + self.event_shape
        for t in reversed(self.transforms):
            shape = _size(t.inverse_shape(shape))
        new.base_dist = self.base_dist.expand(shape[:len(shape) - len(self.base_dist.event_shape)])
        new.transforms = self.transforms
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def support(self):
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = independent(support, len(self.event_shape) - support.event_dim)
        return support

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    def sample(self, sample_shape=()):
        with TORCH["no_grad"]():
            x = self.base_dist.sample(sample_shape)
            for transform in self.transforms:
                x = transform(x)
            return x

    def rsample(self, sample_shape=()):
        x = self.base_dist.rsample(sample_shape)
        for transform in self.transforms:
            x = transform(x)
        return x

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob = 0.0
        y = value
        for transform in reversed(self.transforms):
            x = transform.inv(y)
            event_dim += transform.domain.event_dim - transform.codomain.event_dim
            log_prob = log_prob - _sum_rightmost(transform.log_abs_det_jacobian(x, y),
                                                 event_dim - transform.domain.event_dim)
            y = x
        return log_prob + _sum_rightmost(self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape))

    def _monotonize_cdf(self, value):
        sign = 1
        for transform in self.transforms:
            sign = sign * transform.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value):
        for transform in self.transforms[::-1]:
            value = transform.inv(value)
        if self.validating:
            self.base_dist.validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        value = self.base_dist.icdf(self._monotonize_cdf(value))
        for transform in self.transforms:
            value = transform(value)
        return value


class LogNormal(TransformedDistribution):
    torch_path = "torch.distributions.log_normal.LogNormal"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"loc", "scale"}
    arg_constraints = {"loc": real, "scale": positive}
    support = positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class Folded(TransformedDistribution):
    """HalfNormal and HalfCauchy: |X| for X of a symmetric LocScale family centred at 0 (each of
    PyTorch's two classes has this same constructor, log_prob, cdf, icdf and entropy)."""
    gradrepl_public = TransformedDistribution.gradrepl_public | {"scale"}
    arg_constraints = {"scale": positive}
    support = nonnegative
    has_rsample = True
    family = None   # the LocScale class folded

    def __init__(self, scale, validate_args=None):
        super().__init__(self.family(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return TORCH["zeros_like"](self.scale)

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return TORCH["where"](value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        if self.validating:
            self.validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(Folded):
    torch_path = "torch.distributions.half_normal.HalfNormal"
    family = Normal

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)


class ExpRelaxedCategorical(Distribution):
    torch_path = "torch.distributions.relaxed_categorical.ExpRelaxedCategorical"
    gradrepl_public = Distribution.gradrepl_public | {"temperature"}
    arg_constraints = {"probs": simplex, "logits": real_vector}
    support = real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.categorical = Categorical(probs, logits)
        self.temperature = temperature
        super().__init__(self.categorical.batch_shape, self.categorical.param_shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.temperature = self.temperature
        new.categorical = self.categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def param_shape(self):
        return self.categorical.param_shape

    @property
    def logits(self):
        return self.categorical.logits

    @property
    def probs(self):
        return self.categorical.probs

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        uniforms = clamp_probs(TORCH["rand"](tuple(shape), dtype=self.logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        K = self.categorical.num_events
        if self.validating:
            self.validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = TORCH["full_like"](self.temperature, float(K)).lgamma() - self.temperature.log().mul(-(K - 1))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    torch_path = "torch.distributions.relaxed_categorical.RelaxedOneHotCategorical"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"temperature"}
    arg_constraints = {"probs": simplex, "logits": real_vector}
    support = simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs


class LogitRelaxedBernoulli(_LazyProbs, Distribution):
    torch_path = "torch.distributions.relaxed_bernoulli.LogitRelaxedBernoulli"
    gradrepl_public = Distribution.gradrepl_public | {"temperature"}
    arg_constraints = {"probs": unit_interval, "logits": real}
    support = real
    lazy_args = ("probs", "logits")
    binary = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = _is_number(probs)
            (self.probs,) = broadcast_all(probs)
            self.param = self.probs
        else:
            is_scalar = _is_number(logits)
            (self.logits,) = broadcast_all(logits)
            self.param = self.logits
        super().__init__(_size() if is_scalar else self.param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = Bernoulli.expand(self, batch_shape)
        new.temperature = self.temperature
        return new

    @property
    def param_shape(self):
        return self.param.size()

    def rsample(self, sample_shape=()):
        shape = self.extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(TORCH["rand"](tuple(shape), dtype=probs.dtype))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    torch_path = "torch.distributions.relaxed_bernoulli.RelaxedBernoulli"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"temperature"}
    arg_constraints = {"probs": unit_interval, "logits": real}
    support = unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs


# ------------------------------------------------------------------ transformed families: Gumbel, Weibull, ...
_EULER = 0.57721566490153286060


def _transformed_expand(self, batch_shape, *names):
    """expand() of a TransformedDistribution subclass that keeps its parameters as attributes."""
    new = TransformedDistribution.expand(self, batch_shape)
    for name in names:
        setattr(new, name, getattr(self, name).expand(_size(batch_shape)))
    return new


class Gumbel(TransformedDistribution):
    torch_path = "torch.distributions.gumbel.Gumbel"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"loc", "scale"}
    arg_constraints = {"loc": real, "scale": positive}
    support = real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = TORCH["finfo"](self.loc.dtype)
        if _is_number(loc) and _is_number(scale):
            base = Uniform(finfo.tiny, 1 - finfo.eps, validate_args=validate_args)
        else:
            base = Uniform(TORCH["full_like"](self.loc, finfo.tiny), TORCH["full_like"](self.loc, 1 - finfo.eps),
                           validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(0, -TORCH["ones_like"](self.scale)),
                      ExpTransform().inv, AffineTransform(loc, -self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _transformed_expand(self, batch_shape, "loc", "scale")

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + _EULER)


class Weibull(TransformedDistribution):
    torch_path = "torch.distributions.weibull.Weibull"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"scale", "concentration"}
    arg_constraints = {"scale": positive, "concentration": positive}
    support = positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(TORCH["ones_like"](self.scale), validate_args=validate_args)
        transforms = [PowerTransform(self.concentration_reciprocal), AffineTransform(0, self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _transformed_expand(self, batch_shape, "scale", "concentration", "concentration_reciprocal")

    @property
    def mean(self):
        return self.scale * TORCH["exp"](TORCH["lgamma"](1 + self.concentration_reciprocal))

    @property
    def mode(self):
        c = self.concentration
        return self.scale * ((c - 1) / c) ** c.reciprocal()

    @property
    def variance(self):
        r = self.concentration_reciprocal
        return self.scale.pow(2) * (TORCH["exp"](TORCH["lgamma"](1 + 2 * r))
                                    - TORCH["exp"](2 * TORCH["lgamma"](1 + r)))

    def entropy(self):
        r = self.concentration_reciprocal
        return _EULER * (1 - r) + TORCH["log"](self.scale * r) + 1


class Pareto(TransformedDistribution):
    torch_path = "torch.distributions.pareto.Pareto"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"scale", "alpha"}
    arg_constraints = {"alpha": positive, "scale": positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base = Exponential(self.alpha, validate_args=validate_args)
        super().__init__(base, [ExpTransform(), AffineTransform(0, self.scale)], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _transformed_expand(self, batch_shape, "scale", "alpha")

    @property
    def support(self):
        return greater_than_eq(self.scale)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class HalfCauchy(Folded):
    torch_path = "torch.distributions.half_cauchy.HalfCauchy"
    family = Cauchy

    @property
    def mean(self):
        return TORCH["full"](tuple(self.extended_shape()), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self):
        return self.base_dist.variance


class InverseGamma(TransformedDistribution):
    torch_path = "torch.distributions.inverse_gamma.InverseGamma"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"concentration", "rate"}
    arg_constraints = {"concentration": positive, "rate": positive}
    support = positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base.rate.new_ones(())
        super().__init__(base, PowerTransform(neg_one), validate_args=validate_args)

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        return TORCH["where"](self.concentration > 1, self.rate / (self.concentration - 1), math.inf)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        c = self.concentration
        result = self.rate.square() / ((c - 1).square() * (c - 2))
        return TORCH["where"](c > 2, result, math.inf)

    def entropy(self):
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()


class Kumaraswamy(TransformedDistribution):
    torch_path = "torch.distributions.kumaraswamy.Kumaraswamy"
    gradrepl_public = TransformedDistribution.gradrepl_public | {"concentration1", "concentration0"}
    arg_constraints = {"concentration1": positive, "concentration0": positive}
    support = unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base = Uniform(TORCH["full_like"](self.concentration0, 0), TORCH["full_like"](self.concentration0, 1),
                       validate_args=validate_args)
        transforms = [PowerTransform(self.concentration0.reciprocal()), AffineTransform(1.0, -1.0),
                      PowerTransform(self.concentration1.reciprocal())]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _transformed_expand(self, batch_shape, "concentration1", "concentration0")

    def _moments(self, n):
        arg1 = 1 + n / self.concentration1
        log_value = TORCH["lgamma"](arg1) + TORCH["lgamma"](self.concentration0) \
            - TORCH["lgamma"](arg1 + self.concentration0)
        return self.concentration0 * TORCH["exp"](log_value)

    @property
    def mean(self):
        return self._moments(1)

    @property
    def mode(self):
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        log_mode[(c0 < 1) | (c1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self):
        return self._moments(2) - TORCH["pow"](self.mean, 2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = TORCH["digamma"](self.concentration0 + 1) + _EULER
        return t0 + t1 * h0 - TORCH["log"](self.concentration1) - TORCH["log"](self.concentration0)


class FisherSnedecor(Distribution):
    torch_path = "torch.distributions.fishersnedecor.FisherSnedecor"
    gradrepl_public = Distribution.gradrepl_public | {"df1", "df2"}
    arg_constraints = {"df1": positive, "df2": positive}
    support = positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self.gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self.gamma2 = Gamma(self.df2 * 0.5, self.df2)
        batch_shape = _size() if _is_number(df1) and _is_number(df2) else self.df1.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.expand_params(batch_shape, "df1", "df2")
        new.gamma1, new.gamma2 = self.gamma1.expand(batch_shape), self.gamma2.expand(batch_shape)
        return new

    @property
    def mean(self):
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self):
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        shape = tuple(self.extended_shape(sample_shape))
        x1 = self.gamma1.rsample(sample_shape).view(shape)
        x2 = self.gamma2.rsample(sample_shape).view(shape)
        tiny = TORCH["finfo"](x2.dtype).tiny
        x2.clamp_(min=tiny)
        y = x1 / x2
        y.clamp_(min=tiny)
        return y

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        ct1, ct2 = self.df1 * 0.5, self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * TORCH["log"](value)
        t3 = (ct1 + ct2) * TORCH["log1p"](ct3 * value)
        return t1 + t2 - t3


# ------------------------------------------------------------------ Binomial, NegativeBinomial
def _clamp_by_zero(x):
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class _CountDistribution(_LazyProbs, Distribution):
    """Binomial and NegativeBinomial: a total count and probs or logits of one batch shape."""
    gradrepl_public = Distribution.gradrepl_public | {"total_count"}
    lazy_args = ("probs", "logits")
    binary = True

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
            self.param = self.probs
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
            self.param = self.logits
        super().__init__(self.param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self.new_instance()
        batch_shape = _size(batch_shape)
        new.total_count = self.total_count.expand(batch_shape)
        for name in ("probs", "logits"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(batch_shape))
                new.param = getattr(new, name)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new.validate_args = self.validating
        return new

    @property
    def param_shape(self):
        return self.param.size()


class Binomial(_CountDistribution):
    torch_path = "torch.distributions.binomial.Binomial"
    arg_constraints = {"total_count": nonnegative_integer, "probs": unit_interval, "logits": real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)

    @property
    def support(self):
        return integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = tuple(self.extended_shape(sample_shape))
        with TORCH["no_grad"]():
            return TORCH["binomial"](self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        n = self.total_count
        log_factorial_n = TORCH["lgamma"](n + 1)
        log_factorial_k = TORCH["lgamma"](value + 1)
        log_factorial_nmk = TORCH["lgamma"](n - value + 1)
        normalize_term = (n * _clamp_by_zero(self.logits) + n * TORCH["log1p"](TORCH["exp"](-TORCH["abs"](self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _homogeneous_count(self, what):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total_count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(TORCH["exp"](log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = self._homogeneous_count("enumerate_support")
        values = TORCH["arange"](1 + total_count, dtype=self.param.dtype)
        values = values.view((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self.batch_shape))
        return values


class NegativeBinomial(_CountDistribution):
    torch_path = "torch.distributions.negative_binomial.NegativeBinomial"
    arg_constraints = {"total_count": greater_than_eq(0), "probs": half_open_interval(0.0, 1.0), "logits": real}
    support = nonnegative_integer

    @property
    def mean(self):
        return self.total_count * TORCH["exp"](self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / TORCH["sigmoid"](-self.logits)

    def sample(self, sample_shape=()):
        with TORCH["no_grad"]():
            gamma = Gamma(self.total_count, TORCH["exp"](-self.logits), validate_args=False)
            return TORCH["poisson"](gamma.sample(sample_shape))

    def log_prob(self, value):
        if self.validating:
            self.validate_sample(value)
        logsigmoid = _F("logsigmoid")
        log_unnormalized_prob = self.total_count * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        log_normalization = (-TORCH["lgamma"](self.total_count + value) + TORCH["lgamma"](1.0 + value)
                             + TORCH["lgamma"](self.total_count))
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization


# ------------------------------------------------------------------ kl_divergence
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


def _kl_onehot_onehot(p, q):
    return _kl_categorical_categorical(p.categorical, q.categorical)


def _kl_bernoulli_bernoulli(p, q):
    softplus = _F("softplus")
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    t1 = -rate_ratio.log()
    return t1 + rate_ratio - 1


def _kl_mvn_mvn(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with"
                         + " " * 26 + "different event shapes cannot be computed")
    half_term1 = (q.unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
                  - p.unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
    combined_batch_shape = tuple(TORCH["broadcast_shapes"](q.unbroadcasted_scale_tril.shape[:-2],
                                                           p.unbroadcasted_scale_tril.shape[:-2]))
    n = p.event_shape[0]
    q_scale_tril = q.unbroadcasted_scale_tril.expand(combined_batch_shape + (n, n))
    p_scale_tril = p.unbroadcasted_scale_tril.expand(combined_batch_shape + (n, n))
    bmat = TORCH["linalg"]["solve_triangular"](q_scale_tril, p_scale_tril, upper=False)
    term2 = bmat.reshape(-1, n * n).pow(2).sum(-1).reshape(bmat.shape[:-2])      # _batch_trace_XXT
    term3 = _batch_mahalanobis(q.unbroadcasted_scale_tril, (q.loc - p.loc))
    return half_term1 + 0.5 * (term2 + term3 - n)


def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * TORCH["exp"](-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


def _kl_laplace_normal(p, q):
    var_normal = q.scale.pow(2)
    scale_sqr_var_ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * TORCH["log"](2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * p.loc.pow(2)
    t3 = p.loc * q.loc
    t4 = 0.5 * q.loc.pow(2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


def _kl_gamma_gamma(p, q):
    t1 = q.concentration * TORCH["log"](p.rate / q.rate)
    t2 = TORCH["lgamma"](q.concentration) - TORCH["lgamma"](p.concentration)
    t3 = (p.concentration - q.concentration) * TORCH["digamma"](p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


def _kl_geometric_geometric(p, q):
    return -p.entropy() - TORCH["log1p"](-q.probs) / p.probs - q.logits


def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)



def _kl_beta_beta(p, q):
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * TORCH["digamma"](p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * TORCH["digamma"](p.concentration0)
    t5 = (sum_q - sum_p) * TORCH["digamma"](sum_p)
    return t1 - t2 + t3 + t4 + t5


def _kl_dirichlet_dirichlet(p, q):
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = sum_p.lgamma() - sum_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


def _kl_cauchy_cauchy(p, q):
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


def _kl_gumbel_gumbel(p, q):
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * _EULER
    t3 = TORCH["exp"](ct2 + (1 + ct1).lgamma() - ct3)
    return t1 + t2 + t3 - (1 + _EULER)


def _kl_binomial_binomial(p, q):
    if (p.total_count < q.total_count).any():
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    kl[p.total_count > q.total_count] = math.inf
    return kl


def _kl_pareto_pareto(p, q):
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    t1 = q.alpha * scale_ratio.log()
    t2 = -alpha_ratio.log()
    result = t1 + t2 + alpha_ratio - 1
    result[p.support.lower_bound < q.support.lower_bound] = math.inf
    return result


def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)

_KL = {(Normal, Normal): _kl_normal_normal, (Categorical, Categorical): _kl_categorical_categorical,
       (OneHotCategorical, OneHotCategorical): _kl_onehot_onehot,
       (Bernoulli, Bernoulli): _kl_bernoulli_bernoulli, (Uniform, Uniform): _kl_uniform_uniform,
       (Exponential, Exponential): _kl_exponential_exponential,
       (Independent, Independent): _kl_independent_independent,
       (MultivariateNormal, MultivariateNormal): _kl_mvn_mvn, (Poisson, Poisson): _kl_poisson_poisson,
       (Laplace, Laplace): _kl_laplace_laplace,
       (Laplace, Normal): _kl_laplace_normal, (Gamma, Gamma): _kl_gamma_gamma,
       (Geometric, Geometric): _kl_geometric_geometric, (Beta, Beta): _kl_beta_beta,
       (Dirichlet, Dirichlet): _kl_dirichlet_dirichlet, (Cauchy, Cauchy): _kl_cauchy_cauchy,
       (Gumbel, Gumbel): _kl_gumbel_gumbel, (Binomial, Binomial): _kl_binomial_binomial,
       (Pareto, Pareto): _kl_pareto_pareto, (HalfNormal, HalfNormal): _kl_halfnormal_halfnormal}


_EXPONENTIAL_FAMILY = (Normal, Bernoulli, Exponential, Poisson, Gamma, Dirichlet, Beta)  # torch's subclasses     # torch's ExponentialFamily subclasses here


def kl_divergence(p, q):
    for p_type in type(p).__mro__:
        for q_type in type(q).__mro__:
            fun = _KL.get((p_type, q_type))
            if fun is not None:
                return fun(p, q)
    if isinstance(p, _EXPONENTIAL_FAMILY) and isinstance(q, _EXPONENTIAL_FAMILY) and type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential families cannot "
                                  + " " * 28 + "be computed using Bregman divergences")
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                              f"{type(q).__name__}")


# ------------------------------------------------------------------ the torch.distributions namespace
_CLASSES = {"Normal": "normal", "Uniform": "uniform", "Exponential": "exponential", "Bernoulli": "bernoulli",
            "Categorical": "categorical", "OneHotCategorical": "one_hot_categorical",
            "Multinomial": "multinomial", "Independent": "independent",
            "MultivariateNormal": "multivariate_normal", "Laplace": "laplace", "Poisson": "poisson",
            "Gamma": "gamma", "Dirichlet": "dirichlet", "Beta": "beta",
            "MixtureSameFamily": "mixture_same_family", "Cauchy": "cauchy", "Geometric": "geometric",
            "TransformedDistribution": "transformed_distribution", "LogNormal": "log_normal",
            "HalfNormal": "half_normal", "ExpRelaxedCategorical": "relaxed_categorical",
            "RelaxedOneHotCategorical": "relaxed_categorical", "LogitRelaxedBernoulli": "relaxed_bernoulli",
            "RelaxedBernoulli": "relaxed_bernoulli", "OneHotCategoricalStraightThrough": "one_hot_categorical",
            "Chi2": "chi2", "StudentT": "studentT", "Gumbel": "gumbel", "Weibull": "weibull", "Pareto": "pareto",
            "HalfCauchy": "half_cauchy", "InverseGamma": "inverse_gamma", "Kumaraswamy": "kumaraswamy",
            "FisherSnedecor": "fishersnedecor", "Binomial": "binomial", "NegativeBinomial": "negative_binomial"}
_CONSTRAINTS = ("real", "boolean", "positive", "nonnegative", "unit_interval", "simplex", "one_hot",
                "nonnegative_integer", "real_vector", "lower_cholesky", "positive_definite", "greater_than",
                "greater_than_eq", "less_than", "interval", "integer_interval", "independent",
                "half_open_interval")
_TRANSFORMS = ("Transform", "AbsTransform", "ExpTransform", "SigmoidTransform", "TanhTransform", "AffineTransform",
               "PowerTransform", "SoftplusTransform", "SoftmaxTransform", "ComposeTransform", "identity_transform")
SUBMODULES = tuple(_CLASSES.values()) + ("distribution", "kl", "constraints", "utils")


def namespace():
    g = globals()
    ns = {name: g[name] for name in _CLASSES if name not in ("ExpRelaxedCategorical", "LogitRelaxedBernoulli")}
    ns["Distribution"] = Distribution
    ns["kl_divergence"] = kl_divergence
    ns["distribution"] = {"Distribution": Distribution}
    for name, module in _CLASSES.items():
        ns.setdefault(module, {})[name] = g[name]
    ns["kl"] = {"kl_divergence": kl_divergence}
    ns["constraints"] = {**{name: g[name] for name in _CONSTRAINTS}, "Constraint": Constraint}
    ns["transforms"] = {name: g[name] for name in _TRANSFORMS}
    ns.update(ns["transforms"])
    ns["utils"] = {"broadcast_all": broadcast_all, "probs_to_logits": probs_to_logits,
                   "logits_to_probs": logits_to_probs, "clamp_probs": clamp_probs}
    return ns
