"""torch.distributions for gradrepl: Categorical and Multinomial, as
torch/distributions/{distribution,categorical,multinomial}.py compute them (sample draws
through torch.multinomial, so after torch.manual_seed the counts are PyTorch's)."""
from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta

TORCH = B.TORCH


def _size(shape=()):
    return TORCH["Size"](shape)


class Distribution(metaclass=LibraryMeta):
    torch_path = "torch.distributions.distribution.Distribution"
    gradrepl_public = frozenset(("batch_shape", "event_shape", "sample", "sample_n", "log_prob", "entropy",
                                 "mean", "variance", "stddev", "probs", "logits", "param_shape", "expand"))
    arg_names = ()

    def __init__(self, batch_shape=(), event_shape=()):
        self.batch_shape = _size(batch_shape)
        self.event_shape = _size(event_shape)

    def extended_shape(self, sample_shape=()):
        return _size(tuple(sample_shape) + tuple(self.batch_shape) + tuple(self.event_shape))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample_n(self, n):
        return self.sample(_size((n,)))

    def __repr__(self):
        args = []
        for p in self.arg_names:
            if p in self.__dict__:
                v = self.__dict__[p]
                args.append(f"{p}: {v if v.numel() == 1 else v.size()}")
        return f"{type(self).__name__}({', '.join(args)})"


def _clamp_probs(probs):
    eps = TORCH["finfo"](probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


class Categorical(Distribution):
    torch_path = "torch.distributions.categorical.Categorical"
    arg_names = ("probs", "logits")

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
        super().__init__(batch_shape)

    def __getattr__(self, name):        # the lazy parameter PyTorch computes on first read
        if name == "probs":
            value = TORCH["softmax"](self.__dict__["logits"], -1)
        elif name == "logits":
            value = TORCH["log"](_clamp_probs(self.__dict__["probs"]))
        else:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        self.__dict__[name] = value
        return value

    @property
    def param_shape(self):
        return self.param.size()

    @property
    def mean(self):
        return TORCH["full"](tuple(self.extended_shape()), float("nan"), dtype=self.probs.dtype)

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
        value = value.long().unsqueeze(-1)
        value, log_pmf = TORCH["broadcast_tensors"](value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = TORCH["finfo"](self.logits.dtype).min
        logits = TORCH["clamp"](self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)


class Multinomial(Distribution):
    torch_path = "torch.distributions.multinomial.Multinomial"
    gradrepl_public = Distribution.gradrepl_public | {"total_count"}
    arg_names = ("probs", "logits")

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self.categorical = Categorical(probs=probs, logits=logits)
        super().__init__(self.categorical.batch_shape, self.categorical.param_shape[-1:])

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
        logits, value = TORCH["broadcast_tensors"](self.logits, value)
        logits = logits.clone()
        log_factorial_n = TORCH["lgamma"](value.sum(-1) + 1)
        log_factorial_xs = TORCH["lgamma"](value + 1).sum(-1)
        logits[(value == 0) & (logits == -float("inf"))] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers


def namespace():
    return {"Distribution": Distribution, "Categorical": Categorical, "Multinomial": Multinomial,
            "distribution": {"Distribution": Distribution},
            "categorical": {"Categorical": Categorical},
            "multinomial": {"Multinomial": Multinomial}}
