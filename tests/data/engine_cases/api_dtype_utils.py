torch.get_default_dtype()
torch.set_default_dtype(torch.float64)
torch.get_default_dtype()
torch.tensor([1.5, 2.0])
torch.ones(2)
torch.arange(0.0, 1.0, 0.5)
torch.tensor([1, 2]) * 0.5
torch.set_default_dtype(torch.float32)
torch.tensor([1.5]).dtype
torch.result_type(torch.tensor([1, 2]), 1.0)
torch.result_type(torch.tensor([1.0]), torch.tensor([1], dtype=torch.float64))
torch.promote_types(torch.int32, torch.float16)
torch.promote_types(torch.uint8, torch.int8)
torch.can_cast(torch.float64, torch.int32)
torch.can_cast(torch.int32, torch.float32)
torch.finfo(torch.float32)
torch.finfo(torch.float32).eps
torch.finfo().max
torch.finfo(torch.float64).tiny
torch.finfo(torch.float16).resolution
torch.iinfo(torch.int64)
torch.iinfo(torch.int32).max
torch.iinfo(torch.uint8).min
torch.iinfo(torch.int8).bits
torch.float16
torch.half
torch.cfloat if False else torch.int16
torch.is_floating_point(torch.tensor([1]))
torch.is_nonzero(torch.tensor([1.5]))
torch.tensor([1.0]).is_signed()
torch.float32.is_floating_point
torch.int8.is_signed
torch.tensor([1, 2], dtype=torch.int16).element_size()
