"""MindSpeed reuse-fp32-param split: fp32 master shard -> bf16 parameters + int16 residuals."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _split_fp32_param(words, param_bits, residual, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + lane
        mask = offs < n
        word = tl.load(words + offs, mask=mask, other=0)
        word = word + 32768
        tl.store(param_bits + offs, (word >> 16).to(tl.int16), mask=mask)
        tl.store(residual + offs, word.to(tl.int16), mask=mask)


def run(main_param: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    n = main_param.numel()
    words = main_param.view(torch.int32)
    param_bits = torch.empty(n, dtype=torch.int16, device=main_param.device)
    residual = torch.empty(n, dtype=torch.int16, device=main_param.device)
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _split_fp32_param[grid](words, param_bits, residual, n, BLOCK=BLOCK)
    return param_bits.view(torch.bfloat16), residual
