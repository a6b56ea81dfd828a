"""DINO self-distillation loss (facebookresearch/dino DINOLoss.forward): the teacher's two global-crop
outputs are centred and sharpened, softmax((t - center) / teacher_temp), and each is the target of every
student crop but its own: mean over pairs and images of -sum_k p_t[k] * log_softmax(s / student_temp)[k].
Output: the scalar loss (fp32)."""
import torch

META = {
    "name": "dino_distillation_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "ncrops": 4, "K": 1000},
        "ragged": {"B": 5, "ncrops": 5, "K": 3001},
        "large": {"B": 64, "ncrops": 10, "K": 65536},
    },
    "baseline_notes": "Grid = 40 vector cores looping over (teacher crop, student crop, image) pair rows; each row "
                      "is streamed once in 4,096-wide blocks with online max / sum-exp for the teacher and student and "
                      "a running teacher-weighted sum of student logits; a one-program kernel averages the row losses.",
    "deterministic": True,
}

STUDENT_TEMP = 0.1
TEACHER_TEMP = 0.04


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """student [ncrops * B, K] and teacher [2 * B, K] head outputs (cosine-like logits of the weight-normalised
    last layer, crop-major as DINO concatenates them), center [1, K], and the two temperatures."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    proto = torch.randn(s["B"], s["K"], generator=g) * 0.25
    teacher = torch.tanh(proto.repeat(2, 1) + 0.1 * torch.randn(2 * s["B"], s["K"], generator=g))
    student = torch.tanh(proto.repeat(s["ncrops"], 1) + 0.3 * torch.randn(s["ncrops"] * s["B"], s["K"], generator=g))
    center = teacher.mean(dim=0, keepdim=True) * 0.9
    return (student.to(dt).to(device), teacher.to(dt).to(device), center.to(dt).to(device),
            STUDENT_TEMP, TEACHER_TEMP)


def reference(student: torch.Tensor, teacher: torch.Tensor, center: torch.Tensor, student_temp: float,
              teacher_temp: float) -> torch.Tensor:
    b = teacher.shape[0] // 2
    ncrops = student.shape[0] // b
    s_out = (student.double() / student_temp).chunk(ncrops)
    t_out = torch.softmax((teacher.double() - center.double()) / teacher_temp, dim=-1).chunk(2)
    total, terms = 0.0, 0
    for iq, q in enumerate(t_out):
        for v in range(ncrops):
            if v == iq:
                continue
            total = total + torch.sum(-q * torch.log_softmax(s_out[v], dim=-1), dim=-1).mean()
            terms += 1
    return (total / terms).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = 2 * (s["ncrops"] - 1) * s["B"]
    return {"bytes": 4 * (s["ncrops"] * s["B"] + 2 * s["B"] + 1) * s["K"] + 4,
            "flops": 12 * rows * s["K"]}
