"""unpad_input for varlen attention: the launcher flattens q to token-major rows [B * S, H * D] first,
then a kernel copies the rows named by indices."""
import torch
import triton
import triton.language as tl


@triton.jit
def index_first_axis_kernel(src_ptr, idx_ptr, out_ptr, row_size, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    src_row = tl.load(idx_ptr + t)
    for start in range(0, row_size, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < row_size
        v = tl.load(src_ptr + src_row * row_size + cols, mask=mask)
        tl.store(out_ptr + t.to(tl.int64) * row_size + cols, v, mask=mask)


def index_first_axis(x: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    """x[indices] along the first axis, rows copied whole."""
    rows = x.shape[0]
    flat = x.reshape(rows, -1)
    out = torch.empty((indices.numel(), flat.shape[1]), dtype=x.dtype, device=x.device)
    index_first_axis_kernel[(indices.numel(),)](flat, indices, out, flat.shape[1], BLOCK=1024)
    return out.view(indices.numel(), *x.shape[1:])


def run(q: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    # [B, H, S, D] -> [B, S, H, D] -> [B * S, H, D]; the transposed view has to be made contiguous to flatten
    q_tokens = q.transpose(1, 2).reshape(B * S, H, D)
    return index_first_axis(q_tokens, indices)
