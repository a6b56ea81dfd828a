"""Sampling penalties (vLLM apply_penalties, as the vLLM-Ascend sampler applies them): repetition penalty on
tokens seen in the prompt or the output (divide positive logits, multiply negative ones), then
frequency (x output count) and presence (x seen in output) penalties subtracted.
logits [B, V] fp32, prompt_counts / output_counts int32 [B, V], per-request penalties fp32 [B]."""
import torch

META = {
    "name": "apply_sampling_penalties",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "V": 5000},
        "ragged": {"B": 5, "V": 32001},
        "large": {"B": 64, "V": 151936},
    },
    "baseline_notes": "Grid of 48 vector cores striding over (row, 4,096-token block) tiles; the counts are "
                      "converted to fp32 once per tile and every seen-test is an fp32 compare.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Counts from a few hundred prompt tokens and ~100 generated tokens per request, penalties in the
    ranges the OpenAI-compatible server accepts (some requests with all three neutral)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    B, V = s["B"], s["V"]
    logits = torch.randn(B, V, generator=g) * 3.0
    prompt_counts = torch.zeros(B, V, dtype=torch.int32)
    output_counts = torch.zeros(B, V, dtype=torch.int32)
    for b in range(B):
        p = torch.randint(0, V, (min(V, 600),), generator=g)
        o = torch.randint(0, min(V, 3000), (100,), generator=g)
        prompt_counts[b] = torch.bincount(p, minlength=V).to(torch.int32)
        output_counts[b] = torch.bincount(o, minlength=V).to(torch.int32)
    rep = 1.0 + torch.rand(B, generator=g) * 0.5
    freq = torch.rand(B, generator=g) * 0.8 - 0.2
    pres = torch.rand(B, generator=g) * 1.0
    rep[0], freq[0], pres[0] = 1.0, 0.0, 0.0
    return (logits.to(device), prompt_counts.to(device), output_counts.to(device),
            rep.to(device), freq.to(device), pres.to(device))


def reference(logits, prompt_counts, output_counts, repetition, frequency, presence):
    x = logits.double()
    out_seen = output_counts > 0
    seen = (prompt_counts > 0) | out_seen
    rep = torch.where(seen, repetition.double()[:, None], torch.ones_like(x))
    x = torch.where(x > 0, x / rep, x * rep)
    x = x - frequency.double()[:, None] * output_counts.double()
    x = x - presence.double()[:, None] * out_seen.double()
    return x.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["B"] * s["V"] + 12 * s["B"], "flops": 8 * s["B"] * s["V"]}
