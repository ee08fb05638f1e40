torch.set_default_device("cuda")
print("set")
torch.set_default_device("cuda:1")
torch.get_default_device()
x = torch.arange(3, device="cpu")
x
torch.set_default_device(None)
torch.randn(2).shape
torch.set_default_device("cuda")
try:
    model = torch.nn.Linear(20, 30)
except AssertionError as e:
    print("caught:", e)
torch.set_default_device("cpu")
torch.nn.Linear(20, 30).weight.device
torch.set_default_device(None)
torch.set_default_device(0)
