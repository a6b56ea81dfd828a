"""GraphAligner bit-parallel node sweep: Myers/Hyyro edit-distance columns over graph node characters.

GraphAligner (Rautiainen & Marschall 2020) aligns a read to a sequence graph with Myers' bit-vector
algorithm: the read is cut into word slices (rows) and every character of a graph node is one DP
column. A slice's column is kept as two bit-vectors of vertical deltas, VP (D[i][j] - D[i-1][j] = +1)
and VN (= -1), plus the score of its bottom row. This task is one batch of independent node-slice
tasks (a 32-base read slice against a <= 32 bp chopped node), the inner loop of GraphAligner's
per-node calculation on 32-bit words. For task t and node column j with base c:

    Eq  = Peq[c] (bit i set iff read base i == c; graph N = 4 matches nothing)
    Xv  = Eq | VN;  if hin < 0: Eq |= 1
    Xh  = (((Eq & VP) + VP) ^ VP) | Eq          (32-bit wrap-around add)
    Ph  = VN | ~(Xh | VP);  Mh = VP & Xh
    hout = bit31(Ph) - bit31(Mh)
    Ph = (Ph << 1) | (hin > 0);  Mh = (Mh << 1) | (hin < 0)
    VP = Mh | ~(Xv | Ph);  VN = Ph & Xv;  score += hout

hin is the horizontal delta the slice above produced for that column, hout the one this slice
hands to the slice below. Node characters are stored column-major (node_t[j, t]) and padded with
-1 past the node's end; padded columns leave the state unchanged and write hout = 0.
Returns (VP, VN, bottom score at the node end, minimum bottom score over the node's columns,
hout_t [32, N] int8).
"""
import torch

W = 32  # bits per word slice = read bases per task = maximal node length
M32 = (1 << 32) - 1

META = {
    "name": "graph_myers_node_sweep",
    "level": 2,
    "category": "sequence-alignment",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 50},
        "ragged": {"N": 77},
        "large": {"N": 1048576},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 256 tasks; per block the "
                      "[256, 32] read-slice tile is turned into four Peq words (A, C, G, T) once, then a "
                      "loop over the 32 node columns loads one base and one hin per task (column-major, "
                      "contiguous), selects Eq from the Peq words and runs the Myers column update on int32 "
                      "lanes; hout stored per column, VP/VN/score/min stored per block. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """read_slice int8 [N, 32] (ACGT = 0-3), node_t int8 [32, N] (0-3, N = 4, pad -1), hin_t int8 [32, N]
    (-1/0/+1), vp int32 [N], vn int32 [N] (disjoint bit patterns), score int32 [N]."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    read_slice = torch.randint(0, 4, (n, W), generator=g, dtype=torch.int8)
    # node bases: mostly similar to the read slice (a true path) or random (a side branch), 0.5% N
    node = torch.randint(0, 4, (n, W), generator=g, dtype=torch.int8)
    on_path = torch.rand(n, 1, generator=g) < 0.5
    keep = (torch.rand(n, W, generator=g) < 0.9) & on_path
    node = torch.where(keep, read_slice, node)
    node[torch.rand(n, W, generator=g) < 0.005] = 4
    length = torch.randint(1, W + 1, (n,), generator=g)
    length[torch.rand(n, generator=g) < 0.5] = W
    node[torch.arange(W)[None, :] >= length[:, None]] = -1
    node_t = node.t().contiguous()
    hin_t = torch.randint(-1, 2, (W, n), generator=g, dtype=torch.int8)
    hin_t[torch.rand(W, n, generator=g) < 0.5] = 1
    bits = torch.randint(0, 3, (n, W), generator=g)  # 0: +1, 1: 0, 2: -1 vertical delta
    weights = torch.tensor([1 << i for i in range(W)], dtype=torch.int64)
    vp = _to_i32(((bits == 0).long() * weights).sum(1))
    vn = _to_i32(((bits == 2).long() * weights).sum(1))
    score = torch.randint(0, 40, (n,), generator=g, dtype=torch.int32)
    return tuple(x.to(device) for x in (read_slice, node_t, hin_t, vp, vn, score))


def _to_i32(x: torch.Tensor) -> torch.Tensor:
    x = x & M32
    return torch.where(x >= (1 << 31), x - (1 << 32), x).to(torch.int32)


def reference(read_slice, node_t, hin_t, vp, vn, score) -> tuple:
    rs = read_slice.long()
    weights = torch.tensor([1 << i for i in range(W)], dtype=torch.int64, device=rs.device)
    peq = torch.stack([((rs == b).long() * weights).sum(1) for b in range(4)] +
                      [torch.zeros_like(rs[:, 0])], dim=0)  # [5, N]
    p, m, s = vp.long() & M32, vn.long() & M32, score.long()
    best = s.clone()
    hout_t = torch.zeros_like(node_t)
    idx = torch.arange(rs.shape[0], device=rs.device)
    for j in range(W):
        c = node_t[j].long()
        hin = hin_t[j].long()
        active = c >= 0
        eq = peq[c.clamp(min=0), idx]
        xv = eq | m
        eq = eq | (hin < 0).long()
        xh = ((((eq & p) + p) & M32) ^ p) | eq
        ph = (m | (~(xh | p) & M32)) & M32
        mh = p & xh
        hout = ((ph >> 31) & 1) - ((mh >> 31) & 1)
        ph = ((ph << 1) & M32) | (hin > 0).long()
        mh = ((mh << 1) & M32) | (hin < 0).long()
        np_ = (mh | (~(xv | ph) & M32)) & M32
        nm = ph & xv
        p = torch.where(active, np_, p)
        m = torch.where(active, nm, m)
        s = torch.where(active, s + hout, s)
        best = torch.minimum(best, s)
        hout_t[j] = torch.where(active, hout, torch.zeros_like(hout)).to(torch.int8)
    return _to_i32(p), _to_i32(m), s.to(torch.int32), best.to(torch.int32), hout_t


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (W + 3 * W + 4 * 3 + 4 * 4), "flops": n * W * 30}
