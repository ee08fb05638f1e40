"""Gradients through the recurrent cells, MultiheadAttention and a Transformer encoder layer
(compositions of engine ops, no rule of their own) equal float64 finite differences, for
inputs and masks hypothesis draws."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.nn import rnn, transformer
from tests.nn.test_gradients import T, check

seeds = st.integers(0, 2 ** 32 - 1)


def _model(cls, *args, seed=0, **kwargs):
    T["manual_seed"](seed)
    return cls(*args, **kwargs).double()


@settings(max_examples=4, deadline=None)
@given(seed=seeds, batch=st.integers(1, 3))
def test_recurrent_cells(seed, batch):
    rng = np.random.default_rng(seed)
    x, h, c = rng.normal(size=(batch, 3)), rng.normal(size=(batch, 4)), rng.normal(size=(batch, 4))
    lstm = _model(rnn.LSTMCell, 3, 4, seed=seed)
    check(lambda x, h, c: T["cat"](list(lstm(x, (h, c))), 1), [x, h, c])
    gru = _model(rnn.GRUCell, 3, 4, seed=seed)
    check(lambda x, h: gru(x, h), [x, h])
    cell = _model(rnn.RNNCell, 3, 4, nonlinearity="tanh", seed=seed)
    check(lambda x, h: cell(x, cell(x, h)), [x, h])


@settings(max_examples=2, deadline=None)
@given(seed=seeds, need_weights=st.booleans(), masked=st.booleans())
def test_multihead_attention(seed, need_weights, masked):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(3, 2, 4)), rng.normal(size=(5, 2, 4))
    mha = _model(transformer.MultiheadAttention, 4, 2, seed=seed)
    mask = None
    if masked:
        mask = T["tensor"](rng.random((3, 5)) < 0.3)
        mask[:, 0] = False                     # every query sees at least one key
    def fn(q, k):
        out, weights = mha(q, k, k, attn_mask=mask, need_weights=need_weights)
        return out if weights is None else out.sum() + weights.pow(2).sum() + out
    check(fn, [q, k])


@settings(max_examples=2, deadline=None)
@given(seed=seeds, norm_first=st.booleans())
def test_transformer_encoder_layer(seed, norm_first):
    rng = np.random.default_rng(seed)
    src = rng.normal(size=(4, 2, 4))
    layer = _model(transformer.TransformerEncoderLayer, 4, 2, 6, 0.0, norm_first=norm_first, seed=seed)
    mask = transformer.Transformer.generate_square_subsequent_mask(4).double()
    check(lambda s: layer(s, src_mask=mask), [src])


@settings(max_examples=3, deadline=None)
@given(seed=seeds, affine=st.booleans())
def test_bilinear_instance_norm_and_embedding_bag(seed, affine):
    from gradrepl.nn import layers, normalization
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=(3, 2)), rng.normal(size=(3, 4))
    bl = _model(layers.Bilinear, 2, 4, 3, seed=seed)
    check(lambda a, b: bl(a, b), [x1, x2])
    norm = _model(normalization.InstanceNorm1d, 3, affine=affine, seed=seed)
    check(lambda x: norm(x), [rng.normal(size=(2, 3, 5))])
    bag = _model(layers.EmbeddingBag, 6, 3, mode="sum", seed=seed)
    idx, offsets = T["tensor"]([1, 4, 4, 0, 2]), T["tensor"]([0, 2])
    check(lambda w: bag(idx, offsets, per_sample_weights=w), [rng.normal(size=5)])
