x = torch.ones(2)
x.to("cuda")
