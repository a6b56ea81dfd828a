"""FK beam power (ObsPy array_processing, bf): delay-and-sum beams of every window over the slowness grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BS = 64


@triton.jit
def _fk_beam_power(xr, xi, er, ei, relpow, W, S, K, NF, n_items,
                   BS: tl.constexpr, KP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    s_offs = tl.arange(0, BS)
    k_offs = tl.arange(0, KP)
    kmask = k_offs < K
    for item in range(pid, n_items, nprog):
        sb = item // W
        w = item % W
        s = sb * BS + s_offs
        smask = s < S
        emask = smask[:, None] & kmask[None, :]
        abspow = tl.zeros([BS], dtype=tl.float32)
        dk = tl.zeros([KP], dtype=tl.float32)
        for n in range(0, NF):
            x_off = (n * W + w) * K + k_offs
            ur = tl.load(xr + x_off, mask=kmask, other=0.0)
            ui = tl.load(xi + x_off, mask=kmask, other=0.0)
            e_off = (n * S + s)[:, None] * K + k_offs[None, :]
            cr = tl.load(er + e_off, mask=emask, other=0.0)
            ci = tl.load(ei + e_off, mask=emask, other=0.0)
            # beam of this window at every grid point: steering rows . station spectra
            br = tl.sum(cr * ur[None, :] - ci * ui[None, :], axis=1)
            bi = tl.sum(cr * ui[None, :] + ci * ur[None, :], axis=1)
            abspow += br * br + bi * bi
            dk += ur * ur + ui * ui
        dpow = K * tl.sum(dk, axis=0)
        tl.store(relpow + w * S + s, abspow / dpow, mask=smask)


def run(x_re, x_im, e_re, e_im) -> torch.Tensor:
    NF, W, K = x_re.shape
    S = e_re.shape[1]
    relpow = torch.empty((W, S), device=x_re.device, dtype=torch.float32)
    n_items = triton.cdiv(S, _BS) * W
    grid = (min(_VECTOR_CORES, n_items),)
    _fk_beam_power[grid](x_re, x_im, e_re, e_im, relpow, W, S, K, NF, n_items,
                         BS=_BS, KP=max(16, triton.next_power_of_2(K)))
    return relpow
