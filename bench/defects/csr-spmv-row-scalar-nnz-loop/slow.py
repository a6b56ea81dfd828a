"""CSR SpMV for the PageRank iteration, ported from the one-thread-per-row CUDA kernel:
one program per row, walking the row's nonzeros in a loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def csr_row_spmv_kernel(crow_ptr, col_ptr, val_ptr, x_ptr, y_ptr):
    row = tl.program_id(0)
    start = tl.load(crow_ptr + row)
    end = tl.load(crow_ptr + row + 1)
    acc = 0.0
    for j in range(start, end):
        c = tl.load(col_ptr + j)
        acc += tl.load(val_ptr + j) * tl.load(x_ptr + c)
    tl.store(y_ptr + row, acc)


class CsrMatVec:
    """y = A @ x for a fixed CSR matrix, the way the power iteration calls it every step."""

    def __init__(self, crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor):
        self.crow, self.col, self.val = crow, col, val
        self.n_rows = crow.numel() - 1

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty(self.n_rows, dtype=x.dtype, device=x.device)
        csr_row_spmv_kernel[(self.n_rows,)](self.crow, self.col, self.val, x, y)
        return y


def run(crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return CsrMatVec(crow, col, val)(x)
