"""Per-tensor dynamic int8 activation scale (the reduction pass of a dynamic per-tensor quant):
scale = max(|x|) / 127 over the whole [T, D] activation, returned as a float32 [1] tensor."""
import torch

META = {
    "name": "per_tensor_int8_absmax_scale",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 1e-6}},
    "sizes": {
        "small": {"T": 37, "D": 256},
        "ragged": {"T": 61, "D": 333},
        "large": {"T": 16384, "D": 3584},
    },
    "baseline_notes": "Programs = vector cores; each strides over 8,192-element tiles keeping a running elementwise "
                      "max(|x|) vector in UB, reduces it once at the end and issues one float atomic_max of "
                      "max / 127 into the zero-initialised scale.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, D] hidden states with a few outlier channels (as in LLM activations)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["T"], s["D"], generator=g)
    cols = torch.randperm(s["D"], generator=g)[:4]
    x[:, cols] *= 20.0
    x[torch.randint(0, s["T"], (1,), generator=g), cols[0]] = -250.0  # the largest magnitude is negative
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return (x.float().abs().amax() / 127.0).reshape(1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["D"]
    return {"bytes": 2 * n + 4, "flops": 2 * n}
