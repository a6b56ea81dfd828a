"""HSTU relative attention bias from bucketized timestamps and positions, written per head.

generative-recommenders' RelativeBucketedTimeAndPositionBasedBias: for user b, query i and key j,
    dt = ts[b, min(i + 1, N - 1)] - ts[b, j]
    bucket = clamp(trunc(log(max(|dt|, 1)) / 0.301), 0, NB)
    bias[b, i, j] = ts_w[bucket] + pos_w[N - 1 + j - i]
The torch_npu port feeds a fused jagged HSTU attention that reads a per-head rab tensor
[B, H, N, N] (bf16), so the shared bias is written once for every head. Timestamps are int32
minutes (the A2 vector unit has no int64 arithmetic); a history spans at most ~14 days.
"""
import torch

META = {
    "name": "hstu_rab_time_pos_bias",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "H": 2, "N": 40, "NB": 128},
        "ragged": {"B": 3, "H": 3, "N": 77, "NB": 128},
        "large": {"B": 16, "H": 8, "N": 1024, "NB": 128},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (user, 16-row, 256-column) tiles of "
                      "the [N, N] bias: load the query/key timestamps, bucketize log|dt| in fp32, gather "
                      "ts_w at the bucket, add the pos_w diagonal, cast to bf16 and store the tile for each "
                      "head; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """timestamps [B, N] int32 minutes (sorted per user), ts_w [NB + 1] fp32, pos_w [2N - 1] fp32, H."""
    s = META["sizes"][size]
    B, N, NB = s["B"], s["N"], s["NB"]
    g = torch.Generator().manual_seed(seed)
    start = torch.randint(27_000_000, 29_000_000, (B, 1), generator=g)
    gaps = torch.randint(0, max(2, 20_000 // N), (B, N), generator=g)
    gaps[:, 0] = 0
    ts = (start + gaps.cumsum(1)).to(torch.int32)
    ts_w = torch.randn(NB + 1, generator=g) * 0.5
    pos_w = torch.randn(2 * N - 1, generator=g) * 0.5
    return ts.to(device), ts_w.to(device), pos_w.to(device), s["H"]


def reference(ts: torch.Tensor, ts_w: torch.Tensor, pos_w: torch.Tensor, num_heads: int) -> torch.Tensor:
    B, N = ts.shape
    NB = ts_w.numel() - 1
    ext = torch.cat([ts, ts[:, N - 1:N]], dim=1).long()
    dt = ext[:, 1:].unsqueeze(2) - ext[:, :-1].unsqueeze(1)
    bucket = (torch.log(dt.abs().clamp(min=1).float()) / 0.301).long().clamp(min=0, max=NB)
    ar = torch.arange(N, device=ts.device)
    pos = pos_w[:2 * N - 1][N - 1 + ar[None, :] - ar[:, None]]
    bias = ts_w[bucket] + pos[None]
    return bias.unsqueeze(1).expand(B, num_heads, N, N).to(torch.bfloat16).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, H, N = s["B"], s["H"], s["N"]
    return {"bytes": 2 * B * H * N * N + 4 * B * N + 4 * (s["NB"] + 1) + 4 * (2 * N - 1),
            "flops": 8 * B * N * N}
