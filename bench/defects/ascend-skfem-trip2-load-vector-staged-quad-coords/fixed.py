"""P2 triangle element load vectors (scikit-fem layout: doflocs [2, 3, E] -> b [6, E]), f = 2(x(1-x) + y(1-y))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 512
NQ = 6

# 6-point degree-4 Dunavant rule, skfem's intorder 4 for P2: barycentrics (a, b, b) and permutations
_A1 = tl.constexpr(0.108103018168070)
_B1 = tl.constexpr(0.445948490915965)
_W1 = tl.constexpr(0.5 * 0.223381589678011)   # weights times the reference area 1/2
_A2 = tl.constexpr(0.816847572980459)
_B2 = tl.constexpr(0.091576213509771)
_W2 = tl.constexpr(0.5 * 0.109951743655322)


@triton.jit
def _source(x, y):
    return 2.0 * (x * (1.0 - x) + y * (1.0 - y))


@triton.jit
def _p2_load_vector(P, B, E, NQ: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(E, BLOCK), nprog):
        e = blk * BLOCK + tl.arange(0, BLOCK)
        m = e < E
        # doflocs[d, v, e] lives at (d * 3 + v) * E + e
        x0 = tl.load(P + 0 * E + e, mask=m, other=0.0)
        x1 = tl.load(P + 1 * E + e, mask=m, other=0.0)
        x2 = tl.load(P + 2 * E + e, mask=m, other=0.0)
        y0 = tl.load(P + 3 * E + e, mask=m, other=0.0)
        y1 = tl.load(P + 4 * E + e, mask=m, other=0.0)
        y2 = tl.load(P + 5 * E + e, mask=m, other=0.0)
        adet = tl.abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0))
        b0 = tl.zeros([BLOCK], dtype=tl.float32)
        b1 = tl.zeros([BLOCK], dtype=tl.float32)
        b2 = tl.zeros([BLOCK], dtype=tl.float32)
        b3 = tl.zeros([BLOCK], dtype=tl.float32)
        b4 = tl.zeros([BLOCK], dtype=tl.float32)
        b5 = tl.zeros([BLOCK], dtype=tl.float32)
        for q in tl.static_range(NQ):
            if q < 3:
                la = _A1
                lb = _B1
                w = _W1
            else:
                la = _A2
                lb = _B2
                w = _W2
            if q % 3 == 0:
                l0 = la
                l1 = lb
                l2 = lb
            elif q % 3 == 1:
                l0 = lb
                l1 = la
                l2 = lb
            else:
                l0 = lb
                l1 = lb
                l2 = la
            # global quadrature point and dx = w_q |det J| of this element
            xq = l0 * x0 + l1 * x1 + l2 * x2
            yq = l0 * y0 + l1 * y1 + l2 * y2
            dxq = w * adet
            fdx = _source(xq, yq) * dxq
            b0 += fdx * (l0 * (2.0 * l0 - 1.0))
            b1 += fdx * (l1 * (2.0 * l1 - 1.0))
            b2 += fdx * (l2 * (2.0 * l2 - 1.0))
            b3 += fdx * (4.0 * l0 * l1)
            b4 += fdx * (4.0 * l1 * l2)
            b5 += fdx * (4.0 * l0 * l2)
        tl.store(B + 0 * E + e, b0, mask=m)
        tl.store(B + 1 * E + e, b1, mask=m)
        tl.store(B + 2 * E + e, b2, mask=m)
        tl.store(B + 3 * E + e, b3, mask=m)
        tl.store(B + 4 * E + e, b4, mask=m)
        tl.store(B + 5 * E + e, b5, mask=m)


def run(doflocs: torch.Tensor) -> torch.Tensor:
    E = doflocs.shape[2]
    b = torch.empty((6, E), device=doflocs.device, dtype=doflocs.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(E, BLOCK)),)
    _p2_load_vector[grid](doflocs, b, E, NQ=NQ, BLOCK=BLOCK)
    return b
