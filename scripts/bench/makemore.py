import torch
import torch.nn.functional as F

# Names made up from syllables by a fixed linear congruential generator: deterministic,
# no download (the lecture reads names.txt).
syllables = ["an", "el", "ma", "ri", "jo", "ka", "li", "so", "ne", "ta", "vi", "ro",
             "be", "lu", "mi", "da", "ya", "za", "or", "is", "ch", "qu", "ex", "fy"]
state = 12345
words = []
for n in range(4000):
    state = (state * 1103515245 + 12345) % 2147483648
    count = 1 + state % 3
    word = ""
    for k in range(count + 1):
        state = (state * 1103515245 + 12345) % 2147483648
        word = word + syllables[state % len(syllables)]
    words.append(word)

chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab_size = len(stoi)

block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
Xtr = torch.tensor(X)
Ytr = torch.tensor(Y)

# The lecture's network (part 2) with part 3's initial scales: without them training is
# chaotic and the BLAS's last bits (MKL in PyTorch) would decide the printed loss.
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.3
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, vocab_size), generator=g) * 0.01
b2 = torch.randn(vocab_size, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True

for i in range(20000):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 10000 else 0.01
    for p in parameters:
        p.data += -lr * p.grad

emb = C[Xtr]
h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
logits = h @ W2 + b2
print(Xtr.shape[0], vocab_size, round(loss.item(), 4), round(F.cross_entropy(logits, Ytr).item(), 4))
