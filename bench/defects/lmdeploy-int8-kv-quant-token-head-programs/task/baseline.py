"""Int8 KV quantisation for the cache fill (LMDeploy quant_policy=8 style): each program quantises a
[BLOCK_T, head_dim] tile of one kv head's K and V rows, row-wise."""
import torch
import triton
import triton.language as tl


@triton.jit
def _quant_rows(x):
    mn = tl.min(x, axis=1)
    mx = tl.max(x, axis=1)
    scale = (mx - mn) / 255.0
    zero = -mn / scale
    q = tl.floor(x / scale[:, None] + zero[:, None] + 0.5)
    q = tl.minimum(tl.maximum(q, 0.0), 255.0)
    return q.to(tl.uint8), scale, zero


@triton.jit
def kv_quant_kernel(k_ptr, v_ptr, kq_ptr, vq_ptr, ksz_ptr, vsz_ptr, T, H, D,
                    BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    h = tl.program_id(1)
    row = t * H + h
    tm = t < T
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    m = tm[:, None] & dm[None, :]
    offs = row[:, None] * D + d[None, :]
    k = tl.load(k_ptr + offs, mask=m, other=0.0).to(tl.float32)
    k = tl.where(dm[None, :], k, tl.load(k_ptr + row * D, mask=tm, other=0.0).to(tl.float32)[:, None])
    q, scale, zero = _quant_rows(k)
    tl.store(kq_ptr + offs, q, mask=m)
    tl.store(ksz_ptr + row * 2, scale, mask=tm)
    tl.store(ksz_ptr + row * 2 + 1, zero, mask=tm)
    v = tl.load(v_ptr + offs, mask=m, other=0.0).to(tl.float32)
    v = tl.where(dm[None, :], v, tl.load(v_ptr + row * D, mask=tm, other=0.0).to(tl.float32)[:, None])
    q, scale, zero = _quant_rows(v)
    tl.store(vq_ptr + offs, q, mask=m)
    tl.store(vsz_ptr + row * 2, scale, mask=tm)
    tl.store(vsz_ptr + row * 2 + 1, zero, mask=tm)


def run(k: torch.Tensor, v: torch.Tensor) -> tuple:
    T, H, D = k.shape
    kq = torch.empty((T, H, D), dtype=torch.uint8, device=k.device)
    vq = torch.empty((T, H, D), dtype=torch.uint8, device=k.device)
    ksz = torch.empty((T, H, 2), dtype=torch.float32, device=k.device)
    vsz = torch.empty((T, H, 2), dtype=torch.float32, device=k.device)
    BLOCK_T = 16
    kv_quant_kernel[(triton.cdiv(T, BLOCK_T), H)](k, v, kq, vq, ksz, vsz, T, H, D,
                                                  BLOCK_T=BLOCK_T, BLOCK_D=triton.next_power_of_2(D))
    return kq, vq, ksz, vsz
