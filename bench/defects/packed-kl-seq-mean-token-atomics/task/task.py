"""Per-sample mean KL between policy and reference over a packed (remove-padding) rollout batch, as OpenRLHF
computes it with packing_samples=True: the k3 estimator exp(ref - logp) - (ref - logp) - 1 per token, clamped
to [-10, 10], averaged over each sample's action tokens. Samples are concatenated in order (cu_seqlens)."""
import torch

META = {
    "name": "packed_kl_seq_mean",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 5, "min_len": 40, "max_len": 400},
        "ragged": {"S": 37, "min_len": 1, "max_len": 700},
        "large": {"S": 512, "min_len": 256, "max_len": 3840},
    },
    "baseline_notes": "One program per sample: its token range [cu_seqlens[s], cu_seqlens[s + 1]) streamed in "
                      "1024-token chunks, k3 estimator and masked sums in registers, the mean stored once.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logp, ref_logp [N] fp32, action_mask [N] bool, seq_ids [N] int32 (sorted), cu_seqlens [S + 1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = torch.randint(s["min_len"], s["max_len"] + 1, (s["S"],), generator=g)
    n = int(lens.sum())
    cu = torch.zeros(s["S"] + 1, dtype=torch.int64)
    cu[1:] = torch.cumsum(lens, 0)
    seq_ids = torch.repeat_interleave(torch.arange(s["S"]), lens)
    logp = -2.0 * torch.rand(n, generator=g)
    ref_logp = logp + 0.2 * torch.randn(n, generator=g)
    # prompt tokens of each packed sample are not actions: the first ~quarter of every sample is masked out
    pos = torch.arange(n) - cu[:-1].repeat_interleave(lens)
    action_mask = pos >= (lens // 4).repeat_interleave(lens)
    return (logp.to(device=device, dtype=dt), ref_logp.to(device=device, dtype=dt), action_mask.to(device),
            seq_ids.to(device=device, dtype=torch.int32), cu.to(device=device, dtype=torch.int32))


def reference(logp, ref_logp, action_mask, seq_ids, cu_seqlens) -> torch.Tensor:
    log_ratio = ref_logp.double() - logp.double()
    k3 = (log_ratio.exp() - log_ratio - 1.0).clamp(-10.0, 10.0)
    m = action_mask.double()
    S = cu_seqlens.numel() - 1
    idx = seq_ids.long()
    sums = torch.zeros(S, dtype=torch.float64, device=logp.device).index_add_(0, idx, k3 * m)
    counts = torch.zeros(S, dtype=torch.float64, device=logp.device).index_add_(0, idx, m)
    return (sums / counts.clamp_min(1.0)).to(logp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * (s["min_len"] + s["max_len"]) // 2
    return {"bytes": 13 * n + 8 * s["S"], "flops": 8 * n}
