"""mmsegmentation DiceLoss (use_sigmoid=False) on segmentation logits: softmax over the classes, then for
every sample and class a soft Dice term 1 - (2 * sum(p * onehot * valid) + smooth) / (sum(p^2 + onehot^2) + smooth)
with exponent 2, smooth 1 and ignore_index 255 (targets clamped to [0, C - 1] for the one-hot, as mmseg does),
averaged over the classes and then over the batch. Output: a float32 scalar."""
import torch

IGNORE_INDEX = 255
SMOOTH = 1.0

META = {
    "name": "seg_dice_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "C": 5, "H": 24, "W": 50},
        "ragged": {"N": 3, "C": 7, "H": 13, "W": 29},
        "large": {"N": 2, "C": 19, "H": 512, "W": 1024},
    },
    "baseline_notes": "Two kernels. Partials: grid (pixel chunk, sample); each program walks its chunk in "
                      "128-pixel tiles of [next_pow2(C), 128] logits, takes the softmax over the classes once and "
                      "adds every class's intersection and denominator sums; one [C] row of partials per program. "
                      "Finalize: one program sums the partials per sample and class, forms the Dice terms and the "
                      "class and batch means.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [N, C, H, W] (the decode head's output resized to the crop) and int64 labels [N, H, W] with
    about 5% ignore_index (255) pixels."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    N, C, H, W = s["N"], s["C"], s["H"], s["W"]
    target = torch.randint(0, C, (N, H, W), generator=g)
    logits = torch.randn(N, C, H, W, generator=g) * 2.0
    logits.scatter_add_(1, target[:, None], torch.full((N, 1, H, W), 2.5))
    target[torch.rand(N, H, W, generator=g) < 0.05] = IGNORE_INDEX
    dt = getattr(torch, dtype or META["dtypes"][0])
    return logits.to(dt).to(device), target.to(device)


def reference(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    N, C = logits.shape[:2]
    pred = torch.softmax(logits.double(), dim=1).reshape(N, C, -1)
    tgt = target.reshape(N, -1)
    one_hot = torch.nn.functional.one_hot(tgt.clamp(0, C - 1), C).permute(0, 2, 1).double()
    valid = (tgt != IGNORE_INDEX).double()[:, None, :]
    num = 2.0 * (pred * one_hot * valid).sum(-1) + SMOOTH
    den = (pred.pow(2) + one_hot.pow(2)).sum(-1) + SMOOTH
    return (1.0 - num / den).mean(1).mean().float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pixels = s["N"] * s["H"] * s["W"]
    return {"bytes": 4 * pixels * s["C"] + 8 * pixels + 4, "flops": 10 * pixels * s["C"]}
