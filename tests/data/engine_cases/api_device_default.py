torch.get_default_device()
torch.set_default_device("cpu")
torch.get_default_device()
torch.ones(2).device
torch.set_default_device(None)
torch.get_default_device()
