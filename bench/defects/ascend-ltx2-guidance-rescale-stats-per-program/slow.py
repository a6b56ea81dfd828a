"""LTX-2 guidance rescale: out = cfg * (phi * std(text) / std(cfg) + 1 - phi), std per sample."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _guidance_rescale(cfg_ptr, text_ptr, out_ptr, n, phi, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    part = tl.program_id(1)
    parts = tl.num_programs(1)
    cfg_row = cfg_ptr + b * n
    text_row = text_ptr + b * n
    sum_t = tl.zeros((BLOCK,), dtype=tl.float32)
    sq_t = tl.zeros((BLOCK,), dtype=tl.float32)
    sum_c = tl.zeros((BLOCK,), dtype=tl.float32)
    sq_c = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        keep = offs < n
        t = tl.load(text_row + offs, mask=keep, other=0.0)
        c = tl.load(cfg_row + offs, mask=keep, other=0.0)
        sum_t += t
        sq_t += t * t
        sum_c += c
        sq_c += c * c
    st = tl.sum(sum_t, axis=0)
    sc = tl.sum(sum_c, axis=0)
    var_t = (tl.sum(sq_t, axis=0) - st * st / n) / (n - 1)
    var_c = (tl.sum(sq_c, axis=0) - sc * sc / n) / (n - 1)
    factor = phi * tl.sqrt(var_t / var_c) + (1.0 - phi)
    for start in range(part * BLOCK, n, parts * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        keep = offs < n
        c = tl.load(cfg_row + offs, mask=keep, other=0.0)
        tl.store(out_ptr + b * n + offs, c * factor, mask=keep)


def run(noise_cfg: torch.Tensor, noise_pred_text: torch.Tensor, guidance_rescale: float) -> torch.Tensor:
    batch = noise_cfg.shape[0]
    n = noise_cfg[0].numel()
    out = torch.empty_like(noise_cfg)
    parts = max(1, NUM_VECTOR_CORES // batch)
    _guidance_rescale[(batch, parts)](noise_cfg, noise_pred_text, out, n, guidance_rescale, BLOCK=2048)
    return out
