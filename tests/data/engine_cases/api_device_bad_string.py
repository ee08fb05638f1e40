torch.device("gpu")
