def exp(v):
    return v * 2
print(exp(tensor([1., 2.])))
sq = lambda tensor: tensor * tensor
sq(ones(2))
vals = [sqrt(t) for t in [tensor(4.), tensor(9.)]]
vals
def scale(k):
    def apply(v, log=log):
        return log(v) * k
    return apply
scale(2.0)(tensor([1., 4.]))
ones = 5
ones + 1
for i in range(2):
    print(i, zeros(i + 1))
with no_grad():
    q = tensor([1.], requires_grad=True) * 3
q.requires_grad
