"""Delta-gamma scenario P&L per desk (MC VaR): pnl = dx @ delta^T + 0.5 * dx^2 @ gamma^T, persistent over output tiles."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Atlas A2 (910B): 20 AI cube cores, 40 AI vector cores


@triton.jit
def _delta_gamma_pnl(shocks, delta, gamma, pnl, S, F, D, tiles_d, n_tiles,
                     BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        ts = tile // tiles_d
        td = tile % tiles_d
        rows = ts * BLOCK_S + tl.arange(0, BLOCK_S)
        desks = td * BLOCK_D + tl.arange(0, BLOCK_D)
        acc = tl.zeros((BLOCK_S, BLOCK_D), dtype=tl.float32)
        for f0 in range(0, F, BLOCK_F):
            fs = f0 + tl.arange(0, BLOCK_F)
            fmask = fs < F
            x = tl.load(shocks + rows[:, None] * F + fs[None, :],
                        mask=(rows[:, None] < S) & fmask[None, :], other=0.0)
            dl = tl.load(delta + desks[:, None] * F + fs[None, :],
                         mask=(desks[:, None] < D) & fmask[None, :], other=0.0)
            gm = tl.load(gamma + desks[:, None] * F + fs[None, :],
                         mask=(desks[:, None] < D) & fmask[None, :], other=0.0)
            term = dl[None, :, :] + 0.5 * x[:, None, :] * gm[None, :, :]
            acc += tl.sum(x[:, None, :] * term, axis=2)
        tl.store(pnl + rows[:, None] * D + desks[None, :], acc,
                 mask=(rows[:, None] < S) & (desks[None, :] < D))


def run(shocks: torch.Tensor, delta: torch.Tensor, gamma: torch.Tensor) -> torch.Tensor:
    S, F = shocks.shape
    D = delta.shape[0]
    pnl = torch.empty(S, D, device=shocks.device, dtype=torch.float32)
    BLOCK_S, BLOCK_D, BLOCK_F = 16, 16, 32
    tiles_d = triton.cdiv(D, BLOCK_D)
    n_tiles = triton.cdiv(S, BLOCK_S) * tiles_d
    grid = (min(n_tiles, NUM_CORES),)
    _delta_gamma_pnl[grid](shocks, delta, gamma, pnl, S, F, D, tiles_d, n_tiles,
                           BLOCK_S=BLOCK_S, BLOCK_D=BLOCK_D, BLOCK_F=BLOCK_F)
    return pnl
