# int[] parameters (dims, shape, size) take no single int; int[N] ones (sum's dim, kernel_size) do,
# and so does the one positional int list of a method (x.flip(0))
import torch
x = torch.ones(2, 2)
try:
    print('torch.linalg.matrix_norm(x, dim=0)', torch.linalg.matrix_norm(x, dim=0).shape)
except Exception as e:
    print('torch.linalg.matrix_norm(x, dim=0)', repr(e).splitlines()[0])
try:
    print('torch.linalg.matrix_norm(x, "fro", 0)', torch.linalg.matrix_norm(x, "fro", 0).shape)
except Exception as e:
    print('torch.linalg.matrix_norm(x, "fro", 0)', repr(e).splitlines()[0])
try:
    print('torch.linalg.matrix_norm(x, dim=(0, 1))', torch.linalg.matrix_norm(x, dim=(0, 1)).shape)
except Exception as e:
    print('torch.linalg.matrix_norm(x, dim=(0, 1))', repr(e).splitlines()[0])
try:
    print('torch.rot90(x, 1, 0)', torch.rot90(x, 1, 0).shape)
except Exception as e:
    print('torch.rot90(x, 1, 0)', repr(e).splitlines()[0])
try:
    print('x.rot90(1, 0)', x.rot90(1, 0).shape)
except Exception as e:
    print('x.rot90(1, 0)', repr(e).splitlines()[0])
try:
    print('torch.permute(x, 0)', torch.permute(x, 0).shape)
except Exception as e:
    print('torch.permute(x, 0)', repr(e).splitlines()[0])
try:
    print('torch.broadcast_to(x, 2)', torch.broadcast_to(x, 2).shape)
except Exception as e:
    print('torch.broadcast_to(x, 2)', repr(e).splitlines()[0])
try:
    print('torch.unflatten(x, 0, 2)', torch.unflatten(x, 0, 2).shape)
except Exception as e:
    print('torch.unflatten(x, 0, 2)', repr(e).splitlines()[0])
try:
    print('torch.full(2, 1.0)', torch.full(2, 1.0).shape)
except Exception as e:
    print('torch.full(2, 1.0)', repr(e).splitlines()[0])
try:
    print('x.flip(0)', x.flip(0).shape)
except Exception as e:
    print('x.flip(0)', repr(e).splitlines()[0])
try:
    print('x.tile(2)', x.tile(2).shape)
except Exception as e:
    print('x.tile(2)', repr(e).splitlines()[0])
try:
    print('x.permute(1, 0)', x.permute(1, 0).shape)
except Exception as e:
    print('x.permute(1, 0)', repr(e).splitlines()[0])
try:
    print('x.view(4)', x.view(4).shape)
except Exception as e:
    print('x.view(4)', repr(e).splitlines()[0])
try:
    print('x.repeat(2)', x.repeat(2).shape)
except Exception as e:
    print('x.repeat(2)', repr(e).splitlines()[0])
try:
    print('x.expand(2, 2)', x.expand(2, 2).shape)
except Exception as e:
    print('x.expand(2, 2)', repr(e).splitlines()[0])
try:
    print('x.new_zeros(2)', x.new_zeros(2).shape)
except Exception as e:
    print('x.new_zeros(2)', repr(e).splitlines()[0])
try:
    print('torch.zeros(2)', torch.zeros(2).shape)
except Exception as e:
    print('torch.zeros(2)', repr(e).splitlines()[0])
try:
    print('torch.movedim(x, 0, 1)', torch.movedim(x, 0, 1).shape)
except Exception as e:
    print('torch.movedim(x, 0, 1)', repr(e).splitlines()[0])
try:
    print('torch.squeeze(x, 0)', torch.squeeze(x, 0).shape)
except Exception as e:
    print('torch.squeeze(x, 0)', repr(e).splitlines()[0])
try:
    print('torch.count_nonzero(x, 0)', torch.count_nonzero(x, 0).shape)
except Exception as e:
    print('torch.count_nonzero(x, 0)', repr(e).splitlines()[0])
try:
    print('x.sum(0)', x.sum(0).shape)
except Exception as e:
    print('x.sum(0)', repr(e).splitlines()[0])
try:
    print('torch.linalg.vector_norm(x, dim=0)', torch.linalg.vector_norm(x, dim=0).shape)
except Exception as e:
    print('torch.linalg.vector_norm(x, dim=0)', repr(e).splitlines()[0])
try:
    print('torch.nn.functional.avg_pool2d(x[None], 2)', torch.nn.functional.avg_pool2d(x[None], 2).shape)
except Exception as e:
    print('torch.nn.functional.avg_pool2d(x[None], 2)', repr(e).splitlines()[0])
