import torch
x = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
p = torch.constant_pad_nd(x, [1, 1], 2.0)
p
l1 = torch.margin_ranking_loss(x[0], x[1], torch.tensor([1., -1.]), 0.1, 1)
l1
l2 = torch.hinge_embedding_loss(x, torch.tensor([[1., -1.], [1., 1.]]), 1.0, 2)
l2
l3 = torch.binary_cross_entropy_with_logits(x, torch.ones(2, 2), None, None, 0)
l3
(p.sum() + l1 + l2 + l3.sum()).backward()
x.grad
torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=4)
torch.nonzero_static(torch.tensor([[0, 1], [3, 0]]), size=1, fill_value=-5)
torch.empty_strided((2, 3), (1, 2)).stride()
torch.empty_permuted((2, 3, 4), (2, 0, 1)).stride()
x.new_empty_strided((2, 2), (1, 2)).stride()
torch.index_put_(torch.zeros(2, 2), (torch.tensor([0]),), torch.tensor(9.))
gen = torch.manual_seed(0)
w_ih, w_hh, b_ih, b_hh = torch.randn(8, 2), torch.randn(8, 2), torch.randn(8), torch.randn(8)
h, c = torch.lstm_cell(x, (x, x), w_ih, w_hh, b_ih, b_hh)
h
c
g = torch.gru_cell(x, x, w_ih[:6], w_hh[:6], b_ih[:6], b_hh[:6])
g
torch.rnn_tanh_cell(x, x, w_ih[:2], w_hh[:2])
torch.rnn_relu_cell(x, x, w_ih[:2], w_hh[:2], b_ih[:2], b_hh[:2])
x.grad = None
(h.sum() + g.sum()).backward()
x.grad
torch.frobenius_norm(x, (0, 1))
torch.frobenius_norm(x, [1, 0], True)
torch.layout
torch.memory_format
type(torch.strided)
type(torch.contiguous_format)
torch.lstm_cell(x, x, w_ih, w_hh)
