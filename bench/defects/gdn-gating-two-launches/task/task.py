"""vLLM fused_gdn_gating (Qwen3-Next Gated DeltaNet): g = -exp(A_log) * softplus(a + dt_bias) in fp32, beta = sigmoid(b)."""
import torch

META = {
    "name": "gdn_gating",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 33, "H": 8},
        "ragged": {"T": 10007, "H": 48},
        "large": {"T": 262144, "H": 32},
    },
    "baseline_notes": "One kernel over [T, H] in 64-token blocks writes g (fp32) and beta (bf16); softplus with "
                      "beta = 1, threshold = 20.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A_log [H] fp32, a [T, H] and b [T, H] in the activation dtype, dt_bias [H] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, H = s["T"], s["H"]
    a_log = torch.log(torch.empty(H).uniform_(1.0, 16.0, generator=g))
    a = (4.0 * torch.randn(T, H, generator=g)).to(dt)
    b = torch.randn(T, H, generator=g).to(dt)
    dt_bias = torch.randn(H, generator=g)
    return a_log.to(device), a.to(device), b.to(device), dt_bias.to(device)


def reference(a_log, a, b, dt_bias) -> tuple:
    x = a.double() + dt_bias.double()
    sp = torch.where(x <= 20.0, torch.log1p(torch.exp(x)), x)
    g = (-torch.exp(a_log.double()) * sp).float()
    beta = torch.sigmoid(b.double()).to(b.dtype)
    return g, beta


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"]
    return {"bytes": n * (2 + 2 + 4 + 2), "flops": 10 * n}
