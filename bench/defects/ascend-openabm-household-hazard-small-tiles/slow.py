"""OpenABM household transmission: subtract each member's daily household hazard."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _household_hazard(hazard, t, s, out, H, beta_hh, stride_h,
                      BLOCK_H: tl.constexpr, SLOTS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    slot = tl.arange(0, SLOTS)
    for blk in range(pid, tl.cdiv(H, BLOCK_H), nprog):
        hh = blk * BLOCK_H + tl.arange(0, BLOCK_H)
        m = (hh < H)[:, None]
        idx = hh[:, None] * stride_h + slot[None, :]
        ti = tl.load(t + idx, mask=m, other=0.0)
        si = tl.load(s + idx, mask=m, other=0.0)
        hz = tl.load(hazard + idx, mask=m, other=0.0)
        pressure = tl.sum(ti, axis=1)[:, None] - ti
        tl.store(out + idx, hz - beta_hh * si * pressure, mask=m)


def run(hazard: torch.Tensor, t: torch.Tensor, s: torch.Tensor, beta_hh: float) -> torch.Tensor:
    H, SLOTS = hazard.shape
    out = torch.empty_like(hazard)
    BLOCK_H = 16                                # 16 households x 8 slots = 128 lanes, as in the CUDA port
    grid = (min(_VECTOR_CORES, triton.cdiv(H, BLOCK_H)),)
    _household_hazard[grid](hazard, t, s, out, H, beta_hh, hazard.stride(0),
                            BLOCK_H=BLOCK_H, SLOTS=SLOTS)
    return out
