x = torch.arange(12.).reshape(3, 4)
x.stride()
x.stride(1)
x.t().stride()
x[:, 1:].storage_offset()
x[1].storage_offset()
x.t().is_contiguous()
x.t().contiguous().stride()
x.add_(1)
x[0, 0] = 5
y = x.view(12)
y.mul_(2)
x.expand(2, 3, 4).stride()
x.unsqueeze(1).stride()
torch.tensor(3.0).stride()
x.data_ptr() == y.data_ptr()
x.untyped_storage().nbytes() if False else x.nbytes
x.itemsize
x.is_leaf
x.names if False else x.layout
x.is_sparse
x.is_quantized
x.is_complex()
x.dim_order() if False else x.ndim
