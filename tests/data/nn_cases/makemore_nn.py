# makemore part 2 (Karpathy) written with torch.nn and torch.optim: a character-level MLP
# over generated words, embedding -> tanh hidden layer -> logits, minibatch SGD.
import torch
import torch.nn as nn
import torch.nn.functional as F
import random

random.seed(42)
letters = 'abcdefghijklmnopqrstuvwxyz'
words = [''.join(random.choice(letters[:8]) for _ in range(random.randint(3, 7))) for _ in range(200)]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words)
print(Xtr.shape, Ytr.shape)

g = torch.Generator().manual_seed(2147483647)
torch.manual_seed(2147483647)


class MLP(nn.Module):
    def __init__(self, vocab_size, n_embd, n_hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, n_embd)
        self.hidden = nn.Linear(n_embd * block_size, n_hidden)
        self.out = nn.Linear(n_hidden, vocab_size)

    def forward(self, idx):
        emb = self.emb(idx)
        h = torch.tanh(self.hidden(emb.view(emb.shape[0], -1)))
        return self.out(h)


model = MLP(len(stoi), 5, 32)
print(model)
print(sum(p.nelement() for p in model.parameters()))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=150, gamma=0.1)
for i in range(300):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    logits = model(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    if i % 50 == 0:
        print(i, loss)
print(scheduler.get_last_lr())

model.eval()
with torch.no_grad():
    full = F.cross_entropy(model(Xtr), Ytr)
print(full)

for _ in range(5):
    out = []
    context = [0] * block_size
    while True:
        probs = F.softmax(model(torch.tensor([context])), dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0:
            break
    print(''.join(itos[i] for i in out))
