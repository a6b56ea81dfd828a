"""Per-request temperature scaling of sampler logits (vLLM Sampler.apply_temperature: logits.div_(temp[:, None])), greedy rows (temp 0) left as is."""
import torch

META = {
    "name": "apply_temperature",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"B": 6, "V": 5000},
        "ragged": {"B": 37, "V": 50257},
        "large": {"B": 1024, "V": 151936},
    },
    "baseline_notes": "Out of place, grid (request, 8192-column block): the request's temperature loaded once, "
                      "logits / t (or logits where t == 0) stored to a torch.empty output; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] (normals * 3), temperatures [B] in {0 (greedy), 0.6, 0.7, 1.0}."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = (3.0 * torch.randn(s["B"], s["V"], generator=g)).to(dt)
    choices = torch.tensor([0.0, 0.6, 0.7, 1.0])
    temp = choices[torch.randint(0, 4, (s["B"],), generator=g)].to(dt)
    return logits.to(device), temp.to(device)


def reference(logits: torch.Tensor, temp: torch.Tensor) -> torch.Tensor:
    t = torch.where(temp == 0, torch.ones_like(temp), temp)
    return logits / t[:, None]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": n}
