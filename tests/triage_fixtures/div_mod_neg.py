# backend: cuda
# absent: cuda-div-mod-index
import triton
import triton.language as tl


@triton.jit
def grouped(x_ptr, y_ptr, num_pid_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs = pid_m * num_pid_n * BLOCK + pid_n * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))
