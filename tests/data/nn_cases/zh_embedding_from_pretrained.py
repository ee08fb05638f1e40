# word vectors loaded into an embedding layer, as the textbooks' NLP chapters do
import torch
from torch import nn
_ = torch.manual_seed(0)
weight = torch.arange(12.).view(4, 3)
emb = nn.Embedding.from_pretrained(weight)
emb
emb(torch.tensor([[1, 3], [0, 0]]))
emb.weight.requires_grad
tuned = torch.nn.Embedding.from_pretrained(weight, freeze=False, padding_idx=0)
tuned
out = tuned(torch.tensor([0, 2, 2])).sum()
out.backward()
tuned.weight.grad
bag = nn.EmbeddingBag.from_pretrained(weight, mode="max")
bag(torch.tensor([[0, 2], [1, 3]]))
nn.Embedding.from_pretrained(torch.ones(3))
