"""Mean-b0 normalisation of diffusion-weighted signals (DIPY dipy.reconst.shm.normalize_data).

Before a q-ball / CSA or SH fit every voxel's signal is divided by its mean b0 signal:
    x = max(data[n, g], min_signal)                      (data.clip(min_signal))
    b0[n] = mean_{j in where_b0} x[n, j]
    out[n, g] = x[n, g] / b0[n]                           for all G volumes (b0 volumes too)
data [N, G] fp32 holds the brain-masked voxels, one row per voxel with the G volumes contiguous (DIPY's
[..., G] layout). where_b0 int32 [n_b0] lists the b0 volumes (np.where(gtab.b0s_mask)[0]); HCP-style
acquisitions interleave them, one b0 every 16 volumes. min_signal is DIPY's default 1e-5.
"""
import torch

META = {
    "name": "normalize_data",
    "level": 1,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 21, "G": 36, "b0_every": 9},
        "ragged": {"N": 37, "G": 71, "b0_every": 10},
        "large": {"N": 750000, "G": 288, "b0_every": 16},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 voxels x the whole padded "
                      "row (BG = next_power_of_2(G)); the b0 columns are turned once per program into a "
                      "[BG] 0/1 weight vector by comparing the column index with the b0 list, so the mean b0 "
                      "is a weighted row sum of the tile already loaded; clip, divide, one store per block.",
    "deterministic": True,
}
MIN_SIGNAL = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [N, G] (b0 ~ 600-1500, DWIs attenuated by exp(-b ADC) at b = 1000/2000/3000, noise, a few
    empty voxels), where_b0 int32 [n_b0], min_signal (float)."""
    s = META["sizes"][size]
    n, n_vol, every = s["N"], s["G"], s["b0_every"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol = torch.arange(n_vol)
    is_b0 = vol % every == 0
    bval = torch.where(is_b0, 0.0, 1000.0 * (1 + vol % 3).to(torch.float32))
    s0 = 600.0 + 900.0 * torch.rand(n, 1, generator=g)
    adc = 0.4e-3 + 2.6e-3 * torch.rand(n, 1, generator=g)
    data = s0 * torch.exp(-bval[None, :] * adc) + 12.0 * torch.randn(n, n_vol, generator=g)
    data = torch.where(torch.rand(n, 1, generator=g) < 0.02, torch.zeros_like(data), data)
    where_b0 = torch.nonzero(is_b0).flatten().to(torch.int32)
    return data.to(dt).to(device), where_b0.to(device), MIN_SIGNAL


def reference(data: torch.Tensor, where_b0: torch.Tensor, min_signal: float) -> torch.Tensor:
    x = data.double().clamp(min=min_signal)
    b0 = x[:, where_b0.long()].mean(dim=-1)
    return (x / b0[:, None]).to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] * s["G"], "flops": 3 * s["N"] * s["G"]}
