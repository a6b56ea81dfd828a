"""Multi-LoRA expand with the base output added (vLLM punica lora_expand, add_inputs=True): tokens are
grouped by adapter (token_indices_sorted_by_lora_ids, num_tokens_per_lora, lora_token_start_loc,
active_lora_ids); for every token t of adapter slot l, out[t] = base[t] + shrink[t] @ lora_b[lora_id]^T,
with the fp32 shrink output cast to the adapter dtype before the product. Output bf16 [T, N]."""
import torch

META = {
    "name": "multi_lora_expand_add",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 40, "N": 96, "R": 16, "L": 3},
        "ragged": {"T": 77, "N": 200, "R": 16, "L": 5},
        "large": {"T": 8192, "N": 28672, "R": 64, "L": 16},
    },
    "baseline_notes": "Grid (m-tile x n-tile, adapter slot), as vLLM: each program returns at once when its slot "
                      "has no adapter or its m-tile lies past the slot's token count; otherwise gathers up to 64 "
                      "token rows of the shrink output, one tl.dot with the [R, 128] adapter tile, adds the base.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """shrink [T, R] fp32, lora_b [L, N, R], base [T, N], the token->adapter mapping of a batch whose
    requests use L adapters (token counts uneven), sorted by adapter as vLLM's LoRAKernelMeta does."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, N, R, L = s["T"], s["N"], s["R"], s["L"]
    shrink = torch.randn(T, R, generator=g) * 0.5
    lora_b = (torch.randn(L, N, R, generator=g) * 0.05).to(dt)
    base = torch.randn(T, N, generator=g, dtype=dt)
    # requests of varying length, each bound to one adapter; every adapter gets some tokens
    weights = torch.rand(L, generator=g) + 0.5
    counts = torch.floor(weights / weights.sum() * T).long().clamp_min(1)
    counts[0] += T - counts.sum()
    token_lora = torch.repeat_interleave(torch.arange(L), counts)
    token_lora = token_lora[torch.randperm(T, generator=g)]
    order = torch.argsort(token_lora, stable=True)
    num_tokens_per_lora = torch.bincount(token_lora, minlength=L)
    start_loc = torch.zeros(L + 1, dtype=torch.long)
    start_loc[1:] = torch.cumsum(num_tokens_per_lora, 0)
    active_lora_ids = torch.randperm(L, generator=g)  # slot -> adapter id in the stacked weights
    i32 = torch.int32
    return (shrink.to(device), lora_b.to(device), base.to(device), order.to(i32).to(device),
            num_tokens_per_lora.to(i32).to(device), start_loc.to(i32).to(device), active_lora_ids.to(i32).to(device))


def reference(shrink, lora_b, base, token_indices, num_tokens_per_lora, start_loc, active_lora_ids):
    out = base.float().clone()
    x = shrink.to(lora_b.dtype).float()
    for slot in range(active_lora_ids.shape[0]):
        lid = int(active_lora_ids[slot])
        n = int(num_tokens_per_lora[slot])
        if lid < 0 or n == 0:
            continue
        s0 = int(start_loc[slot])
        toks = token_indices[s0:s0 + n].long()
        out[toks] += x[toks] @ lora_b[lid].float().T
    return out.to(base.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N, R, L = s["T"], s["N"], s["R"], s["L"]
    return {"bytes": 2 * 2 * T * N + 4 * T * R + 2 * L * N * R + 4 * (T + 2 * L + 1), "flops": 2 * T * N * R}
