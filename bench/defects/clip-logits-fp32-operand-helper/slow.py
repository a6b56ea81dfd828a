"""CLIP logits as a tiled Triton GEMM whose tile product lives in jit helpers two levels deep."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_operand(ptrs, mask):
    # contrastive logits are sensitive: widen the embeddings before the product
    return tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)


@triton.jit
def _tile_product(img_ptr, txt_ptr, offs_m, offs_n, N, D, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, D, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = _load_operand(img_ptr + offs_m[:, None] * D + offs_k[None, :], (offs_m[:, None] < N) & (offs_k[None, :] < D))
        b = _load_operand(txt_ptr + offs_n[None, :] * D + offs_k[:, None], (offs_n[None, :] < N) & (offs_k[:, None] < D))
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def clip_logits_kernel(img_ptr, txt_ptr, out_ptr, N, D, logit_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(N, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = pid // (GROUP_M * num_n)
    first_m = group * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * num_n)) % size_m
    pid_n = (pid % (GROUP_M * num_n)) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = _tile_product(img_ptr, txt_ptr, offs_m, offs_n, N, D, BLOCK_M, BLOCK_N, BLOCK_K)
    mask = (offs_m[:, None] < N) & (offs_n[None, :] < N)
    tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :], acc * logit_scale, mask=mask)


def run(image_features: torch.Tensor, text_features: torch.Tensor, logit_scale: float) -> torch.Tensor:
    N, D = image_features.shape
    out = torch.empty((N, N), dtype=torch.float32, device=image_features.device)
    bm, bn = 128, 128
    grid = (triton.cdiv(N, bm) * triton.cdiv(N, bn),)
    clip_logits_kernel[grid](image_features, text_features, out, N, D, logit_scale,
                             BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3)
    return out
