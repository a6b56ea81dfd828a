# backend: cuda
# absent: common-row-per-program
import triton
import triton.language as tl


@triton.jit
def discounted_sum(rewards, out, horizon, gamma):
    env = tl.program_id(0)
    acc = 0.0
    for t in range(horizon):
        r = tl.load(rewards + env * horizon + horizon - 1 - t)
        acc = r + gamma * acc
        tl.store(out + env * horizon + horizon - 1 - t, acc)


@triton.jit
def quat_step_lanes(state, out, n, BLOCK: tl.constexpr):
    body = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = body < n
    w = tl.load(state + body * 4, mask=ok, other=1.0)
    x = tl.load(state + body * 4 + 1, mask=ok, other=0.0)
    norm = tl.sqrt(w * w + x * x)
    tl.store(out + body * 4, w / norm, mask=ok)
    tl.store(out + body * 4 + 1, x / norm, mask=ok)


def run(rewards, out, horizon, gamma, state, out2):
    discounted_sum[(rewards.shape[0],)](rewards, out, horizon, gamma)
    quat_step_lanes[(triton.cdiv(state.shape[0], 128),)](state, out2, state.shape[0], BLOCK=128)
