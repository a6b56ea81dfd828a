"""Prosit fragment-ion m/z: b and y ions (charges 1-3) of every peptide in the 174-slot layout."""
import torch
import triton
import triton.language as tl

PROTON = tl.constexpr(1.007276467)
H2O = tl.constexpr(18.0105647)
MAX_SEQUENCE = 30
MAX_ION = MAX_SEQUENCE - 1


@triton.jit
def _fragment_mz(seq, charge, aa_mass, out, n_pep,
                 MAX_LEN: tl.constexpr, N_ION: tl.constexpr):
    pep = tl.program_id(0)
    row = seq + pep * MAX_LEN
    dst = out + pep * (N_ION * 6)
    z_prec = tl.load(charge + pep)
    length = 0
    for k in range(MAX_LEN):
        length += (tl.load(row + k) != 0).to(tl.int32)
    # walk the residues once, carrying the N-terminal (b) and C-terminal (y) running masses
    fwd = 0.0
    bwd = 0.0
    for i in range(0, length - 1):
        fwd += tl.load(aa_mass + tl.load(row + i))
        bwd += tl.load(aa_mass + tl.load(row + (length - 1 - i)))
        for z in tl.static_range(1, 4):
            ok = z_prec >= z
            tl.store(dst + i * 6 + (z - 1), tl.where(ok, (bwd + H2O + z * PROTON) * (1.0 / z), -1.0))
            tl.store(dst + i * 6 + (2 + z), tl.where(ok, (fwd + z * PROTON) * (1.0 / z), -1.0))
    for i in range(length - 1, N_ION):
        for c in tl.static_range(6):
            tl.store(dst + i * 6 + c, -1.0)


def run(seq: torch.Tensor, charge: torch.Tensor, aa_mass: torch.Tensor) -> torch.Tensor:
    n = seq.shape[0]
    out = torch.empty((n, MAX_ION * 6), device=seq.device, dtype=torch.float32)
    _fragment_mz[(n,)](seq, charge, aa_mass, out, n, MAX_LEN=MAX_SEQUENCE, N_ION=MAX_ION)
    return out
