import torch
def safe_div(a, b):
    try:
        if b == 0:
            raise ValueError("b must not be zero")
        return a / b
    except ValueError as e:
        print("error:", e)
        return None
    finally:
        print("done dividing")
print(safe_div(torch.tensor(4.0), 2))
print(safe_div(torch.tensor(4.0), 0))
try:
    torch.ones(3)[5]
except IndexError as e:
    print("IndexError:", e)
try:
    torch.ones(2).reshape(3)
except Exception as e:
    print("reshape failed:", e)
class ShapeError(Exception):
    pass
try:
    raise ShapeError("bad shape")
except ShapeError as e:
    print("custom", e)
raise RuntimeError("stop here")
