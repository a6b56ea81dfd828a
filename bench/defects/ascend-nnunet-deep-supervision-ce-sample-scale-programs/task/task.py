"""Deep-supervision weighted cross-entropy (nnU-Net v2 DeepSupervisionWrapper around the CE term of
DC_and_CE_loss): loss = sum_i w_i * mean_voxels CE(logits_i, target_i) over the decoder outputs.

nnU-Net weights the outputs 1, 1/2, 1/4, ... , sets the lowest one to 0 and normalises; the zero-weight
output is skipped, leaving 4 active scales here. logits_i [B, C, D_i, H_i, W_i] (fp16, autocast),
target_i [B, 1, D_i, H_i, W_i] float class ids (the downsampled segmentation).
"""
import torch

META = {
    "name": "nnunet_deep_supervision_ce",
    "level": 2,
    "category": "loss",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 3, "D": 8, "H": 8, "W": 8},
        "ragged": {"B": 2, "C": 5, "D": 10, "H": 12, "W": 14},
        "large": {"B": 2, "C": 14, "D": 128, "H": 128, "W": 128},
    },
    "baseline_notes": "Programs = vector cores (40), each loops over voxel blocks of all four scales (one flat "
                      "work list), an online log-sum-exp over the C class planes per voxel, the scale's weight "
                      "/ voxel count applied per block; per-program partials summed by a one-program launch.",
    "deterministic": True,
}

N_SCALES = 4


def _weights() -> list[float]:
    w = [1.0 / 2 ** i for i in range(N_SCALES + 1)]
    w[-1] = 0.0
    total = sum(w)
    return [x / total for x in w[:N_SCALES]]


def _dims(s: dict, i: int) -> tuple:
    return tuple(-(-s[k] // 2 ** i) for k in ("D", "H", "W"))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits_0..logits_3, target_0..target_3 (full resolution first)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits, targets = [], []
    for i in range(N_SCALES):
        dims = _dims(s, i)
        logits.append((torch.randn(s["B"], s["C"], *dims, generator=g) * 2.0).to(dt).to(device))
        targets.append(torch.randint(0, s["C"], (s["B"], 1, *dims), generator=g).float().to(device))
    return (*logits, *targets)


def reference(*inputs: torch.Tensor) -> torch.Tensor:
    logits, targets = inputs[:N_SCALES], inputs[N_SCALES:]
    loss = torch.zeros((), dtype=torch.float64, device=logits[0].device)
    for w, x, t in zip(_weights(), logits, targets):
        loss = loss + w * torch.nn.functional.cross_entropy(x.double(), t[:, 0].long())
    return loss.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    vox = sum(s["B"] * torch.Size(_dims(s, i)).numel() for i in range(N_SCALES))
    return {"bytes": vox * (2 * s["C"] + 4), "flops": 8 * vox * s["C"]}
