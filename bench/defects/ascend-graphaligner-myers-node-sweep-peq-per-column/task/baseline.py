"""GraphAligner-style bit-parallel (Myers) sweep of 32-base read slices over graph node columns."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 256


@triton.jit
def _myers_node_sweep(read_slice, node_t, hin_t, vp_in, vn_in, score_in,
                      vp_out, vn_out, score_out, min_out, hout_t, N,
                      W: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    bitpos = tl.arange(0, W)
    bits = 1 << bitpos
    lanes = tl.arange(0, BLOCK)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        t = blk * BLOCK + lanes
        tmask = t < N
        rs = tl.load(read_slice + t[:, None] * W + bitpos[None, :], mask=tmask[:, None], other=4).to(tl.int32)
        peq_a = tl.sum(tl.where(rs == 0, bits[None, :], 0), axis=1)
        peq_c = tl.sum(tl.where(rs == 1, bits[None, :], 0), axis=1)
        peq_g = tl.sum(tl.where(rs == 2, bits[None, :], 0), axis=1)
        peq_t = tl.sum(tl.where(rs == 3, bits[None, :], 0), axis=1)
        vp = tl.load(vp_in + t, mask=tmask, other=0)
        vn = tl.load(vn_in + t, mask=tmask, other=0)
        score = tl.load(score_in + t, mask=tmask, other=0)
        best = score
        for j in range(W):
            c = tl.load(node_t + j * N + t, mask=tmask, other=-1).to(tl.int32)
            hin = tl.load(hin_t + j * N + t, mask=tmask, other=0).to(tl.int32)
            eq = tl.where(c == 0, peq_a, tl.where(c == 1, peq_c, tl.where(c == 2, peq_g,
                                                                           tl.where(c == 3, peq_t, 0))))
            hneg = (hin == -1).to(tl.int32)
            xv = eq | vn
            eq = eq | hneg
            xh = (((eq & vp) + vp) ^ vp) | eq
            ph = vn | ~(xh | vp)
            mh = vp & xh
            hout = ((ph >> 31) & 1) - ((mh >> 31) & 1)
            ph = (ph << 1) | (hin == 1).to(tl.int32)
            mh = (mh << 1) | hneg
            active = c != -1
            vp = tl.where(active, mh | ~(xv | ph), vp)
            vn = tl.where(active, ph & xv, vn)
            hout = tl.where(active, hout, 0)
            score = score + hout
            best = tl.minimum(best, score)
            tl.store(hout_t + j * N + t, hout.to(tl.int8), mask=tmask)
        tl.store(vp_out + t, vp, mask=tmask)
        tl.store(vn_out + t, vn, mask=tmask)
        tl.store(score_out + t, score, mask=tmask)
        tl.store(min_out + t, best, mask=tmask)


def run(read_slice, node_t, hin_t, vp, vn, score):
    n, w = read_slice.shape
    vp_out = torch.empty_like(vp)
    vn_out = torch.empty_like(vn)
    score_out = torch.empty_like(score)
    min_out = torch.empty_like(score)
    hout_t = torch.empty_like(hin_t)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, _BLOCK)),)
    _myers_node_sweep[grid](read_slice, node_t, hin_t, vp, vn, score,
                            vp_out, vn_out, score_out, min_out, hout_t, n, W=w, BLOCK=_BLOCK)
    return vp_out, vn_out, score_out, min_out, hout_t
