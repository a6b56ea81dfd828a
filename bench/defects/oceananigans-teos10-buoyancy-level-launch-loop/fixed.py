"""Seawater buoyancy from the 55-term TEOS-10 polynomial (Oceananigans SeawaterBuoyancy + TEOS10EquationOfState)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _teos10_rho(tau, s, zeta):
    """In-situ density (kg/m^3) of the polyTEOS10 Boussinesq fit, Horner form as in SeawaterPolynomials.jl."""
    r3 = 3.7969820455e-01 * tau - 1.8507636718e-02 * s - 2.3342758797e-02
    r2 = ((-1.2419983026e+00 * tau - 2.1311365518e-01 * s + 2.0564311499e+00) * tau
          + (2.5019633244e+00 * s - 4.9527603989e+00) * s + 2.0660924175e+00)
    r1 = ((((5.5927935970e-01 * tau - 5.5077101279e-01 * s - 2.4649669534e+00) * tau
            + (-1.8795372996e+00 * s + 3.5063081279e+00) * s + 6.7080479603e+00) * tau
           + ((-6.5399043664e-01 * s + 5.0042598061e+00) * s - 4.4870114575e+00) * s - 1.3336301113e+01) * tau
          + (((6.6051753097e+00 * s - 3.0938076334e+01) * s + 5.0774768218e+01) * s - 4.2549998214e+01) * s
          + 1.9681925209e+01)
    r0 = ((((((-1.9083568888e-01 * tau + 4.8169980163e-01 * s + 5.4048723791e-01) * tau
              + (-5.3563304045e+00 * s + 1.1311538584e+01) * s - 8.3627885467e+00) * tau
             + ((-3.1742946532e+00 * s + 1.9717078466e+01) * s - 3.3449108469e+01) * s + 2.1661789529e+01) * tau
            + (((-5.4723692739e+00 * s + 2.9130021253e+01) * s - 6.0362551501e+01) * s + 6.1548258127e+01) * s
            - 3.7074170417e+01) * tau
           + ((((-1.9193502195e+00 * s + 1.7681814114e+01) * s - 5.6888046321e+01) * s + 8.1770425108e+01) * s
              - 6.5281885265e+01) * s + 2.6010145068e+01) * tau
          + (((((-6.0579916612e+01 * s + 4.3227585684e+02) * s - 1.2849161071e+03) * s + 2.0375295546e+03) * s
              - 1.7864682637e+03) * s + 8.6672408165e+02) * s + 8.0189615746e+02)
    r_ref = (((((-1.7243708991e-03 * zeta + 1.5616995503e-02) * zeta + 6.4326772569e-02) * zeta
               + 2.2601900708e-01) * zeta - 5.2099962525e+00) * zeta + 4.6494977072e+01) * zeta
    return r_ref + ((r3 * zeta + r2) * zeta + r1) * zeta + r0


@triton.jit
def _teos10_buoyancy(Theta, SA, zc, b, n_xy, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    k = tl.program_id(1)
    ok = cols < n_xy
    zeta = -tl.load(zc + k) / 1.0e4
    theta = tl.load(Theta + k * n_xy + cols, mask=ok, other=0.0)
    sa = tl.load(SA + k * n_xy + cols, mask=ok, other=35.0)
    tau = theta / 40.0
    s = tl.sqrt((sa + 32.0) / 40.18861714285714)
    rho = _teos10_rho(tau, s, zeta)
    tl.store(b + k * n_xy + cols, -9.80665 * (rho - 1020.0) / 1020.0, mask=ok)


def run(Theta: torch.Tensor, SA: torch.Tensor, zc: torch.Tensor) -> torch.Tensor:
    nz, ny, nx = Theta.shape
    n_xy = ny * nx
    b = torch.empty_like(Theta)
    grid = (triton.cdiv(n_xy, BLOCK), nz)
    _teos10_buoyancy[grid](Theta, SA, zc, b, n_xy, BLOCK=BLOCK, num_warps=4)
    return b
