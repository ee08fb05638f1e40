import torch
torch.manual_seed(26)
acc = 0.87654
loss = torch.tensor(0.123456)
lr = 3e-4
print(f"acc={acc:.2%} loss={loss:.3f} lr={lr:.0e} lr={lr:g}")
print(f"{'epoch':<8}|{'loss':>10}|")
for epoch, value in enumerate([0.9, 0.51234, 0.25]):
    print(f"{epoch:<8}|{value:>10.4f}|")
print("{:.3f} and {:>6}".format(loss.item(), 42))
print("{name} has {n:,} params".format(name="model", n=1234567))
print("%.2f%%" % (acc * 100))
t = torch.randn(3)
print(f"{t}")
print(f"{t.sum().item():+.4f}")
print(f"{t.shape} {t.dtype} {t.numel():03d}")
print(f"{t.mean():.3f}")
print(f"{t:.3f}")
