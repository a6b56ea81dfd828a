"""FLAC encoder: LPC residual of every subframe from its quantized predictor (libFLAC lpc.c).

FLAC__lpc_compute_residual_from_qlp_coefficients: for a subframe of N samples x with predictor
order k (1..12 at flac -8), quantized coefficients q[0..k) (12-bit precision for 16-bit input at
blocksize 4096) and quantization shift s,
    residual[i] = x[i] - ((sum_{j<k} q[j] * x[i - 1 - j]) >> s),   i in [k, N)
with the 32-bit accumulator libFLAC uses when bps + precision + log2(order) <= 32 (exact here).
The first k samples are the warm-up, stored verbatim: their residual slots are written as 0.
The samples of all subframes lie in one int32 buffer behind a 32-sample guard (FLAC__MAX_LPC_ORDER),
subframe b at [GUARD + b * N, GUARD + (b + 1) * N). Returns the residual int32 [NB, N].
"""
import torch

META = {
    "name": "flac_lpc_residual",
    "level": 2,
    "category": "audio",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"NB": 4, "N": 256},
        "ragged": {"NB": 5, "N": 576},
        "large": {"NB": 12920, "N": 4096},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over subframes; each subframe is one tile of "
                      "up to 4096 int32 samples: the predictor is order-many shifted contiguous loads of the "
                      "same subframe times a scalar coefficient, accumulated in int32, shifted and subtracted; "
                      "the warm-up lanes are zeroed with a compare done in fp32; one store per tile; no autotune.",
    "deterministic": True,
}
GUARD = 32
MAX_ORDER = 12
PRECISION = 12


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pcm int32 [GUARD + NB*N], qlp int32 [NB, 12], order int32 [NB], shift int32 [NB]."""
    s = META["sizes"][size]
    nb, n = s["NB"], s["N"]
    g = torch.Generator().manual_seed(seed)
    # 16-bit audio: three partials plus noise, per subframe
    t = torch.arange(n, dtype=torch.float32)
    f0 = torch.empty(nb, 3).uniform_(0.002, 0.12, generator=g)
    amp = torch.empty(nb, 3).uniform_(500.0, 8000.0, generator=g)
    ph = torch.empty(nb, 3).uniform_(0.0, 6.283, generator=g)
    x = (amp[:, :, None] * torch.sin(6.2831853 * f0[:, :, None] * t + ph[:, :, None])).sum(1)
    x = x + 200.0 * torch.randn(nb, n, generator=g)
    x = torch.round(x).clamp_(-32768, 32767).to(torch.int32)
    pcm = torch.cat([torch.zeros(GUARD, dtype=torch.int32), x.reshape(-1)])
    order = torch.randint(1, MAX_ORDER + 1, (nb,), generator=g)
    qlp, shift = _quantized_lpc(x, order)
    return pcm.to(device), qlp.to(device), order.to(torch.int32).to(device), shift.to(device)


def _quantized_lpc(x: torch.Tensor, order: torch.Tensor) -> tuple:
    """Per-subframe LPC fit of the given order (autocorrelation method) quantized as libFLAC does:
    precision 12, shift = precision - 1 - exponent(max |a|) clamped to [0, 15], q = round(a * 2^shift)."""
    nb, n = x.shape
    xd = x.double()
    r = torch.stack([(xd[:, : n - lag] * xd[:, lag:]).sum(1) for lag in range(MAX_ORDER + 1)], 1)
    r[:, 0] *= 1.0 + 1e-6
    qlp = torch.zeros(nb, MAX_ORDER, dtype=torch.int64)
    shift = torch.zeros(nb, dtype=torch.int64)
    lim = (1 << (PRECISION - 1)) - 1
    for k in range(1, MAX_ORDER + 1):
        sel = order == k
        if not bool(sel.any()):
            continue
        rs = r[sel]
        toe = (torch.arange(k)[:, None] - torch.arange(k)[None, :]).abs()
        a = torch.linalg.solve(rs[:, toe], rs[:, 1:k + 1])
        _, e = torch.frexp(a.abs().amax(1).clamp_min(1e-30))
        sh = (PRECISION - 1 - e.long()).clamp(0, 15)
        qlp[sel, :k] = torch.round(a * torch.exp2(sh.double())[:, None]).long().clamp(-lim, lim)
        shift[sel] = sh
    return qlp.to(torch.int32), shift.to(torch.int32)


def reference(pcm: torch.Tensor, qlp: torch.Tensor, order: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    nb, maxo = qlp.shape
    n = (pcm.numel() - GUARD) // nb
    p = pcm.long()
    start = GUARD + torch.arange(nb, device=pcm.device) * n
    idx = start[:, None] + torch.arange(n, device=pcm.device)[None, :]
    x = p[idx]
    acc = torch.zeros_like(x)
    for j in range(maxo):
        acc += qlp[:, j:j + 1].long() * p[idx - 1 - j]
    res = x - (acc >> shift.long()[:, None])
    warm = torch.arange(n, device=pcm.device)[None, :] < order.long()[:, None]
    return res.masked_fill(warm, 0).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, n = s["NB"], s["N"]
    return {"bytes": 8 * nb * n + 56 * nb, "flops": 2 * MAX_ORDER * nb * n}
