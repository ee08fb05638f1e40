with torch.inference_mode():
    a = torch.ones(3)
a.requires_grad_()
