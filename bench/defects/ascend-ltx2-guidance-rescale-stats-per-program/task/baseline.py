"""LTX-2 guidance rescale: out = cfg * (phi * std(text) / std(cfg) + 1 - phi), std per sample."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _partial_moments(cfg_ptr, text_ptr, part_ptr, n, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    part = tl.program_id(1)
    parts = tl.num_programs(1)
    sum_t = tl.zeros((BLOCK,), dtype=tl.float32)
    sq_t = tl.zeros((BLOCK,), dtype=tl.float32)
    sum_c = tl.zeros((BLOCK,), dtype=tl.float32)
    sq_c = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(part * BLOCK, n, parts * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        keep = offs < n
        t = tl.load(text_ptr + b * n + offs, mask=keep, other=0.0)
        c = tl.load(cfg_ptr + b * n + offs, mask=keep, other=0.0)
        sum_t += t
        sq_t += t * t
        sum_c += c
        sq_c += c * c
    dst = part_ptr + (b * parts + part) * 4
    tl.store(dst, tl.sum(sum_t, axis=0))
    tl.store(dst + 1, tl.sum(sq_t, axis=0))
    tl.store(dst + 2, tl.sum(sum_c, axis=0))
    tl.store(dst + 3, tl.sum(sq_c, axis=0))


@triton.jit
def _apply_rescale(cfg_ptr, part_ptr, out_ptr, n, phi, BLOCK: tl.constexpr, PARTS: tl.constexpr):
    b = tl.program_id(0)
    part = tl.program_id(1)
    parts = tl.num_programs(1)
    p = tl.arange(0, PARTS)
    src = part_ptr + (b * parts + p) * 4
    keep_p = p < parts
    st = tl.sum(tl.load(src, mask=keep_p, other=0.0), axis=0)
    qt = tl.sum(tl.load(src + 1, mask=keep_p, other=0.0), axis=0)
    sc = tl.sum(tl.load(src + 2, mask=keep_p, other=0.0), axis=0)
    qc = tl.sum(tl.load(src + 3, mask=keep_p, other=0.0), axis=0)
    var_t = (qt - st * st / n) / (n - 1)
    var_c = (qc - sc * sc / n) / (n - 1)
    factor = phi * tl.sqrt(var_t / var_c) + (1.0 - phi)
    for start in range(part * BLOCK, n, parts * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        keep = offs < n
        c = tl.load(cfg_ptr + b * n + offs, mask=keep, other=0.0)
        tl.store(out_ptr + b * n + offs, c * factor, mask=keep)


def run(noise_cfg: torch.Tensor, noise_pred_text: torch.Tensor, guidance_rescale: float) -> torch.Tensor:
    batch = noise_cfg.shape[0]
    n = noise_cfg[0].numel()
    out = torch.empty_like(noise_cfg)
    parts = max(1, NUM_VECTOR_CORES // batch)
    partials = torch.empty((batch, parts, 4), device=noise_cfg.device, dtype=torch.float32)
    _partial_moments[(batch, parts)](noise_cfg, noise_pred_text, partials, n, BLOCK=2048)
    _apply_rescale[(batch, parts)](noise_cfg, partials, out, n, guidance_rescale,
                                   BLOCK=2048, PARTS=triton.next_power_of_2(parts))
    return out
