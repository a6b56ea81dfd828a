# backend: ascend
# absent: common-loop-invariant-work
import triton
import triton.language as tl


@triton.jit
def decay_state_kernel(x_ptr, state_ptr, T, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    for t in range(T):
        # read back what the previous step stored: not the same value every step
        h = tl.load(state_ptr + offs)
        tl.store(state_ptr + offs, 0.9 * h + tl.load(x_ptr + t * N + offs))


def run(x, state):
    T, N = x.shape
    decay_state_kernel[(N // 1024,)](x, state, T, N, BLOCK=1024)
    return state
