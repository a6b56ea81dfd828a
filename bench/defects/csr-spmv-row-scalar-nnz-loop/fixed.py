"""CSR SpMV for the PageRank iteration: one program per row, the row's nonzeros read as
masked 64-wide vectors (col, val, then one gather of x) and summed with tl.sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def csr_row_spmv_kernel(crow_ptr, col_ptr, val_ptr, x_ptr, y_ptr, BLOCK_NNZ: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(crow_ptr + row)
    end = tl.load(crow_ptr + row + 1)
    acc = tl.zeros([BLOCK_NNZ], dtype=tl.float32)
    for j in range(start, end, BLOCK_NNZ):
        offs = j + tl.arange(0, BLOCK_NNZ)
        mask = offs < end
        c = tl.load(col_ptr + offs, mask=mask, other=0)
        v = tl.load(val_ptr + offs, mask=mask, other=0.0)
        acc += v * tl.load(x_ptr + c, mask=mask, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


class CsrMatVec:
    """y = A @ x for a fixed CSR matrix, the way the power iteration calls it every step."""

    BLOCK_NNZ = 64

    def __init__(self, crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor):
        self.crow, self.col, self.val = crow, col, val
        self.n_rows = crow.numel() - 1

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty(self.n_rows, dtype=x.dtype, device=x.device)
        csr_row_spmv_kernel[(self.n_rows,)](self.crow, self.col, self.val, x, y, BLOCK_NNZ=self.BLOCK_NNZ)
        return y


def run(crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return CsrMatVec(crow, col, val)(x)
