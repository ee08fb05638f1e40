dev = torch.device("cpu")
dev
print(dev)
dev.type
dev.index
str(torch.device("cpu", 0))
torch.device("cuda:1")
torch.device("cuda", 2).index
torch.device("cpu") == torch.device("cpu")
torch.device("cpu") == "cpu"
torch.cuda.is_available()
torch.cuda.device_count()
torch.accelerator.is_available()
torch.accelerator.current_accelerator()
torch.backends.mps.is_available()
type(dev)
