"""CTC prefix scores for every next-label candidate of every beam hypothesis (ESPnet CTCPrefixScoreTH.__call__).

Full-vocabulary scoring (scoring_ids=None, what ESPnet's batch beam search uses when the CTC posteriors
are on the accelerator). x [2, T, N, O] holds the CTC log-posteriors repeated per hypothesis
(x[0]: the candidate label, x[1]: blank); r_prev [T, 2, N] the previous prefix's forward variables
(non-blank / blank ending); last [N] each hypothesis's last label; step the prefix length without <sos>.
Returns the new forward variables r [T, 2, N, O] and the prefix scores log_psi [N, O]
(blank = 0 gets logzero, eos = O - 1 gets the prefix's full-utterance probability).
"""
import torch

LOGZERO = -10000000000.0

META = {
    "name": "ctc_prefix_score_full_vocab",
    "level": 3,
    "category": "speech",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 12, "N": 3, "O": 40, "step": 2},
        "ragged": {"T": 23, "N": 5, "O": 77, "step": 3},
        "large": {"T": 250, "N": 10, "O": 4233, "step": 12},
    },
    "baseline_notes": "Persistent grid of up to 40 programs over (hypothesis, 512-label tile) work items; each walks "
                      "the frames from start to T carrying r^n, r^b and psi for its 512 labels, storing r per frame.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    T, N, O, step = s["T"], s["N"], s["O"], s["step"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logp = torch.log_softmax(torch.randn(T, O, generator=g) * 3.0, dim=-1)
    x = torch.stack([logp, logp[:, :1].expand(T, O)])[:, :, None, :].expand(2, T, N, O).contiguous()
    r_prev = -(torch.rand(T, 2, N, generator=g) * 1.5 + 0.2).cumsum(0) - 2.0 * step
    r_prev[: step - 1] = LOGZERO
    last = torch.randint(1, O - 1, (N,), generator=g, dtype=torch.int32)
    return x.to(dt).to(device), r_prev.to(dt).to(device), last.to(device), step


def reference(x: torch.Tensor, r_prev: torch.Tensor, last: torch.Tensor, step: int) -> tuple:
    _, T, N, O = x.shape
    xd, rp = x.double(), r_prev.double()
    r = torch.full((T, 2, N, O), LOGZERO, dtype=torch.float64, device=x.device)
    r_sum = torch.logsumexp(rp, 1)                                   # [T, N]
    log_phi = r_sum.unsqueeze(2).repeat(1, 1, O)
    hyp = torch.arange(N, device=x.device)
    log_phi[:, hyp, last.long()] = rp[:, 1, hyp]
    start = max(step, 1)
    for t in range(start, T):
        prev = r[t - 1]
        rr = torch.stack([prev[0], log_phi[t - 1], prev[0], prev[1]]).view(2, 2, N, O)
        r[t] = torch.logsumexp(rr, 1) + xd[:, t]
    log_phi_x = torch.cat((log_phi[0].unsqueeze(0), log_phi[:-1]), dim=0) + xd[0]
    log_psi = torch.logsumexp(torch.cat((log_phi_x[start:T], r[start - 1, 0].unsqueeze(0)), dim=0), dim=0)
    log_psi[:, O - 1] = r_sum[T - 1]
    log_psi[:, 0] = LOGZERO
    return r.to(x.dtype), log_psi.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N, O = s["T"], s["N"], s["O"]
    return {"bytes": 4 * (4 * T * N * O + 2 * T * N + N * O), "flops": 30 * (T - s["step"]) * N * O}
