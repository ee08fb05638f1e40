import torch
board = torch.zeros(3, 4)
for code in ["row", "col", "rows", "part", "fancy"]:
    try:
        if code == "row":
            board[0] = torch.ones(3)
        elif code == "col":
            board[:, 0] = torch.ones(4)
        elif code == "rows":
            board[0:2] = torch.ones(3, 4)
        elif code == "part":
            board[0, :2] = torch.ones(3)
        else:
            board[[0, 1]] = torch.ones(3)
    except RuntimeError as e:
        print(code, e)
board[0, :2] = torch.ones(1, 2)
board
print(f"{torch.ones(2)}", format(torch.ones(2), ""), f"{torch.tensor(2.5):.2f}")
try:
    print(f"{torch.ones(2):.2f}")
except TypeError as e:
    print(e)
layer = torch.nn.Linear(3, 2)
for x in [torch.ones(4, 3, dtype=torch.long), torch.ones(4, 3, dtype=torch.float64)]:
    try:
        layer(x)
    except RuntimeError as e:
        print(e)
torch.nn.functional.linear(torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, dtype=torch.float64))
