"""VITS KL loss: sum((logs_p - logs_q - 0.5 + 0.5 (z_p - m_p)^2 exp(-2 logs_p)) * mask) / sum(mask)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _kl_partials(z_p, logs_q, m_p, logs_p, mask, part_kl, part_m, H, T, BT: tl.constexpr):
    row = tl.program_id(0)
    b = row // H
    h = row - b * H
    ts = tl.arange(0, BT)
    tmask = ts < T
    base = row * T
    zp = tl.load(z_p + base + ts, mask=tmask, other=0.0)
    lq = tl.load(logs_q + base + ts, mask=tmask, other=0.0)
    mp = tl.load(m_p + base + ts, mask=tmask, other=0.0)
    lp = tl.load(logs_p + base + ts, mask=tmask, other=0.0)
    fm = tl.load(mask + b * T + ts, mask=tmask, other=0.0)
    dz = zp - mp
    kl = lp - lq - 0.5 + 0.5 * dz * dz * tl.exp(-2.0 * lp)
    tl.store(part_kl + row, tl.sum(kl * fm, axis=0))
    # the frame count is taken once per utterance (from its first channel row)
    tl.store(part_m + row, tl.sum(fm, axis=0) * (h == 0).to(tl.float32))


@triton.jit
def _kl_finish(part_kl, part_m, out, n, BLOCK: tl.constexpr):
    acc_kl = tl.zeros([BLOCK], dtype=tl.float32)
    acc_m = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        ok = idx < n
        acc_kl += tl.load(part_kl + idx, mask=ok, other=0.0)
        acc_m += tl.load(part_m + idx, mask=ok, other=0.0)
    tl.store(out, tl.sum(acc_kl, axis=0) / tl.sum(acc_m, axis=0))


def run(z_p: torch.Tensor, logs_q: torch.Tensor, m_p: torch.Tensor, logs_p: torch.Tensor,
        z_mask: torch.Tensor) -> torch.Tensor:
    b, h, t = z_p.shape
    n_rows = b * h
    part_kl = torch.empty(n_rows, device=z_p.device, dtype=torch.float32)
    part_m = torch.empty(n_rows, device=z_p.device, dtype=torch.float32)
    out = torch.empty((), device=z_p.device, dtype=torch.float32)
    BT = triton.next_power_of_2(t)
    _kl_partials[(n_rows,)](z_p, logs_q, m_p, logs_p, z_mask, part_kl, part_m, h, t, BT=BT)
    _kl_finish[(1,)](part_kl, part_m, out, n_rows, BLOCK=1024)
    return out
