# A training script that reports GPU memory, run on a machine without CUDA: the
# counters read 0 and the statistics table is empty, as a CPU-only PyTorch answers;
# resetting the peak statistics is what fails there.
before = torch.cuda.memory_allocated()
before, torch.cuda.max_memory_allocated(device=None) / 1024**3
torch.cuda.memory_reserved(0), torch.cuda.max_memory_reserved("cuda:0")
torch.cuda.memory_stats()
torch.cuda.is_bf16_supported(), torch.cuda.get_arch_list(), torch.cuda.get_rng_state_all()
torch.cuda.set_rng_state(torch.zeros(4, dtype=torch.uint8))
torch.cuda.seed_all()
torch.cuda.set_device(-1)
torch.cuda.reset_peak_memory_stats()
