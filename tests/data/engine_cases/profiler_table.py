import torch
from torch.profiler import profile, record_function, ProfilerActivity

# the profiler as the recipe opens it: gradrepl's times are its own, the table's shape is PyTorch's
x = torch.randn(64, 32)
w = torch.randn(32, 16, requires_grad=True)
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        y = (x @ w).relu().sum()
    y.backward()
table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=30)
lines = table.split("\n")
print(lines[1].split())
print(lines[-2].split(":")[0], lines[-1] == "")
width = lines[0].index(" ")
names = [line[:width].strip() for line in lines[3:-3]]
print("model_inference" in names, "aten::matmul" in names, "aten::mm" in names, "MmBackward0" in names)
print(len(names) >= 10, set(len(line) for line in lines[:-2]) == {len(lines[0])})
shaped = prof.key_averages(group_by_input_shape=True).table()
print(shaped.split("\n")[1].split()[-2:], "[[64, 32], [32, 16]]" in shaped)
print(ProfilerActivity.CPU, repr(ProfilerActivity.CUDA))
with torch.autograd.profiler.profile() as p2:
    z = torch.mm(x, w)
averages = p2.key_averages()
print(averages.table().split("\n")[1].split()[0], averages[0].key, averages[0].count)
for e in averages:
    if e.key == "aten::mm":
        print(e.key, e.count, e.cpu_time_total > 0, e.self_cpu_time_total <= e.cpu_time_total)
