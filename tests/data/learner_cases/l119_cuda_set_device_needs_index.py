# torch.cuda.set_device wants a CUDA device with an index (or an integer) before it finds
# no CUDA: a bare "cuda" is refused with PyTorch's message.
torch.cuda.memory_allocated("cpu")
torch.cuda.set_device("cuda")
