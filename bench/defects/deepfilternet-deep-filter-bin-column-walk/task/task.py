"""DeepFilterNet deep filtering (DfOp, forward_real_unfold + assign_df): complex FIR over past frames per bin.

The noisy STFT spec [B, T, F, 2] (view_as_real, F = n_fft/2 + 1) is filtered in its lowest nb_df bins
with the complex coefficients the DF decoder predicts, coefs [B, O, T, nb_df, 2] (DfOutputReshapeMF
layout, O = df_order). As in spec_pad + unfold, frame t sees frames t - (O - 1 - lookahead) + n,
n = 0..O-1 (zero outside [0, T)):

    Y[b, t, f] = sum_n X[b, t - (O - 1 - lookahead) + n, f] * C[b, n, t, f]   (complex product), f < nb_df
    Y[b, t, f] = X[b, t, f]                                                             f >= nb_df

Returns Y [B, T, F, 2] fp32 (the enhanced spectrum handed to the ISTFT).
"""
import torch

META = {
    "name": "deepfilter_df_op",
    "level": 2,
    "category": "speech_enhancement",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "T": 20, "F": 41, "nb_df": 12, "order": 5, "lookahead": 2},
        "ragged": {"B": 1, "T": 37, "F": 57, "nb_df": 19, "order": 5, "lookahead": 2},
        "large": {"B": 32, "T": 1000, "F": 481, "nb_df": 96, "order": 5, "lookahead": 2},
    },
    "baseline_notes": "Grid (time blocks of 16 frames, bin blocks of 64, batch); each program loads its "
                      "[16, 64] tile of real and imaginary parts with bins on the contiguous axis, accumulates "
                      "the df_order complex products over the shifted frames for bins below nb_df and copies the "
                      "rest. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spec [B, T, F, 2] (noisy speech spectrum, 1/f-shaped magnitudes), coefs [B, O, T, nb_df, 2], lookahead."""
    s = META["sizes"][size]
    b, t, f, nb_df, order = s["B"], s["T"], s["F"], s["nb_df"], s["order"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = 1.0 / (1.0 + torch.arange(f, dtype=torch.float32) / 8.0)
    spec = torch.randn(b, t, f, 2, generator=g) * scale[None, None, :, None]
    coefs = 0.3 * torch.randn(b, order, t, nb_df, 2, generator=g)
    return spec.to(device=device, dtype=dt), coefs.to(device=device, dtype=dt), s["lookahead"]


def reference(spec: torch.Tensor, coefs: torch.Tensor, lookahead: int) -> tuple:
    order, nb_df = coefs.shape[1], coefs.shape[3]
    x = torch.view_as_complex(spec.double().contiguous())                    # [B, T, F]
    c = torch.view_as_complex(coefs.double().contiguous())                   # [B, O, T, nb_df]
    low = torch.nn.functional.pad(x[:, :, :nb_df], (0, 0, order - 1 - lookahead, lookahead))
    windows = low.unfold(1, order, 1)                                        # [B, T, nb_df, O]
    y = x.clone()
    y[:, :, :nb_df] = torch.einsum("btfn,bntf->btf", windows, c)
    return torch.view_as_real(y).to(spec.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    spec = s["B"] * s["T"] * s["F"] * 2
    coef = s["B"] * s["order"] * s["T"] * s["nb_df"] * 2
    return {"bytes": 4 * (2 * spec + coef), "flops": 4 * coef}
