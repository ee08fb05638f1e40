import torch
x = torch.arange(6.).reshape(2, 3)
seen = []
x.t().apply_(lambda v: seen.append(v) or v / 3)
seen
x
y = torch.tensor([1, -2, 3])
y.apply_(lambda v: v * 1.5)
torch.tensor([1, 2], dtype=torch.uint8).apply_(lambda v: v - 5)
torch.tensor([True, False]).apply_(lambda v: 2 * v)
torch.tensor([1., 2.], dtype=torch.float64).apply_(lambda v: v * 0.1)
torch.tensor([1., 2.], dtype=torch.float16).apply_(lambda v: v / 3)
torch.tensor([1., 2.], dtype=torch.bfloat16).apply_(lambda v: v / 3)
torch.tensor([1., 2.]).apply_(lambda v: 1e300), torch.tensor([1., 2.]).apply_(lambda v: torch.tensor([0.1]))
b = torch.ones(2, 3)
b[:, 1].apply_(lambda v: 7)
b
a = torch.tensor([1, 2, 3])
a.map_(torch.tensor([10]), lambda p, q: p * q)
a.map2_(a, torch.tensor([[1, 1, 1]]).squeeze(0), lambda p, q, r: p + q - r)
torch.ones(2, 2).map_(torch.tensor([1., 2.]), lambda p, q: p - q)
for bad in [lambda v: 'a', lambda v: None, lambda v: 10 ** 30, lambda v: float('nan'), lambda v: 300]:
    for dt in [torch.float32, torch.int64, torch.uint8, torch.bool]:
        try:
            torch.tensor([1, 2], dtype=dt).apply_(bad)
        except Exception as e:
            print(dt, type(e), e)
for call in [lambda: torch.tensor([1.], requires_grad=True).apply_(abs),
             lambda: torch.tensor([1.]).apply_(),
             lambda: torch.tensor([1.]).apply_(abs, abs),
             lambda: torch.tensor([1.]).map_(torch.tensor([1.])),
             lambda: torch.tensor([1.]).map_(torch.tensor([1], dtype=torch.int64), max),
             lambda: torch.tensor([1.]).map2_(torch.tensor([1.]), 2, max),
             lambda: torch.tensor([1.]).map2_(torch.tensor([1.]), torch.tensor([1.], dtype=torch.float64), max),
             lambda: torch.tensor([1.]).map_(torch.tensor([1.], requires_grad=True), max),
             lambda: torch.ones(2).map_(torch.ones(2, 2), max),
             lambda: torch.ones(2).apply_(5)]:
    try:
        call()
    except Exception as e:
        print(type(e), e)
