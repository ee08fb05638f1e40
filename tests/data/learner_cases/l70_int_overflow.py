import torch
a = torch.tensor([127], dtype=torch.int8)
print(a + 1)
print(torch.tensor([250], dtype=torch.uint8) + 10)
print(torch.tensor([-1, -255], dtype=torch.uint8))
print(torch.tensor([[1, 2.9], [-2.9, 4]], dtype=torch.int32))
print(torch.tensor(-3.7, dtype=torch.int16))
print(torch.tensor([2**40]), torch.tensor(2**63, dtype=torch.float32))
for data, dt in [([300], torch.uint8), ([-256], torch.uint8), ([-0.5], torch.uint8), (2**40, torch.int32),
                 ([float("nan")], torch.int64), ([1.5e10], torch.int8), ([2**63], torch.float64)]:
    try:
        print(torch.tensor(data, dtype=dt))
    except RuntimeError as e:
        print(dt, e)
try:
    torch.tensor([1, 2**64])
except ValueError as e:
    print("ValueError:", e)
torch.tensor([2**63])
