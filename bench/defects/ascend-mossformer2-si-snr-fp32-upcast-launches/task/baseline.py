"""Negative SI-SNR loss per (mixture, speaker) row from one pass of fp32 moments."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _neg_si_snr(est, tgt, loss, R, S, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for r in range(pid, R, nprog):
        se = tl.zeros([BLOCK], dtype=tl.float32)
        ss = tl.zeros([BLOCK], dtype=tl.float32)
        see = tl.zeros([BLOCK], dtype=tl.float32)
        sss = tl.zeros([BLOCK], dtype=tl.float32)
        ses = tl.zeros([BLOCK], dtype=tl.float32)
        for k0 in range(0, S, BLOCK):
            k = k0 + tl.arange(0, BLOCK)
            e = tl.load(est + r * S + k, mask=k < S, other=0.0).to(tl.float32)
            s = tl.load(tgt + r * S + k, mask=k < S, other=0.0).to(tl.float32)
            se += e
            ss += s
            see += e * e
            sss += s * s
            ses += e * s
        mean_e = tl.sum(se, axis=0) / S
        mean_s = tl.sum(ss, axis=0) / S
        dot = tl.sum(ses, axis=0) - S * mean_e * mean_s
        s_energy = tl.sum(sss, axis=0) - S * mean_s * mean_s
        e_energy = tl.sum(see, axis=0) - S * mean_e * mean_e
        alpha = dot / (s_energy + eps)
        target_energy = alpha * alpha * s_energy
        noise_energy = tl.maximum(e_energy - 2.0 * alpha * dot + target_energy, 0.0)
        ratio = target_energy / (noise_energy + eps)
        tl.store(loss + r, -10.0 * tl.log(ratio + eps) * 0.4342944819032518)


def run(est: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    B, C, S = est.shape
    loss = torch.empty((B, C), device=est.device, dtype=torch.float32)
    _neg_si_snr[(min(NUM_CORES, B * C),)](est, target, loss, B * C, S, 1e-8, BLOCK=2048)
    return loss
