"""Pangu-Weather 3-D window attention: add the Earth-specific position bias, then softmax over keys.

scores [nLon * nTypes, heads, N, N] (windows ordered longitude-window major, window type =
(pressure-level window, latitude window) minor; batch folded into the longitude windows),
table [(2*Wl-1) * Wh^2 * Wz^2, nTypes, heads] (earth_position_bias_table), pos_index [N*N] int32.
probs = softmax(scores + table[pos_index][:, type, head].view(N, N), dim=-1).
"""
import torch

META = {
    "name": "pangu_earth_bias_softmax",
    "level": 2,
    "category": "attention",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"Wz": 1, "Wh": 2, "Wl": 3, "types": 2, "lon": 2, "heads": 2},
        "ragged": {"Wz": 2, "Wh": 3, "Wl": 4, "types": 3, "lon": 3, "heads": 3},
        "large": {"Wz": 2, "Wh": 6, "Wl": 12, "types": 124, "lon": 30, "heads": 6},
    },
    "baseline_notes": "Two launches: the bias table is expanded once per call to [types, heads, N, N] through "
                      "pos_index (persistent grid over (type, head, 1024-chunk) tiles); then a persistent grid "
                      "of 40 programs over (window, head, 16-row) tiles adds the contiguous bias rows and takes "
                      "the row softmax over next_pow2(N) columns.",
    "deterministic": True,
}


def position_index(Wz: int, Wh: int, Wl: int) -> torch.Tensor:
    """Pangu-Weather's Earth-specific bias index (pseudocode of Bi et al. 2023, EarthSpecificBlock)."""
    zi, hi, w = torch.arange(Wz), torch.arange(Wh), torch.arange(Wl)
    zj, hj = -torch.arange(Wz) * Wz, -torch.arange(Wh) * Wh
    c1 = torch.stack(torch.meshgrid(zi, hi, w, indexing="ij")).flatten(1)
    c2 = torch.stack(torch.meshgrid(zj, hj, w, indexing="ij")).flatten(1)
    c = (c1[:, :, None] - c2[:, None, :]).permute(1, 2, 0).contiguous()
    c[:, :, 2] += Wl - 1
    c[:, :, 1] *= 2 * Wl - 1
    c[:, :, 0] *= (2 * Wl - 1) * Wh * Wh
    return c.sum(-1).flatten().to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    Wz, Wh, Wl = s["Wz"], s["Wh"], s["Wl"]
    N = Wz * Wh * Wl
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scores = torch.randn(s["lon"] * s["types"], s["heads"], N, N, generator=g) * 2.0
    table = torch.randn((2 * Wl - 1) * Wh * Wh * Wz * Wz, s["types"], s["heads"], generator=g)
    return scores.to(device=device, dtype=dt), table.to(device=device, dtype=dt), position_index(Wz, Wh, Wl).to(device)


def reference(scores: torch.Tensor, table: torch.Tensor, pos_index: torch.Tensor) -> torch.Tensor:
    nw, heads, N, _ = scores.shape
    types = table.shape[1]
    bias = table.double()[pos_index.long()].view(N, N, types, heads).permute(2, 3, 0, 1)
    x = scores.double().view(-1, types, heads, N, N) + bias[None]
    return torch.softmax(x, dim=-1).view(nw, heads, N, N).to(scores.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N = s["Wz"] * s["Wh"] * s["Wl"]
    n = s["lon"] * s["types"] * s["heads"] * N * N
    return {"bytes": 8 * n + 4 * N * N + 4 * s["types"] * s["heads"] * (2 * s["Wl"] - 1) * (s["Wh"] * s["Wz"]) ** 2,
            "flops": 5 * n}
