"""SPONGE Berendsen thermostat on the NPU: kinetic-energy reduction, then temperature, lambda and velocity rescale."""
import torch
import triton
import triton.language as tl

KB = tl.constexpr(0.00198716)
T_REF = tl.constexpr(300.0)
DT_OVER_TAU = tl.constexpr(0.02)
NUM_PROGRAMS = 40  # Atlas A2 (910B4): 40 AI vector cores
BLOCK_ATOMS = 1024
BLOCK_DOF = 4096
MAX_PARTIALS = 64


@triton.jit
def _kinetic_energy(vel, mass, partials, n_atoms, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    c = tl.arange(0, 4)[None, :]
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n_atoms, tl.num_programs(0) * BLOCK):
        a = start + tl.arange(0, BLOCK)
        v = tl.load(vel + a[:, None] * 3 + c, mask=(a[:, None] < n_atoms) & (c < 3), other=0.0)
        m = tl.load(mass + a, mask=a < n_atoms, other=0.0)
        acc += m * tl.sum(v * v, axis=1)
    tl.store(partials + pid, 0.5 * tl.sum(acc, axis=0))


@triton.jit
def _berendsen_rescale(vel, partials, out, temperature, n_partials, n_dof,
                       BLOCK: tl.constexpr, P_BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.arange(0, P_BLOCK)
    ek = tl.sum(tl.load(partials + p, mask=p < n_partials, other=0.0), axis=0)
    temp = 2.0 * ek / (n_dof * KB)
    lam = tl.sqrt(1.0 + DT_OVER_TAU * (T_REF / temp - 1.0))
    lam = tl.minimum(tl.maximum(lam, 0.8), 1.25)
    if pid == 0:
        tl.store(temperature, temp)
    for start in range(pid * BLOCK, n_dof, tl.num_programs(0) * BLOCK):
        k = start + tl.arange(0, BLOCK)
        m = k < n_dof
        tl.store(out + k, tl.load(vel + k, mask=m) * lam, mask=m)


def run(vel: torch.Tensor, mass: torch.Tensor):
    n_atoms = mass.numel()
    n_partials = min(NUM_PROGRAMS, triton.cdiv(n_atoms, BLOCK_ATOMS))
    ek = torch.empty(n_partials, device=vel.device, dtype=torch.float32)
    _kinetic_energy[(n_partials,)](vel, mass, ek, n_atoms, BLOCK=BLOCK_ATOMS)
    out = torch.empty_like(vel)
    temperature = torch.empty(1, device=vel.device, dtype=torch.float32)
    grid = (min(NUM_PROGRAMS, triton.cdiv(vel.numel(), BLOCK_DOF)),)
    _berendsen_rescale[grid](vel, ek, out, temperature, n_partials, vel.numel(), BLOCK=BLOCK_DOF, P_BLOCK=MAX_PARTIALS)
    return out, temperature
