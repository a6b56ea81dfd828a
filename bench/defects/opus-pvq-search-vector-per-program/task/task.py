"""CELT pyramid vector quantiser search (Opus celt/vq.c op_pvq_search_c, float build).

Each row of X is one normalised band shape of N MDCT coefficients (unit L2 norm). The search puts
K unit pulses on the N positions, one at a time: with xy = sum |x_j| y_j and yy = sum y_j^2 over the
pulses placed so far, the next pulse goes to the position j that maximises
    (xy + |x_j|)^2 / (yy + 1 + 2 y_j)
(first index on ties), i.e. the normalised correlation of the pyramid codeword with |x| after the
pulse is added. Finally the signs of X are put back: iy_j = sign(x_j) * y_j, sum |iy_j| = K.

Here K <= N/2, so libopus skips its projection pre-search and runs the greedy loop from an empty
codeword, which is what this task does. The score is one IEEE fp32 division per candidate
(num / den with num = (xy + |x_j|)^2 in fp32, den an exact small integer), so the chosen positions
are bit-reproducible. Returns iy int32 [V, N].
"""
import torch

META = {
    "name": "celt_pvq_search",
    "level": 2,
    "category": "speech-codec",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"V": 64, "N": 16, "K": 8},
        "ragged": {"V": 77, "N": 12, "K": 5},
        # 48 kHz CELT, LM=3 (20 ms frames): band 8 spans 2<<3 = 16 MDCT bins; 2^20 band vectors
        # (e.g. 256 stereo streams x 2048 frames of one batch-encode call), 8 pulses per band.
        "large": {"V": 1048576, "N": 16, "K": 8},
    },
    "baseline_notes": "Rows of 64 band vectors per program ([64, BLOCK_N] tile, 4 warps); K greedy "
                      "steps, each an fp32 score, a row argmax and two masked row sums to update xy "
                      "and yy; signs restored at the store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Unit-norm band shapes X [V, N] (Laplacian-like MDCT coefficients) and the pulse count K."""
    s = META["sizes"][size]
    v, n, k = s["V"], s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mag = -torch.log(torch.rand(v, n, generator=g).clamp_min(1e-12))
    tilt = torch.linspace(1.0, 0.5, n)[None, :]
    sign = torch.where(torch.rand(v, n, generator=g) < 0.5, -1.0, 1.0)
    x = sign * mag * tilt
    x = x / x.norm(dim=1, keepdim=True)
    return x.to(device=device, dtype=dt), k


def reference(x: torch.Tensor, k: int) -> torch.Tensor:
    a = x.abs().float()
    v, n = a.shape
    iy = torch.zeros(v, n, dtype=torch.int32, device=x.device)
    xy = torch.zeros(v, dtype=torch.float32, device=x.device)
    yy = torch.zeros(v, dtype=torch.float32, device=x.device)
    for _ in range(k):
        yy1 = yy + 1.0
        rxy = xy[:, None] + a
        score = (rxy * rxy) / (yy1[:, None] + 2.0 * iy.float())
        best = score.argmax(dim=1, keepdim=True)
        xy = xy + a.gather(1, best).squeeze(1)
        yy = yy1 + 2.0 * iy.gather(1, best).squeeze(1).float()
        iy.scatter_add_(1, best, torch.ones_like(best, dtype=torch.int32))
    return torch.where(x < 0, -iy, iy)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["V"] * s["N"], "flops": 6 * s["V"] * s["N"] * s["K"]}
