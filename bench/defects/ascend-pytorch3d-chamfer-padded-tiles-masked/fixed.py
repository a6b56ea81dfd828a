"""pytorch3d chamfer_distance on padded clouds: per-point squared distance to the nearest real point of the other cloud."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _nn_dist2_fwd(a, b, len_a, len_b, out, N, Pa, Pb,
                  sa_n, sa_c, sb_n, sb_c,
                  BQ: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for n in range(N):
        la = tl.load(len_a + n).to(tl.int32)
        lb = tl.load(len_b + n).to(tl.int32)
        for t in range(pid, tl.cdiv(la, BQ), nprog):
            qi = t * BQ + tl.arange(0, BQ)
            qmask = qi < la
            qa = a + n * sa_n + qi
            ax = tl.load(qa, mask=qmask, other=0.0)
            ay = tl.load(qa + sa_c, mask=qmask, other=0.0)
            az = tl.load(qa + 2 * sa_c, mask=qmask, other=0.0)
            best = tl.full([BQ], float("inf"), tl.float32)
            for j0 in range(0, lb, BR):
                rj = j0 + tl.arange(0, BR)
                rmask = rj < lb
                rb = b + n * sb_n + rj
                bx = tl.load(rb, mask=rmask, other=0.0)
                by = tl.load(rb + sb_c, mask=rmask, other=0.0)
                bz = tl.load(rb + 2 * sb_c, mask=rmask, other=0.0)
                dx = ax[:, None] - bx[None, :]
                dy = ay[:, None] - by[None, :]
                dz = az[:, None] - bz[None, :]
                d = dx * dx + dy * dy + dz * dz
                d = tl.where(rj[None, :].to(tl.float32) < lb, d, float("inf"))
                best = tl.minimum(best, tl.min(d, axis=1))
            tl.store(out + n * Pa + qi, best, mask=qmask)


def _nn_dist2(a, b, len_a, len_b):
    N, _, Pa = a.shape
    Pb = b.shape[2]
    out = torch.zeros((N, Pa), device=a.device, dtype=a.dtype)
    BQ, BR = 64, 128
    grid = (min(_VECTOR_CORES, triton.cdiv(Pa, BQ)),)
    _nn_dist2_fwd[grid](a, b, len_a, len_b, out, N, Pa, Pb,
                        a.stride(0), a.stride(1), b.stride(0), b.stride(1), BQ=BQ, BR=BR)
    return out


def run(x: torch.Tensor, y: torch.Tensor, x_lengths: torch.Tensor, y_lengths: torch.Tensor) -> tuple:
    cham_x = _nn_dist2(x, y, x_lengths, y_lengths)
    cham_y = _nn_dist2(y, x, y_lengths, x_lengths)
    return cham_x, cham_y
