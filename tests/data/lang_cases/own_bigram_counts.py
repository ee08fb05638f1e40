# bigram counting as in makemore part 1: a count matrix filled in a loop, rows
# normalised, names sampled with a seeded generator, the average negative log likelihood
import torch
words = "anna bob cleo dave emil finn gail hugo".split()
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    seq = ["."] + list(w) + ["."]
    for a, b in zip(seq, seq[1:]):
        N[stoi[a], stoi[b]] += 1
N[0]
N.sum(), N.dtype
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
P[0].sum(), P.shape
g = torch.Generator().manual_seed(31337)
for _ in range(5):
    out = []
    ix = 0
    while True:
        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
log_likelihood = 0.0
n = 0
for w in words:
    seq = ["."] + list(w) + ["."]
    for a, b in zip(seq, seq[1:]):
        log_likelihood += torch.log(P[stoi[a], stoi[b]])
        n += 1
nll = -log_likelihood
print(f"{nll=}")
print(f"{nll / n}")
