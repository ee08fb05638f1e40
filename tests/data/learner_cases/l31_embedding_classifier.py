import torch
import torch.nn as nn
torch.manual_seed(31)
vocab = ["<pad>", "good", "bad", "movie", "great", "awful"]
stoi = {w: i for i, w in enumerate(vocab)}
sentences = [["good", "movie"], ["awful", "movie"], ["great", "good"], ["bad", "awful"]]
labels = torch.tensor([1, 0, 1, 0])
X = torch.tensor([[stoi[w] for w in s] for s in sentences])
print(X)
class BagOfWords(nn.Module):
    def __init__(self, n_vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, dim)
        self.out = nn.Linear(dim, 2)
    def forward(self, idx):
        return self.out(self.emb(idx).mean(dim=1))
model = BagOfWords(len(vocab), 4)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for step in range(20):
    loss = nn.functional.cross_entropy(model(X), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"final loss {loss.item():.4f}")
with torch.no_grad():
    print(model(X).argmax(1).tolist())
print(model.emb.weight.shape, model.emb(torch.tensor([1])).shape)
model.emb(torch.tensor([6]))
