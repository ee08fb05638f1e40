import torch
# expand() for broadcasting by hand: the error names the tensor's type as ATen does
scores = torch.tensor([[0.2, 0.9, 0.4], [0.7, 0.1, 0.5]], dtype=torch.float64)
mask = scores > 0.3
print(mask.unsqueeze(0).expand(4, 2, 3).shape)
ids = torch.arange(6).view(2, 3)
for t in (scores, mask, ids, ids.int(), scores.half(), scores.bfloat16(), ids.to(torch.uint8)):
    try:
        t.expand(6)
    except RuntimeError as e:
        print(e)
mask.expand(3)
