"""Masked multi-categorical log-prob and entropy of CleanRL's Gym-µRTS GridNet agent (ppo_gridnet.py).

The GridNet policy emits, for every cell of the H x W map, 78 logits split into the seven action
components of the µRTS action plane, nvec = [6, 4, 4, 4, 4, 7, 49] (action type, move / harvest /
return / produce direction, produced unit type, relative attack position in a 7x7 window). Each
component is a CategoricalMasked: invalid entries (mask 0) get the logit -1e8, the distribution is
normalised over the component, and the entropy only sums p*log p over valid entries. The PPO update
re-evaluates the stored actions:

    logprob[b] = sum_cells sum_heads log_softmax(masked_logits_h)[a_h]
    entropy[b] = -sum_cells sum_heads sum_{valid j} p_j log p_j

The invalid-action mask has 79 columns per cell (column 0 is the source-unit mask, columns 1..78 the
components), as gym-microrts returns it; cells without an own unit have an all-zero mask. Actions are
stored as float, as in CleanRL's rollout buffer. Returns (logprob [B] fp32, entropy [B] fp32).
"""
import torch

META = {
    "name": "gridnet_masked_logprob_entropy",
    "level": 2,
    "category": "rl-policy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "H": 4, "W": 4},
        "ragged": {"B": 5, "H": 5, "W": 5},
        "large": {"B": 1536, "H": 16, "W": 16},
    },
    "baseline_notes": "40 programs loop over samples; per sample, blocks of 64 cells: the [64, 8] action tile "
                      "is loaded once, and for each of the 7 components the [64, pow2(n)] logit and mask "
                      "sub-tiles are loaded contiguously, masked to -1e8, reduced to log-sum-exp, and the "
                      "taken action's log-prob is selected on-chip (compare with the action index, sum). "
                      "Per-sample sums are stored once.",
    "deterministic": True,
}

NVEC = (6, 4, 4, 4, 4, 7, 49)
MASK_VALUE = -1e8


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, H*W, 78], invalid-action masks [B, H*W, 79] bool, actions [B, H*W, 7] float."""
    s = META["sizes"][size]
    B, HW = s["B"], s["H"] * s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, HW, sum(NVEC), generator=g) * 2.0
    has_unit = torch.rand(B, HW, generator=g) < 0.25
    masks = torch.zeros(B, HW, 1 + sum(NVEC), dtype=torch.bool)
    masks[..., 0] = has_unit
    actions = torch.zeros(B, HW, len(NVEC))
    off = 1
    for h, n in enumerate(NVEC):
        valid = torch.rand(B, HW, n, generator=g) < 0.5
        pick = torch.randint(0, n, (B, HW), generator=g)
        valid[torch.arange(B)[:, None], torch.arange(HW)[None, :], pick] = True
        valid &= has_unit[..., None]
        masks[..., off:off + n] = valid
        # a cell with a unit takes a valid action; a cell without one keeps the sampled (uniform) index
        score = torch.rand(B, HW, n, generator=g) + valid.float()
        actions[..., h] = score.argmax(-1).float()
        off += n
    return logits.to(dt).to(device), masks.to(device), actions.to(dt).to(device)


def reference(logits: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor) -> tuple:
    B, HW, _ = logits.shape
    lg = logits.reshape(-1, sum(NVEC))
    mk = masks.reshape(-1, 1 + sum(NVEC))[:, 1:]
    act = actions.reshape(-1, len(NVEC)).long()
    logprob = torch.zeros(lg.shape[0], dtype=logits.dtype, device=logits.device)
    entropy = torch.zeros_like(logprob)
    for h, (l, m) in enumerate(zip(torch.split(lg, NVEC, dim=1), torch.split(mk, NVEC, dim=1))):
        ml = torch.where(m, l, torch.tensor(MASK_VALUE, dtype=l.dtype, device=l.device))
        norm = ml - ml.logsumexp(dim=-1, keepdim=True)
        p = torch.softmax(ml, dim=-1)
        logprob += norm.gather(1, act[:, h:h + 1]).squeeze(1)
        entropy -= torch.where(m, norm * p, torch.zeros_like(p)).sum(-1)
    return logprob.view(B, HW).sum(1), entropy.view(B, HW).sum(1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["B"] * s["H"] * s["W"]
    return {"bytes": cells * (78 * 4 + 79 + 7 * 4), "flops": 8 * 78 * cells}
