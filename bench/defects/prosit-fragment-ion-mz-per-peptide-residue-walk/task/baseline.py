"""Prosit fragment-ion m/z: b and y ions (charges 1-3) of every peptide in the 174-slot layout."""
import torch
import triton
import triton.language as tl

PROTON = tl.constexpr(1.007276467)
H2O = tl.constexpr(18.0105647)
MAX_SEQUENCE = 30
MAX_ION = MAX_SEQUENCE - 1
BLOCK_N = 32


@triton.jit
def _fragment_mz(seq, charge, aa_mass, out, n_pep,
                 MAX_LEN: tl.constexpr, N_ION: tl.constexpr, LEN_POW2: tl.constexpr, BLOCK_N: tl.constexpr):
    peps = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    pos = tl.arange(0, LEN_POW2)
    pep_ok = peps < n_pep
    in_row = pep_ok[:, None] & (pos[None, :] < MAX_LEN)
    row = seq + peps[:, None] * MAX_LEN
    dst = out + peps[:, None] * (N_ION * 6) + pos[None, :] * 6
    z_prec = tl.load(charge + peps, mask=pep_ok, other=0)
    codes = tl.load(row + pos[None, :], mask=in_row, other=0)
    length = tl.sum((codes != 0).to(tl.int32), axis=1)
    # N-terminal (b) and C-terminal (y) running masses of the whole block as two row scans
    fwd = tl.cumsum(tl.load(aa_mass + codes), axis=1)
    back = length[:, None] - 1 - pos[None, :]
    codes_rev = tl.load(row + back, mask=in_row & (back >= 0), other=0)
    bwd = tl.cumsum(tl.load(aa_mass + codes_rev), axis=1)
    ion_ok = pos[None, :] < length[:, None] - 1
    keep = pep_ok[:, None] & (pos[None, :] < N_ION)
    for z in tl.static_range(1, 4):
        ok = ion_ok & (z_prec[:, None] >= z)
        tl.store(dst + (z - 1), tl.where(ok, (bwd + H2O + z * PROTON) * (1.0 / z), -1.0), mask=keep)
        tl.store(dst + (2 + z), tl.where(ok, (fwd + z * PROTON) * (1.0 / z), -1.0), mask=keep)


def run(seq: torch.Tensor, charge: torch.Tensor, aa_mass: torch.Tensor) -> torch.Tensor:
    n = seq.shape[0]
    out = torch.empty((n, MAX_ION * 6), device=seq.device, dtype=torch.float32)
    _fragment_mz[(triton.cdiv(n, BLOCK_N),)](seq, charge, aa_mass, out, n, MAX_LEN=MAX_SEQUENCE, N_ION=MAX_ION,
                                             LEN_POW2=triton.next_power_of_2(MAX_SEQUENCE), BLOCK_N=BLOCK_N,
                                             num_warps=4)
    return out
