x = torch.ones(2)
x.cuda()
