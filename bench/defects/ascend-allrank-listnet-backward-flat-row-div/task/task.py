"""Backward of the ListNet listwise softmax loss (allRank losses.listNet, TF-Ranking SoftmaxLoss form).

Per padded slate b (padded positions carry y_true = -1, allRank's PADDED_Y_VALUE, and take no part):
    P = softmax(y_pred[b, valid]),  T = softmax(y_true[b, valid]),
    loss_b = -sum_i T_i * log P_i,
and the gradient of the batch loss with respect to the scores is
    grad[b, i] = grad_loss[b] * (P_i - T_i)   for valid i,   0 for padded i.
The forward saved the per-slate log-sum-exps lse_pred[b] = logsumexp(y_pred[b, valid]) and
lse_true[b] = logsumexp(y_true[b, valid]) (so P_i = exp(y_pred - lse_pred), T_i = exp(y_true - lse_true));
grad_loss is the upstream gradient of each slate's loss (1/B for allRank's batch mean).
Returns grad [B, L] fp32.
"""
import torch

META = {
    "name": "listnet_backward",
    "level": 1,
    "category": "learning-to-rank",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "L": 24},
        "ragged": {"B": 11, "L": 45},
        "large": {"B": 32768, "L": 240},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) stride over blocks of 16 slates x the whole padded "
                      "slate (BL = next_power_of_2(L)); the three per-slate values are loaded once per block as "
                      "[16] vectors and broadcast along the contiguous axis; one masked [16, BL] store per block; "
                      "no autotune.",
    "deterministic": True,
}
# MSLR-WEB30K relevance grades 0..4 occur roughly in these proportions.
LABEL_PROBS = (0.52, 0.32, 0.13, 0.02, 0.01)


def _masked_lse(x: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
    return torch.logsumexp(x.double().masked_fill(pad, float("-inf")), dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y_pred, y_true [B, L] (-1 tail padding), saved lse_pred, lse_true [B], upstream grad_loss [B]."""
    s = META["sizes"][size]
    b, length = s["B"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = torch.randint(1, length + 1, (b,), generator=g)
    lengths[0] = length
    labels = torch.multinomial(torch.tensor(LABEL_PROBS), b * length, replacement=True,
                               generator=g).view(b, length).to(torch.float32)
    y_pred = torch.randn(b, length, generator=g) * 2.0 + 0.5 * labels
    pad = torch.arange(length)[None, :] >= lengths[:, None]
    y_true = labels.masked_fill(pad, -1.0)
    lse_pred = _masked_lse(y_pred, pad)
    lse_true = _masked_lse(y_true, pad)
    grad_loss = torch.full((b,), 1.0 / b)
    return tuple(x.to(dt).to(device) for x in (y_pred, y_true, lse_pred, lse_true, grad_loss))


def reference(y_pred: torch.Tensor, y_true: torch.Tensor, lse_pred: torch.Tensor, lse_true: torch.Tensor,
              grad_loss: torch.Tensor) -> torch.Tensor:
    pad = y_true == -1.0
    p = torch.softmax(y_pred.double().masked_fill(pad, float("-inf")), dim=1)
    t = torch.softmax(y_true.double().masked_fill(pad, float("-inf")), dim=1)
    grad = grad_loss.double()[:, None] * (p - t)
    return grad.masked_fill(pad, 0.0).to(y_pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, length = s["B"], s["L"]
    return {"bytes": 12 * b * length + 12 * b, "flops": 6 * b * length}
