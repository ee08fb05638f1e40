a = torch.ones(2, requires_grad=True)
b = a * 2
b.register_post_accumulate_grad_hook(lambda t: None)
