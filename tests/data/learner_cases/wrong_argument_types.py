import torch

# arguments of the wrong type: PyTorch's argument parser words the error (first line compared)
x = torch.ones(2, 3)
tests = [lambda: torch.sum(x, "a"), lambda: x.view("a"), lambda: torch.zeros("a"), lambda: torch.max(x, 1.5),
         lambda: torch.mean(x, "a"), lambda: x.sum("a"), lambda: torch.mul(x, "a"), lambda: x.reshape("a"),
         lambda: torch.ones(2, "a"), lambda: torch.randn("a"), lambda: torch.cat(x), lambda: torch.cat([x, 1]),
         lambda: torch.matmul(x, 1), lambda: x.mean(dim="a"), lambda: x.permute("a"), lambda: x.transpose(0, "a"),
         lambda: x.unsqueeze("a"), lambda: x.squeeze("a"), lambda: torch.stack(x), lambda: torch.arange("a"),
         lambda: torch.exp(1.0), lambda: torch.relu(1.0), lambda: torch.sigmoid([1., 2.]), lambda: x.argmax("a"),
         lambda: torch.argmax(x, 1.5), lambda: torch.min(x, "a"), lambda: x.max(1.5), lambda: torch.clamp(x, "a"),
         lambda: torch.pow(x, "a"), lambda: x.expand("a"), lambda: x.repeat("a"), lambda: torch.full((2,), "a"),
         lambda: torch.linspace(0, 1, "a"), lambda: torch.sub(x, "a"), lambda: torch.div(x, "a"),
         lambda: torch.mm(x, [1]), lambda: torch.rand(2, 3.0), lambda: torch.zeros(2.5), lambda: x.view(2.0, 3),
         lambda: torch.sum(x, dim=1.0), lambda: x.std("a"), lambda: torch.softmax(x, "a"), lambda: torch.where(x, 1),
         lambda: x.index_select("a", 1), lambda: torch.topk(x, "a"), lambda: torch.sort(x, "a"),
         lambda: x.chunk("a"), lambda: torch.abs("a"), lambda: torch.flatten(x, "a"), lambda: torch.eye("a"),
         lambda: torch.randint(5, "a"), lambda: torch.normal("a", 1), lambda: torch.zeros_like("a"),
         lambda: x.fill_("a"), lambda: torch.gather(x, "a", x), lambda: x.masked_fill(x > 0, "a"),
         lambda: torch.dot(x, 1), lambda: torch.bmm(x, 1), lambda: x.sum(1, "a"), lambda: x.mean(keepdim=1)]
for i, t in enumerate(tests):
    try:
        print(i, "OK", t())
    except Exception as e:
        print(i, repr(e).split("(")[0] + ":", str(e).splitlines()[0])
print(torch.add(1, 2), torch.mul(2, torch.ones(2)), x.view(3, 2).shape, x.sum(1, True).shape, torch.max(x, 1)[0])
x.view(2, "b")
