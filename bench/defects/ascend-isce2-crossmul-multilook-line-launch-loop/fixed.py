"""Interferogram formation with multilooking: s1 * conj(s2) and both powers averaged over look cells."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BO = 256  # output range samples per block


@triton.jit
def _crossmul_looks(s1r, s1i, s2r, s2i, ifg_re, ifg_im, amp1, amp2,
                    n_rg, n_out_az, n_out_rg, inv_looks,
                    LA: tl.constexpr, LR: tl.constexpr, LRP: tl.constexpr, BO: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_tiles = tl.cdiv(n_out_rg, BO)
    o = tl.arange(0, BO)
    k = tl.arange(0, LRP)
    for blk in range(pid, n_out_az * n_tiles, nprog):
        line = blk // n_tiles
        oc = (blk % n_tiles) * BO + o
        omask = oc < n_out_rg
        mask = omask[:, None] & (k[None, :] < LR)
        col = oc[:, None] * LR + k[None, :]
        acc_re = tl.zeros([BO, LRP], dtype=tl.float32)
        acc_im = tl.zeros([BO, LRP], dtype=tl.float32)
        pow1 = tl.zeros([BO, LRP], dtype=tl.float32)
        pow2 = tl.zeros([BO, LRP], dtype=tl.float32)
        for dy in tl.static_range(LA):
            off = (line * LA + dy) * n_rg + col
            ar = tl.load(s1r + off, mask=mask, other=0.0)
            ai = tl.load(s1i + off, mask=mask, other=0.0)
            br = tl.load(s2r + off, mask=mask, other=0.0)
            bi = tl.load(s2i + off, mask=mask, other=0.0)
            acc_re += ar * br + ai * bi
            acc_im += ai * br - ar * bi
            pow1 += ar * ar + ai * ai
            pow2 += br * br + bi * bi
        dst = line * n_out_rg + oc
        tl.store(ifg_re + dst, tl.sum(acc_re, axis=1) * inv_looks, mask=omask)
        tl.store(ifg_im + dst, tl.sum(acc_im, axis=1) * inv_looks, mask=omask)
        tl.store(amp1 + dst, tl.sqrt(tl.sum(pow1, axis=1) * inv_looks), mask=omask)
        tl.store(amp2 + dst, tl.sqrt(tl.sum(pow2, axis=1) * inv_looks), mask=omask)


def run(s1_re, s1_im, s2_re, s2_im, looks_az: int, looks_rg: int) -> tuple:
    n_az, n_rg = s1_re.shape
    n_out_az, n_out_rg = n_az // looks_az, n_rg // looks_rg
    outs = [torch.empty((n_out_az, n_out_rg), device=s1_re.device, dtype=s1_re.dtype) for _ in range(4)]
    n_blocks = n_out_az * triton.cdiv(n_out_rg, BO)
    grid = (min(_VECTOR_CORES, n_blocks),)
    _crossmul_looks[grid](s1_re, s1_im, s2_re, s2_im, *outs,
                          n_rg, n_out_az, n_out_rg, 1.0 / (looks_az * looks_rg),
                          LA=looks_az, LR=looks_rg, LRP=triton.next_power_of_2(looks_rg), BO=BO)
    return tuple(outs)
