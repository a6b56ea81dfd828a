"""Sampling penalties of an LLM serving sampler (vLLM v1 apply_penalties): repetition penalty on every
token seen in the prompt or the output, then frequency and presence penalties from the output token
counts. Inputs are left untouched; the penalised logits are returned (fp32 [B, V])."""
import torch

META = {
    "name": "sampler_apply_penalties",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "V": 3000, "P": 40, "O": 30},
        "ragged": {"B": 5, "V": 2999, "P": 33, "O": 17},
        "large": {"B": 64, "V": 152064, "P": 1024, "O": 512},
    },
    "baseline_notes": "2-D grid (request, block of 1024 vocab ids): each program loads its request's three "
                      "penalties once and rewrites 1024 logits; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] fp32, prompt_mask [B, V] bool, output_counts [B, V] int32 (bincount of the generated
    tokens), and per-request repetition / frequency / presence penalties [B] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    B, V = s["B"], s["V"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, V, generator=g) * 4.0
    prompt = torch.randint(0, V, (B, s["P"]), generator=g)
    prompt_mask = torch.zeros(B, V, dtype=torch.bool).scatter_(1, prompt, True)
    # generated tokens favour a small hot set, so some ids repeat
    hot = torch.randint(0, V, (B, max(1, s["O"] // 4)), generator=g)
    pick = torch.randint(0, hot.shape[1], (B, s["O"]), generator=g)
    out_tok = torch.where(torch.rand(B, s["O"], generator=g) < 0.5, hot.gather(1, pick),
                          torch.randint(0, V, (B, s["O"]), generator=g))
    counts = torch.zeros(B, V, dtype=torch.int32).scatter_add_(1, out_tok, torch.ones_like(out_tok, dtype=torch.int32))
    rep = 1.0 + torch.rand(B, generator=g) * 0.5
    freq = torch.rand(B, generator=g) * 0.5
    pres = torch.rand(B, generator=g) * 0.5
    rep[0], freq[0], pres[0] = 1.0, 0.0, 0.0  # a request with penalties off
    return (logits.to(dt).to(device), prompt_mask.to(device), counts.to(device),
            rep.to(dt).to(device), freq.to(dt).to(device), pres.to(dt).to(device))


def reference(logits, prompt_mask, output_counts, rep, freq, pres) -> torch.Tensor:
    x = logits.double()
    seen_out = output_counts > 0
    seen = prompt_mask | seen_out
    r = rep.double()[:, None]
    x = torch.where(seen, torch.where(x > 0, x / r, x * r), x)
    x = x - freq.double()[:, None] * output_counts.double() - pres.double()[:, None] * seen_out.double()
    return x.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": n * (4 + 1 + 4 + 4) + 12 * s["B"], "flops": 6 * n}
