"""k-selection of a flat inner-product search: each score is packed with its database id into one
int64 key (order-preserving float bits high, inverted id low) so that tl.topk selects values and ids
together; a (query, 4,096-score chunk) grid keeps every chunk's top keys, then one program per query
merges the chunk candidates into the final list."""
import torch
import triton
import triton.language as tl

SCAN_BLOCK = 4096
EMPTY_KEY = -0x7FFFFFFFFFFFFFFF


@triton.jit
def _pack_keys(vals, ids):
    bits = vals.to(tl.int32, bitcast=True)
    ordered = bits ^ ((bits >> 31) & 0x7FFFFFFF)
    return (ordered.to(tl.int64) << 32) | (0x7FFFFFFF - ids).to(tl.int64)


@triton.jit
def _unpack_keys(keys):
    ordered = (keys >> 32).to(tl.int32)
    bits = ordered ^ ((ordered >> 31) & 0x7FFFFFFF)
    return bits.to(tl.float32, bitcast=True), 0x7FFFFFFF - (keys & 0x7FFFFFFF)


@triton.jit
def _merge_best(best, keys, K_PAD: tl.constexpr):
    both = tl.reshape(tl.join(best, tl.topk(keys, K_PAD)), [2 * K_PAD])
    return tl.topk(both, K_PAD)


@triton.jit
def chunk_topk_kernel(scores_ptr, cand_ptr, nb, stride_s, n_cand,
                      K_PAD: tl.constexpr, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    c = tl.program_id(1)
    ids = c * BLOCK + tl.arange(0, BLOCK)
    vals = tl.load(scores_ptr + q.to(tl.int64) * stride_s + ids, mask=ids < nb, other=float("-inf"))
    top = tl.topk(_pack_keys(vals, ids), K_PAD)
    tl.store(cand_ptr + q.to(tl.int64) * n_cand + c * K_PAD + tl.arange(0, K_PAD), top)


@triton.jit
def merge_topk_kernel(cand_ptr, val_ptr, id_ptr, n_cand, k, stride_o, empty_key,
                      K_PAD: tl.constexpr, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    row = cand_ptr + q.to(tl.int64) * n_cand
    best = tl.full([K_PAD], empty_key, tl.int64)
    for start in range(0, n_cand, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        keys = tl.load(row + offs, mask=offs < n_cand, other=empty_key)
        best = _merge_best(best, keys, K_PAD)
    top_vals, top_ids = _unpack_keys(best)
    offs = tl.arange(0, K_PAD)
    tl.store(val_ptr + q * stride_o + offs, top_vals, mask=offs < k)
    tl.store(id_ptr + q * stride_o + offs, top_ids, mask=offs < k)


def run(scores: torch.Tensor, k: int):
    nq, nb = scores.shape
    k_pad = triton.next_power_of_2(k)
    block = max(k_pad, min(SCAN_BLOCK, triton.next_power_of_2(nb)))
    n_chunks = triton.cdiv(nb, block)
    n_cand = n_chunks * k_pad
    vals = torch.empty((nq, k), device=scores.device, dtype=torch.float32)
    ids = torch.empty((nq, k), device=scores.device, dtype=torch.int64)
    cand = torch.empty((nq, n_cand), device=scores.device, dtype=torch.int64)
    opts = {"K_PAD": k_pad, "num_warps": 4}
    chunk_topk_kernel[(nq, n_chunks)](scores, cand, nb, scores.stride(0), n_cand, BLOCK=block, **opts)
    merge_block = max(k_pad, min(SCAN_BLOCK, triton.next_power_of_2(n_cand)))
    merge_topk_kernel[(nq,)](cand, vals, ids, n_cand, k, vals.stride(0), EMPTY_KEY, BLOCK=merge_block, **opts)
    return vals, ids
