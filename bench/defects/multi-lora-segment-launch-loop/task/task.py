"""Multi-LoRA serving delta (Punica SGMV / S-LoRA): the batch's tokens are grouped into segments by
adapter; each segment s gets y = scaling * (x @ A[l_s]^T) @ B[l_s]^T with its own adapter l_s.
x [T, K] bf16, lora_a [NL, R, K], lora_b [NL, N, R] bf16; segment metadata both as device tensors
(seg_indptr [S + 1], seg_lora [S] int32) and as the scheduler's host lists (seg_lens, seg_lora_ids).
Output y [T, N] bf16."""
import torch

META = {
    "name": "multi_lora_sgmv",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 40, "K": 64, "N": 48, "R": 16, "NL": 3, "S": 4},
        "ragged": {"T": 77, "K": 96, "N": 80, "R": 16, "NL": 5, "S": 6},
        "large": {"T": 4096, "K": 4096, "N": 4096, "R": 16, "NL": 32, "S": 32},
    },
    "baseline_notes": "Two launches for the whole batch: shrink grid (segment, token block of max segment length) "
                      "with tl.dot over K into an fp32 [T, R] buffer, expand grid (segment, token block, N block); "
                      "each program reads its segment's bounds and adapter id from the device metadata.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, K, N, R, NL, S = s["T"], s["K"], s["N"], s["R"], s["NL"], s["S"]
    cuts = torch.randperm(T - 1, generator=g)[: S - 1].add(1).sort().values.tolist()
    bounds = [0, *cuts, T]
    seg_lens = [bounds[i + 1] - bounds[i] for i in range(S)]
    seg_lora_ids = torch.randint(0, NL, (S,), generator=g).tolist()
    x = torch.randn(T, K, generator=g)
    lora_a = torch.randn(NL, R, K, generator=g) / K ** 0.5
    lora_b = torch.randn(NL, N, R, generator=g) / R ** 0.5
    seg_indptr = torch.tensor(bounds, dtype=torch.int32, device=device)
    seg_lora = torch.tensor(seg_lora_ids, dtype=torch.int32, device=device)
    return (x.to(dt).to(device), lora_a.to(dt).to(device), lora_b.to(dt).to(device),
            seg_indptr, seg_lora, seg_lens, seg_lora_ids, 2.0)


def reference(x, lora_a, lora_b, seg_indptr, seg_lora, seg_lens, seg_lora_ids, scaling):
    y = torch.empty(x.shape[0], lora_b.shape[1], dtype=torch.float32, device=x.device)
    start = 0
    for n, lid in zip(seg_lens, seg_lora_ids, strict=True):
        t = x[start:start + n].float() @ lora_a[lid].float().T        # the fp32 shrink buffer
        y[start:start + n] = scaling * (t.to(x.dtype).float() @ lora_b[lid].float().T)
        start += n
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, K, N, R, NL = s["T"], s["K"], s["N"], s["R"], s["NL"]
    return {"bytes": 2 * (T * K + T * N + NL * R * (K + N)), "flops": 2 * T * R * (K + N)}
