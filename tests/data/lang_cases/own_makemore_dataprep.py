# makemore-style data preparation: stoi/itos from the characters, sliding context
# windows, torch.tensor of lists, a train/dev split after random.shuffle(seed 42)
import random
import torch
names = "ada bo cyrus dana eli faye gus hana ivo jun kai lea mo nia oto pia".split()
len(names), max(len(n) for n in names)
letters = sorted(list(set("".join(names))))
stoi = {ch: i + 1 for i, ch in enumerate(letters)}
stoi["."] = 0
itos = {i: ch for ch, i in stoi.items()}
len(itos)
itos[1], itos[len(itos) - 1], stoi["o"]
window = 3


def windows(words):
    X, Y = [], []
    for word in words:
        context = [0] * window
        for ch in word + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


for row, nxt in zip(*windows(names[:2])):
    print("".join(itos[i.item()] for i in row), "--->", itos[nxt.item()])
random.seed(42)
random.shuffle(names)
names
cut = int(0.75 * len(names))
Xtr, Ytr = windows(names[:cut])
Xdev, Ydev = windows(names[cut:])
Xtr.dtype, Xtr[:4], Ytr[:4]
emb_table = torch.randn((len(itos), 2), generator=torch.Generator().manual_seed(99))
emb = emb_table[Xtr]
emb.shape, emb.view(emb.shape[0], -1).shape
torch.bincount(Ytr, minlength=len(itos))
