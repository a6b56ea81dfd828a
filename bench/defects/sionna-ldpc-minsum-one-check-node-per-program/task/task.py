"""Check-node update of min-sum LDPC belief propagation (NVIDIA Sionna LDPC5GDecoder / LDPCBPDecoder,
cn_update="minsum") on a 5G NR base graph 1 code.

The Tanner graph's edges are numbered in check-node order (CSR: the edges of check node c are
row_ptr[c] .. row_ptr[c+1]-1). For every codeword b and edge e = (c, v) the check-to-variable message is
    c2v[b, e] = prod_{e' in c, e' != e} sign(v2c[b, e']) * min_{e' in c, e' != e} |v2c[b, e']|
with sign(0) = +1 (Sionna replaces tf.sign's 0 by 1). Messages are fp32, codeword-major [B, E].
The graph is BG1 lifted by Z: 46 base rows with the standard's row weights (four core rows of weight 19,
then 3..10; 316 edges per lifted block row set), each base row giving Z check nodes of the same degree.
"""
import torch

META = {
    "name": "ldpc_minsum_check_node_update",
    "level": 2,
    "category": "segment_reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"B": 2, "Z": 4},
        "ragged": {"B": 3, "Z": 3},
        "large": {"B": 128, "Z": 384},
    },
    "baseline_notes": "Grid (cdiv(C, 32), B): each program takes 32 consecutive check nodes of one codeword as a "
                      "[32, 32] tile (row_ptr gives each row's edge span, columns masked past its degree), "
                      "finds per row the smallest and second-smallest magnitude, the first position of the "
                      "smallest and the parity of negative signs with reductions along axis 1, and stores "
                      "every edge's extrinsic min and sign; 4 warps, no autotune.",
    "deterministic": True,
}

# row weights of the 46 rows of 3GPP TS 38.212 base graph 1 (sum 316)
BG1_ROW_WEIGHTS = [19, 19, 19, 19, 3, 8, 9, 7, 10, 9, 7, 8, 7, 6, 7, 7, 6, 6, 6, 6, 6, 6, 5, 5, 6, 5, 5, 4,
                   5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 5, 5, 4, 5, 4, 5, 5, 4]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """v2c [B, E] fp32 variable-to-check messages (channel LLRs of a BPSK codeword at ~1.5 dB plus
    extrinsic noise), row_ptr [C + 1] int32."""
    s = META["sizes"][size]
    B, Z = s["B"], s["Z"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    degrees = torch.tensor(BG1_ROW_WEIGHTS, dtype=torch.int64).repeat_interleave(Z)
    row_ptr = torch.zeros(degrees.numel() + 1, dtype=torch.int64)
    row_ptr[1:] = torch.cumsum(degrees, 0)
    E = int(row_ptr[-1])
    v2c = 2.8 + 2.4 * torch.randn(B, E, generator=g)
    # quantise a few messages so ties and exact zeros occur, as after LLR clipping
    v2c = torch.where(torch.rand(B, E, generator=g) < 0.05, torch.round(v2c), v2c)
    return v2c.to(dt).to(device), row_ptr.to(torch.int32).to(device)


def reference(v2c: torch.Tensor, row_ptr: torch.Tensor) -> torch.Tensor:
    rp = row_ptr.long()
    deg = rp[1:] - rp[:-1]
    dmax = int(deg.max())
    cols = torch.arange(dmax, device=v2c.device)
    ok = cols[None, :] < deg[:, None]
    idx = torch.where(ok, rp[:-1, None] + cols[None, :], torch.zeros_like(cols)[None, :])
    msg = v2c.double()[:, idx]                                      # [B, C, dmax]
    mag = torch.where(ok, msg.abs(), torch.full_like(msg, float("inf")))
    neg = (msg < 0) & ok
    min1, pos1 = mag.min(dim=2)
    others = mag.scatter(2, pos1[..., None], float("inf"))
    min2 = others.min(dim=2).values
    ext_mag = torch.where(cols == pos1[..., None], min2[..., None], min1[..., None])
    parity = neg.sum(dim=2) % 2
    flip = (parity[..., None] + neg.long()) % 2 == 1
    ext = torch.where(flip, -ext_mag, ext_mag)
    out = torch.empty_like(v2c, dtype=torch.float64)
    out[:, idx[ok]] = ext[:, ok]
    return out.to(v2c.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E = sum(BG1_ROW_WEIGHTS) * s["Z"]
    return {"bytes": 8 * s["B"] * E, "flops": 6 * s["B"] * E}
