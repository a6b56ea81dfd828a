"""Position weight matrix scan, best hit per sequence and motif (MEME-suite FIMO / tangermeme `fimo`).

Every motif m (log-odds PWM in bits, width widths[m] <= W, zero-padded to W columns) is scored at every
start position p of every sequence where it fits (p + widths[m] <= L), on both strands: forward
sum_w pwm[m, w, base[p + w]] and reverse complement sum_w pwm[m, widths[m] - 1 - w, 3 - base[p + w]].
An N base (code 4) scores 0. Output: the best score over positions and strands, [N, M] float32.
"""
import torch

META = {
    "name": "pwm_scan_max",
    "level": 2,
    "category": "genomics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 3, "L": 50, "M": 6, "W": 16},
        "ragged": {"N": 5, "L": 173, "M": 37, "W": 32},
        "large": {"N": 4096, "L": 1000, "M": 879, "W": 32},
    },
    "baseline_notes": "Grid (sequence, 64-motif tile): the forward and reverse-complement PWM tiles [4W, 64] "
                      "are loaded once; the sequence is walked in 64-position chunks, each chunk's one-hot "
                      "windows built as a [64, 4W] tile and scored by two tl.dot (fp32 inputs, default "
                      "precision), masked to the fitting positions, running max; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seq [N, L] int8 (A,C,G,T = 0..3, N = 4; 41% GC, a few N runs, planted motif sites),
    pwm [M, W, 4] log2-odds vs a uniform background (JASPAR-like count matrices of 20 sites,
    pseudocount 0.8), widths [M] int32 (6..min(W, 30))."""
    s = META["sizes"][size]
    N, L, M, W = s["N"], s["L"], s["M"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    hi = min(W, 30)
    widths = (6 + (torch.rand(M, generator=g) ** 1.5) * (hi - 6 + 1)).long().clamp(6, hi)
    gam = -torch.log(torch.rand(M, W, 4, generator=g).clamp_min(1e-12))   # Exp(1): Dirichlet(1) columns
    gam = gam ** 2.5                                                       # sharper, JASPAR-like columns
    counts = 20.0 * gam / gam.sum(-1, keepdim=True) + 0.8
    pwm = torch.log2(counts / counts.sum(-1, keepdim=True) / 0.25)
    pwm[torch.arange(W)[None, :] >= widths[:, None]] = 0.0
    gc = torch.tensor([0.295, 0.205, 0.205, 0.295])
    seq = torch.multinomial(gc, N * L, replacement=True, generator=g).view(N, L)
    # plant consensus-like sites of random motifs
    for i in range(N):
        for _ in range(2):
            m = int(torch.randint(0, M, (1,), generator=g))
            w = int(widths[m])
            if w > L:
                continue
            p = int(torch.randint(0, L - w + 1, (1,), generator=g))
            site = torch.multinomial(torch.softmax(pwm[m, :w] * 1.5, -1), 1, generator=g).view(-1)
            seq[i, p:p + w] = site
    runs = torch.rand(N, generator=g) < 0.05
    for i in torch.nonzero(runs).view(-1).tolist():
        p = int(torch.randint(0, L, (1,), generator=g))
        seq[i, p:p + int(torch.randint(1, 40, (1,), generator=g))] = 4
    return seq.to(torch.int8).to(device), pwm.to(dt).to(device), widths.to(torch.int32).to(device)


def reference(seq: torch.Tensor, pwm: torch.Tensor, widths: torch.Tensor) -> torch.Tensor:
    N, L = seq.shape
    M, W, _ = pwm.shape
    dev = seq.device
    wl = widths.long()
    col = torch.arange(W, device=dev)
    src = wl[:, None] - 1 - col[None, :]
    rc = pwm.float()[torch.arange(M, device=dev)[:, None], src.clamp(min=0)].flip(-1)
    rc = torch.where((src >= 0)[..., None], rc, torch.zeros((), device=dev))
    both = torch.cat([pwm.float(), rc], 0)                                   # [2M, W, 4]
    table = torch.cat([both, torch.zeros(2 * M, W, 1, device=dev)], -1)      # N scores 0
    table = table.permute(1, 2, 0).contiguous()                              # [W, 5, 2M]
    padded = torch.nn.functional.pad(seq.long(), (0, W), value=4)
    fits = torch.arange(L, device=dev)[:, None] <= (L - wl)[None, :]        # [L, M]
    out = torch.empty(N, M, device=dev, dtype=torch.float32)
    chunk = 64
    for a in range(0, N, chunk):
        b = min(N, a + chunk)
        acc = torch.zeros(b - a, L, 2 * M, device=dev)
        for w in range(W):
            acc += table[w][padded[a:b, w:w + L]]
        best = torch.maximum(acc[..., :M], acc[..., M:]).masked_fill(~fits, float("-inf"))
        out[a:b] = best.amax(1)
    return out.to(pwm.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * s["L"] + 16 * s["M"] * s["W"] + 4 * s["N"] * s["M"],
            "flops": 2 * 2 * s["N"] * s["L"] * s["M"] * 4 * s["W"]}
