"""Int8 KV quantisation for the cache fill (LMDeploy quant_policy=8 style): one program per (token, kv head)
quantises that head's K row and V row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _quant_row(x):
    mn = tl.min(x, axis=0)
    mx = tl.max(x, axis=0)
    scale = (mx - mn) / 255.0
    zero = -mn / scale
    q = tl.floor(x / scale + zero + 0.5)
    q = tl.minimum(tl.maximum(q, 0.0), 255.0)
    return q.to(tl.uint8), scale, zero


@triton.jit
def kv_quant_kernel(k_ptr, v_ptr, kq_ptr, vq_ptr, ksz_ptr, vsz_ptr, H, D, BLOCK_D: tl.constexpr):
    t = tl.program_id(0)
    h = tl.program_id(1)
    row = t * H + h
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    k = tl.load(k_ptr + row * D + d, mask=dm, other=0.0).to(tl.float32)
    k = tl.where(dm, k, tl.load(k_ptr + row * D))  # pad with a real element so min / max ignore the tail
    q, scale, zero = _quant_row(k)
    tl.store(kq_ptr + row * D + d, q, mask=dm)
    tl.store(ksz_ptr + row * 2, scale)
    tl.store(ksz_ptr + row * 2 + 1, zero)
    v = tl.load(v_ptr + row * D + d, mask=dm, other=0.0).to(tl.float32)
    v = tl.where(dm, v, tl.load(v_ptr + row * D))
    q, scale, zero = _quant_row(v)
    tl.store(vq_ptr + row * D + d, q, mask=dm)
    tl.store(vsz_ptr + row * 2, scale)
    tl.store(vsz_ptr + row * 2 + 1, zero)


def run(k: torch.Tensor, v: torch.Tensor) -> tuple:
    T, H, D = k.shape
    kq = torch.empty((T, H, D), dtype=torch.uint8, device=k.device)
    vq = torch.empty((T, H, D), dtype=torch.uint8, device=k.device)
    ksz = torch.empty((T, H, 2), dtype=torch.float32, device=k.device)
    vsz = torch.empty((T, H, 2), dtype=torch.float32, device=k.device)
    kv_quant_kernel[(T, H)](k, v, kq, vq, ksz, vsz, H, D, BLOCK_D=triton.next_power_of_2(D))
    return kq, vq, ksz, vsz
