"""FK beam power (ObsPy array_processing, bf): delay-and-sum beams of every window over the slowness grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BS = 64
_BW = 64


@triton.jit
def _fk_beam_power(xr, xi, er, ei, relpow, W, S, K, NF, n_wb, n_items,
                   BS: tl.constexpr, BW: tl.constexpr, KP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    s_offs = tl.arange(0, BS)
    w_offs = tl.arange(0, BW)
    k_offs = tl.arange(0, KP)
    kmask = k_offs < K
    for item in range(pid, n_items, nprog):
        sb = item // n_wb
        wb = item % n_wb
        s = sb * BS + s_offs
        smask = s < S
        emask = smask[:, None] & kmask[None, :]
        w = wb * BW + w_offs
        wmask = w < W
        xmask = wmask[:, None] & kmask[None, :]
        abspow = tl.zeros([BW, BS], dtype=tl.float32)
        dk = tl.zeros([BW, KP], dtype=tl.float32)
        for n in range(0, NF):
            x_off = (n * W + w)[:, None] * K + k_offs[None, :]
            ur = tl.load(xr + x_off, mask=xmask, other=0.0)
            ui = tl.load(xi + x_off, mask=xmask, other=0.0)
            e_off = (n * S + s)[:, None] * K + k_offs[None, :]
            cr = tl.load(er + e_off, mask=emask, other=0.0)
            ci = tl.load(ei + e_off, mask=emask, other=0.0)
            # beams of BW windows at BS grid points: [BW, K] x [K, BS] products on the cube
            crt = tl.trans(cr)
            cit = tl.trans(ci)
            br = tl.dot(ur, crt) - tl.dot(ui, cit)
            bi = tl.dot(ui, crt) + tl.dot(ur, cit)
            abspow += br * br + bi * bi
            dk += ur * ur + ui * ui
        dpow = K * tl.sum(dk, axis=1)
        tl.store(relpow + w[:, None] * S + s[None, :], abspow / dpow[:, None],
                 mask=wmask[:, None] & smask[None, :])


def run(x_re, x_im, e_re, e_im) -> torch.Tensor:
    NF, W, K = x_re.shape
    S = e_re.shape[1]
    relpow = torch.empty((W, S), device=x_re.device, dtype=torch.float32)
    n_wb = triton.cdiv(W, _BW)
    n_items = triton.cdiv(S, _BS) * n_wb
    grid = (min(_VECTOR_CORES, n_items),)
    _fk_beam_power[grid](x_re, x_im, e_re, e_im, relpow, W, S, K, NF, n_wb, n_items,
                         BS=_BS, BW=_BW, KP=max(16, triton.next_power_of_2(K)))
    return relpow
