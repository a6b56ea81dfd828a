"""k-selection of a flat inner-product search: each score is packed with its database id into one
int64 key (order-preserving float bits high, inverted id low) so that tl.topk selects values and ids
together; each query row is scanned in 4,096-score chunks, merging every chunk's top keys into the
running best list."""
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
def knn_topk_kernel(scores_ptr, val_ptr, id_ptr, nb, k, stride_s, stride_o, empty_key,
                    K_PAD: tl.constexpr, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    row = scores_ptr + q.to(tl.int64) * stride_s
    best = tl.full([K_PAD], empty_key, tl.int64)
    for start in range(0, nb, BLOCK):
        ids = start + tl.arange(0, BLOCK)
        vals = tl.load(row + ids, mask=ids < nb, other=float("-inf"))
        best = _merge_best(best, _pack_keys(vals, ids), K_PAD)
    top_vals, top_ids = _unpack_keys(best)
    offs = tl.arange(0, K_PAD)
    tl.store(val_ptr + q * stride_o + offs, top_vals, mask=offs < k)
    tl.store(id_ptr + q * stride_o + offs, top_ids, mask=offs < k)


def run(scores: torch.Tensor, k: int):
    nq, nb = scores.shape
    k_pad = triton.next_power_of_2(k)
    block = max(k_pad, min(SCAN_BLOCK, triton.next_power_of_2(nb)))
    vals = torch.empty((nq, k), device=scores.device, dtype=torch.float32)
    ids = torch.empty((nq, k), device=scores.device, dtype=torch.int64)
    opts = {"K_PAD": k_pad, "num_warps": 4}
    knn_topk_kernel[(nq,)](scores, vals, ids, nb, k, scores.stride(0), vals.stride(0), EMPTY_KEY,
                           BLOCK=block, **opts)
    return vals, ids
