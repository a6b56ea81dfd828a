"""PixArt-alpha adaLN-single modulation of the attention input (PixArtMSBlock: t2i_modulate(norm1(x), shift_msa, scale_msa)).

Each block adds its learned scale_shift_table [6, D] to the shared timestep embedding t [B, 6*D]
(adaLN-single) and chunks the sum into shift/scale/gate for attention and MLP; the attention input is
LayerNorm(x) (no affine, eps 1e-6) * (1 + scale_msa) + shift_msa, with shift_msa = table[0] + t[:, 0:D]
and scale_msa = table[1] + t[:, D:2D], broadcast over the N tokens of each sample.
"""
import torch

META = {
    "name": "pixart_t2i_modulate_ln",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 6e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "N": 24, "D": 96},
        "ragged": {"B": 2, "N": 37, "D": 200},
        "large": {"B": 2, "N": 4096, "D": 1152},
    },
    "baseline_notes": "Grid (B, 40 // B): each program owns a contiguous run of one sample's tokens; it forms "
                      "shift and 1 + scale (table + t) once as BLOCK_D = next_power_of_2(D) vectors, then "
                      "loops over its tokens one row at a time: load, one-pass mean and E[x^2] in fp32, "
                      "normalise, modulate, store in the input dtype.",
    "deterministic": True,
}
EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, N, D] hidden states, scale_shift_table [6, D], t [B, 6*D] (the t_block output)."""
    s = META["sizes"][size]
    B, N, D = s["B"], s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, N, D, generator=g) * 1.5 + 0.2 * torch.randn(B, N, 1, generator=g)
    table = torch.randn(6, D, generator=g) / D ** 0.5
    t = torch.randn(B, 6 * D, generator=g) * 0.3
    return x.to(device=device, dtype=dt), table.to(device=device, dtype=dt), t.to(device=device, dtype=dt)


def reference(x, scale_shift_table, t):
    B, N, D = x.shape
    mod = scale_shift_table.float()[None] + t.float().view(B, 6, D)
    shift, scale = mod[:, 0:1, :], mod[:, 1:2, :]
    xn = torch.nn.functional.layer_norm(x.float(), (D,), eps=EPS)
    return (xn * (1 + scale) + shift).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["B"] * s["N"] * s["D"] + 2 * s["D"] + 2 * s["B"] * s["D"]) * item,
            "flops": 8 * s["B"] * s["N"] * s["D"]}
