# backend: cuda
import triton
import triton.language as tl


@triton.jit
def quat_step(state, omega, out, dt, N_SUB: tl.constexpr):
    body = tl.program_id(0)
    w = tl.load(state + body * 4)
    x = tl.load(state + body * 4 + 1)
    y = tl.load(state + body * 4 + 2)
    z = tl.load(state + body * 4 + 3)
    ox = tl.load(omega + body * 3)
    oy = tl.load(omega + body * 3 + 1)
    oz = tl.load(omega + body * 3 + 2)
    for _ in tl.static_range(N_SUB):
        dw = -0.5 * (ox * x + oy * y + oz * z) * dt
        dx = 0.5 * (ox * w + oy * z - oz * y) * dt
        dy = 0.5 * (oy * w + oz * x - ox * z) * dt
        dz = 0.5 * (oz * w + ox * y - oy * x) * dt
        w, x, y, z = w + dw, x + dx, y + dy, z + dz
    tl.store(out + body * 4, w)
    tl.store(out + body * 4 + 1, x)
    tl.store(out + body * 4 + 2, y)
    tl.store(out + body * 4 + 3, z)


def run(state, omega, out, dt):
    quat_step[(state.shape[0],)](state, omega, out, dt, N_SUB=4)  # expect: common-row-per-program
