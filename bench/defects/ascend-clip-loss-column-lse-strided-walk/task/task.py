"""Symmetric CLIP contrastive loss from the scaled similarity matrix (open_clip ClipLoss):
loss = (CE(logits, arange(N)) + CE(logits.T, arange(N))) / 2 over logits [N, N] = scale * img @ txt.T.
Outputs the row logsumexp [N], the column logsumexp [N] (both kept for the backward pass) and the
mean loss [1], all fp32."""
import torch

META = {
    "name": "clip_contrastive_loss",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 96, "D": 32},
        "ragged": {"N": 1000, "D": 64},
        "large": {"N": 8192, "D": 512},
    },
    "baseline_notes": "Three launches: rows (one row per step, 4,096-wide online logsumexp), columns (tiles of 64 "
                      "contiguous columns x 128 rows, running max / sum per column), and one program that adds "
                      "the diagonal terms into the loss. Grids of 40 programs (Atlas A2 vector cores).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [N, N] fp32: logit_scale (100) times cosine similarities of N paired image / text
    embeddings of width D; matching pairs (the diagonal) are correlated."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(s["N"], s["D"], generator=g)
    txt = img + 1.5 * torch.randn(s["N"], s["D"], generator=g)
    img = img / img.norm(dim=1, keepdim=True)
    txt = txt / txt.norm(dim=1, keepdim=True)
    logits = 100.0 * img @ txt.T
    return (logits.to(getattr(torch, dtype or META["dtypes"][0])).contiguous().to(device),)


def reference(logits: torch.Tensor) -> tuple:
    x = logits.double()
    row = torch.logsumexp(x, dim=1)
    col = torch.logsumexp(x, dim=0)
    diag = torch.diagonal(x)
    loss = ((row - diag).mean() + (col - diag).mean()) / 2
    return row.float(), col.float(), loss.reshape(1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 2 * 4 * n * n + 4 * 3 * n, "flops": 2 * 4 * n * n}
