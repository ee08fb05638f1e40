a = torch.tensor([1, 2, 8, -8])
a << 2
a >> 1
a << torch.tensor([0, 1, 2, 3])
1 << torch.tensor([0, 3])
a.bitwise_left_shift(1)
torch.bitwise_right_shift(a, 2)
b = a.clone()
b <<= 1
b
b >>= 3
b
a & 3
a | 1
a ^ 5
~a
torch.bitwise_and(a, 6)
torch.bitwise_or(a, 1)
torch.bitwise_xor(a, torch.tensor([1, 5, 11, 2]))
torch.bitwise_not(torch.tensor([True, False]))
