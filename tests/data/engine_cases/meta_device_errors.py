import torch
import torch.nn as nn
y = torch.randn(4, 5, device="meta")
try:
    y.item()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.sum().item()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    float(y.sum())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.tolist()
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    y.numpy()
except TypeError as e:
    print("TypeError:", e)
try:
    y.cpu()
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    y.to("cpu")
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    y + torch.randn(4, 5)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.randn(4, 5) + y
except RuntimeError as e:
    print("RuntimeError:", e)
y + torch.tensor(2.0)
try:
    nn.Linear(5, 2)(y)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.matmul(y, torch.randn(5, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.mul(torch.randn(4, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
lin = nn.Linear(5, 2, device="meta")
try:
    lin(torch.randn(3, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    bool(y[0, 0])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    lin.to("cpu")
except NotImplementedError as e:
    print("NotImplementedError:", e)
_ = torch.manual_seed(0)
a = torch.randn(3, device="meta")
b = nn.Linear(100, 100, device="meta")
torch.randn(3)
y.sum().item()
