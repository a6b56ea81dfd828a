"""KL divergence loss, batchmean: sum(target * (log target - input)) / M with input log-probs [M, V] (Liger-Kernel kl_div, distillation)."""
import torch

META = {
    "name": "kl_div_batchmean",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 16, "V": 1000},
        "ragged": {"M": 333, "V": 32001},
        "large": {"M": 4096, "V": 32000},
    },
    "baseline_notes": "One program per row streaming V in 4096-wide chunks into an fp32 partial, stored per "
                      "row; a one-program second kernel sums the rows and divides by M; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """input = log_softmax of student logits, target = softmax of teacher logits, both [M, V] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    student = torch.randn(s["M"], s["V"], generator=g)
    teacher = torch.randn(s["M"], s["V"], generator=g)
    return (torch.log_softmax(student, dim=-1).to(device), torch.softmax(teacher, dim=-1).to(device))


def reference(input: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.kl_div(input.double(), target.double(), reduction="batchmean").float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["M"] * s["V"] + 4, "flops": 4 * s["M"] * s["V"]}
