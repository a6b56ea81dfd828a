"""MinHash signatures (datatrove MinhashDedupSignature) over padded shingle-hash rows."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _minhash_signature(shingles, lengths, perm_a, perm_b, sig, D, P, L, stride_s, stride_o,
                       BP: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    perms = tl.arange(0, BP)
    pmask = perms < P
    a = tl.load(perm_a + perms, mask=pmask, other=0)[:, None]
    b = tl.load(perm_b + perms, mask=pmask, other=0)[:, None]
    cols = tl.arange(0, BL)
    for doc in range(pid, D, nprog):
        row = shingles + doc * stride_s
        n = tl.load(lengths + doc)
        # MinHash is idempotent: lanes past the end repeat the first shingle instead of masking the min.
        first = tl.load(row)
        best = tl.full([BP], 0x7FFFFFFF, tl.int32)
        for start in range(0, n, BL):
            offs = start + cols
            x = tl.load(row + offs, mask=offs < n, other=first)
            h = (a * x[None, :] + b) & 0x7FFFFFFF
            best = tl.minimum(best, tl.min(h, axis=1))
        tl.store(sig + doc * stride_o + perms, best, mask=pmask)


def run(shingles: torch.Tensor, lengths: torch.Tensor, perm_a: torch.Tensor,
        perm_b: torch.Tensor) -> torch.Tensor:
    D, L = shingles.shape
    P = perm_a.numel()
    sig = torch.empty((D, P), device=shingles.device, dtype=torch.int32)
    BP = triton.next_power_of_2(P)
    grid = (min(_VECTOR_CORES, D),)
    _minhash_signature[grid](shingles, lengths, perm_a, perm_b, sig, D, P, L,
                             shingles.stride(0), sig.stride(0), BP=BP, BL=64)
    return sig
