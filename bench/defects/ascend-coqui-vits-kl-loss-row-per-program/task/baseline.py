"""VITS KL loss: sum((logs_p - logs_q - 0.5 + 0.5 (z_p - m_p)^2 exp(-2 logs_p)) * mask) / sum(mask)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _kl_partials(z_p, logs_q, m_p, logs_p, mask, part_kl, part_m, H, T, n_hb, n_tiles,
                 BH: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ts = tl.arange(0, BT)
    tmask = ts < T
    acc_kl = tl.zeros([BH, BT], dtype=tl.float32)
    acc_m = tl.zeros([BT], dtype=tl.float32)
    for tile in range(pid, n_tiles, nprog):
        b = tile // n_hb
        hb = tile - b * n_hb
        hs = hb * BH + tl.arange(0, BH)
        hmask = hs < H
        m2 = hmask[:, None] & tmask[None, :]
        offs = (b * H + hs[:, None]) * T + ts[None, :]
        zp = tl.load(z_p + offs, mask=m2, other=0.0)
        lq = tl.load(logs_q + offs, mask=m2, other=0.0)
        mp = tl.load(m_p + offs, mask=m2, other=0.0)
        lp = tl.load(logs_p + offs, mask=m2, other=0.0)
        fm = tl.load(mask + b * T + ts, mask=tmask, other=0.0)
        dz = zp - mp
        kl = lp - lq - 0.5 + 0.5 * dz * dz * tl.exp(-2.0 * lp)
        acc_kl += tl.where(hmask[:, None], kl * fm[None, :], 0.0)
        # the frame count is taken once per utterance (from its first channel block)
        acc_m += fm * (hb == 0).to(tl.float32)
    tl.store(part_kl + pid, tl.sum(tl.sum(acc_kl, axis=1), axis=0))
    tl.store(part_m + pid, tl.sum(acc_m, axis=0))


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
    BH = 4
    BT = triton.next_power_of_2(t)
    n_hb = triton.cdiv(h, BH)
    n_tiles = b * n_hb
    n_prog = min(_VECTOR_CORES, n_tiles)
    part_kl = torch.empty(n_prog, device=z_p.device, dtype=torch.float32)
    part_m = torch.empty(n_prog, device=z_p.device, dtype=torch.float32)
    out = torch.empty((), device=z_p.device, dtype=torch.float32)
    _kl_partials[(n_prog,)](z_p, logs_q, m_p, logs_p, z_mask, part_kl, part_m, h, t, n_hb, n_tiles,
                            BH=BH, BT=BT)
    _kl_finish[(1,)](part_kl, part_m, out, n_prog, BLOCK=1024)
    return out
