"""Token-level distillation loss of GKD with beta = 0: forward KL(teacher || student) between the
temperature-scaled softmaxes of raw teacher and student logits, per token (fp32 [N])."""
import torch

META = {
    "name": "distill_forward_kl",
    "level": 3,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 6, "V": 5000},
        "ragged": {"N": 13, "V": 9001},
        "large": {"N": 2048, "V": 151936},
    },
    "baseline_notes": "One program per token, one pass over the vocabulary in 4,096-wide blocks keeping "
                      "lane-wise running maxima and rescaled sums for teacher and student (online log-sum-exp) "
                      "plus the running sum of exp(t - m_t) * (t - s); lanes merged at the end.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """student_logits, teacher_logits [N, V] (the teacher correlated with the student) and temperature 0.9."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    teacher = (3.0 * torch.randn(s["N"], s["V"], generator=g, dtype=dt))
    student = teacher + torch.randn(s["N"], s["V"], generator=g, dtype=dt)
    return student.to(device), teacher.to(device), 0.9


def reference(student_logits: torch.Tensor, teacher_logits: torch.Tensor, temperature: float) -> torch.Tensor:
    ls = torch.log_softmax(student_logits.double() / temperature, dim=-1)
    lt = torch.log_softmax(teacher_logits.double() / temperature, dim=-1)
    return (lt.exp() * (lt - ls)).sum(-1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["V"]
    return {"bytes": 4 * n + 4 * s["N"], "flops": 10 * n}
