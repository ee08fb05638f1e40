with torch.device("cpu") as d:
    print(d, torch.get_default_device())
    w = torch.randn(2, 3)
    print(w.device, torch.zeros(1).device)
torch.get_default_device()
cuda = torch.device("cuda")
with cuda:
    print("naming CUDA is fine")
with cuda:
    try:
        torch.nn.Linear(2, 3)
    except AssertionError as e:
        print("Linear:", e)
    try:
        torch.tensor([1.0])
    except AssertionError as e:
        print("tensor:", e)
    print(torch.zeros_like(w).device, (w + 1).device)
torch.ones(1)
with torch.device("cuda:1"):
    print(torch.get_default_device())
with torch.device("cuda"):
    torch.get_default_device()
