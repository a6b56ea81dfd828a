"""First-order IIR de-emphasis of raw waveforms (torchaudio.functional.deemphasis, = lfilter with
a = [1, -coeff], b = [1, 0]): y[t] = x[t] + coeff * y[t - 1], y[-1] = 0, along the last axis. fp32."""
import torch

META = {
    "name": "deemphasis_iir",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"R": 3, "T": 200},
        "ragged": {"R": 5, "T": 10007},
        "large": {"R": 16, "T": 480000},
    },
    "baseline_notes": "One program per waveform row; the row is walked in 4,096-sample UB blocks, each block a "
                      "tl.associative_scan over (coeff^k, x) pairs of the linear recurrence, the last output carried "
                      "into the next block.",
    "deterministic": True,
}

CHUNK = 256


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [R, T] waveforms in [-1, 1] (pre-emphasised speech-like noise) and the de-emphasis coefficient."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = (torch.rand(s["R"], s["T"], generator=g) * 2 - 1) * 0.5
    return x.to(device), 0.97


def reference(x: torch.Tensor, coeff: float) -> torch.Tensor:
    """Blocked float64 evaluation: each CHUNK-sample block by a lower-triangular power matrix, blocks chained."""
    R, T = x.shape
    xd = x.double()
    pad = (-T) % CHUNK
    xp = torch.nn.functional.pad(xd, (0, pad)).view(R, -1, CHUNK)
    i = torch.arange(CHUNK, device=x.device, dtype=torch.float64)
    expo = i[:, None] - i[None, :]
    L = torch.where(expo >= 0, torch.tensor(coeff, dtype=torch.float64, device=x.device) ** expo.clamp(min=0), 0.0)
    local = xp @ L.T                                 # [R, nblk, CHUNK]
    decay = torch.tensor(coeff, dtype=torch.float64, device=x.device) ** (i + 1)
    out = torch.empty_like(local)
    carry = torch.zeros(R, dtype=torch.float64, device=x.device)
    for b in range(local.shape[1]):
        out[:, b] = local[:, b] + carry[:, None] * decay[None, :]
        carry = out[:, b, -1]
    return out.reshape(R, -1)[:, :T].float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["R"] * s["T"], "flops": 2 * s["R"] * s["T"]}
