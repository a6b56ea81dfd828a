"""MMseqs2 local composition-bias correction and bias-corrected profile for a batch of packed queries."""
import torch
import triton
import triton.language as tl

BLOCK = 256
HALF_WINDOW = 20


@triton.jit
def _bias_block(residues, bias_out, profile_out, matrix, p_back, seq_start, seq_len, pos0, scale,
                BLOCK: tl.constexpr, HALF_WINDOW: tl.constexpr, ALPHABET: tl.constexpr, ALPHA_PAD: tl.constexpr):
    i = pos0 + tl.arange(0, BLOCK)                     # residue index inside the sequence
    ok = i < seq_len
    si = tl.load(residues + seq_start + i, mask=ok, other=0).to(tl.int32)
    lo = tl.maximum(i - HALF_WINDOW, 0)
    hi = tl.minimum(i + HALF_WINDOW, seq_len)
    # sum of M[s_i][s_j] over the window, own residue included (removed below)
    neighbour = tl.zeros([BLOCK], dtype=tl.int32)
    for d in range(0, 2 * HALF_WINDOW):
        j = i - HALF_WINDOW + d
        inside = ok & (j >= lo) & (j < hi)
        sj = tl.load(residues + seq_start + j, mask=inside, other=0).to(tl.int32)
        neighbour += tl.load(matrix + si * ALPHABET + sj, mask=inside, other=0).to(tl.int32)
    neighbour -= tl.load(matrix + si * ALPHABET + si, mask=ok, other=0).to(tl.int32)
    # column M[a][s_i] for every letter a: the profile row and the background expectation
    a = tl.arange(0, ALPHA_PAD)
    a_ok = a < ALPHABET
    col = tl.load(matrix + a[None, :] * ALPHABET + si[:, None], mask=ok[:, None] & a_ok[None, :], other=0)
    col = col.to(tl.float32)
    pb = tl.load(p_back + a, mask=a_ok, other=0.0)
    background = tl.sum(col * pb[None, :], axis=1)
    bias = scale * (background - neighbour.to(tl.float32) / tl.maximum(hi - lo, 1).to(tl.float32))
    tl.store(bias_out + seq_start + i, bias, mask=ok)
    prof = profile_out + (seq_start + i)[:, None] * ALPHABET + a[None, :]
    tl.store(prof, col + bias[:, None], mask=ok[:, None] & a_ok[None, :])


@triton.jit
def _composition_bias(residues, bias_out, profile_out, matrix, p_back, seq_start, seq_len, scale,
                      BLOCK: tl.constexpr, HALF_WINDOW: tl.constexpr, ALPHABET: tl.constexpr,
                      ALPHA_PAD: tl.constexpr):
    _bias_block(residues, bias_out, profile_out, matrix, p_back, seq_start, seq_len,
                tl.program_id(0) * BLOCK, scale, BLOCK, HALF_WINDOW, ALPHABET, ALPHA_PAD)


def run(residues: torch.Tensor, offsets: torch.Tensor, matrix: torch.Tensor, p_back: torch.Tensor,
        scale: float) -> tuple:
    n = residues.shape[0]
    alphabet = matrix.shape[0]
    bias = torch.empty(n, device=residues.device, dtype=p_back.dtype)
    profile = torch.empty(n, alphabet, device=residues.device, dtype=p_back.dtype)
    bounds = offsets.tolist()
    for q in range(len(bounds) - 1):
        seq_start, seq_len = bounds[q], bounds[q + 1] - bounds[q]
        _composition_bias[(triton.cdiv(seq_len, BLOCK),)](
            residues, bias, profile, matrix, p_back, seq_start, seq_len, scale,
            BLOCK=BLOCK, HALF_WINDOW=HALF_WINDOW, ALPHABET=alphabet,
            ALPHA_PAD=triton.next_power_of_2(alphabet), num_warps=4)
    return bias, profile
