"""In-situ density anomaly of seawater, Veros `get_rho` with the TEOS-10 48-term expression (`density/gsw.py`).

Veros keeps its tracers on the (x, y, z) grid with z the fastest axis (z index 0 is the deepest level,
zt < 0 the depths of the cell centres). After every tracer step `thermodynamics` refreshes
    rho[x, y, z] = gsw_rho(salt[x, y, z], temp[x, y, z], p = |zt[z]|) * maskT[x, y, z]
where gsw_rho is the computationally efficient 48-term rational function of IOC et al. (2010):
    rho = v_hat_denominator(SA, CT, p) / v_hat_numerator(SA, CT, p) - rho0,   rho0 = 1024 kg m-3,
with the sea pressure in dbar approximated by the depth in metres, as Veros does. Land and below-bottom
cells (maskT = 0) hold zero. Inputs are the current time level (tau) of salt and temp, made contiguous.
"""
import torch

META = {
    "name": "veros_gsw_rho",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 6, "ny": 5, "nz": 7},
        "ragged": {"nx": 9, "ny": 7, "nz": 13},
        "large": {"nx": 360, "ny": 160, "nz": 115},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 water columns x all levels "
                      "([8, next_power_of_2(nz)] tiles, z the contiguous axis); |zt| is loaded once per "
                      "program as a level vector and broadcast over the columns; Horner-form 48-term "
                      "polynomial in fp32, times maskT; no autotune.",
    "deterministic": True,
}

V = [
    9.998420897506056e+2, 2.839940833161907e0, -3.147759265588511e-2, 1.181805545074306e-3,
    -6.698001071123802e0, -2.986498947203215e-2, 2.327859407479162e-4, -3.988822378968490e-2,
    5.095422573880500e-4, -1.426984671633621e-5, 1.645039373682922e-7, -2.233269627352527e-2,
    -3.436090079851880e-4, 3.726050720345733e-6, -1.806789763745328e-4, 6.876837219536232e-7,
    -3.087032500374211e-7, -1.988366587925593e-8, -1.061519070296458e-11, 1.550932729220080e-10,
    1.0e0, 2.775927747785646e-3, -2.349607444135925e-5, 1.119513357486743e-6,
    6.743689325042773e-10, -7.521448093615448e-3, -2.764306979894411e-5, 1.262937315098546e-7,
    9.527875081696435e-10, -1.811147201949891e-11, -3.303308871386421e-5, 3.801564588876298e-7,
    -7.672876869259043e-9, -4.634182341116144e-11, 2.681097235569143e-12, 5.419326551148740e-6,
    -2.742185394906099e-5, -3.212746477974189e-7, 3.191413910561627e-9, -1.931012931541776e-12,
    -1.105097577149576e-7, 6.211426728363857e-10, -1.119011592875110e-10, -1.941660213148725e-11,
    -1.864826425365600e-14, 1.119522344879478e-14, -1.200507748551599e-15, 6.057902487546866e-17,
]
RHO0 = 1024.0


def _vertical_grid(nz: int) -> torch.Tensor:
    """Cell-centre depths zt [nz] (negative, deepest first) of a stretched grid reaching ~5.5 km."""
    dz = torch.linspace(10.0, 85.0, nz, dtype=torch.float64) * (115.0 / max(nz, 1)) ** 0.5
    depth = torch.cumsum(dz, 0) - 0.5 * dz
    return -depth.flip(0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """salt [nx, ny, nz] (g/kg), temp [nx, ny, nz] (degC), zt [nz] (m, < 0), maskT [nx, ny, nz] (0/1)."""
    s = META["sizes"][size]
    nx, ny, nz = s["nx"], s["ny"], s["nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zt = _vertical_grid(nz)
    depth = -zt                                                   # [nz], deepest first
    lat = torch.linspace(-70.0, 70.0, ny, dtype=torch.float64)
    sst = 28.0 * torch.cos(torch.deg2rad(lat)) ** 2 - 1.0        # [ny]
    decay = torch.exp(-depth / 700.0)                             # [nz]
    temp = 1.0 + (sst[None, :, None] - 1.0) * decay[None, None, :]
    temp = temp.expand(nx, ny, nz) + 0.5 * torch.randn(nx, ny, nz, generator=g, dtype=torch.float64)
    salt = 34.7 + 0.8 * decay[None, None, :] * torch.cos(torch.deg2rad(lat))[None, :, None]
    salt = salt.expand(nx, ny, nz) + 0.2 * torch.randn(nx, ny, nz, generator=g, dtype=torch.float64)
    # bathymetry: kbot = index of the deepest wet level + 1 (0 = land), Veros' convention
    shelf = (torch.randn(nx, ny, generator=g).abs() * (nz / 4.0)).long()
    kbot = (1 + shelf).clamp(max=nz)
    kbot[torch.rand(nx, ny, generator=g) < 0.3] = 0
    k = torch.arange(nz)
    mask = ((k[None, None, :] >= kbot[:, :, None] - 1) & (kbot[:, :, None] > 0)).to(torch.float64)
    temp, salt = temp * mask, salt * mask                          # land holds zeros, as in Veros
    return (salt.to(dt).to(device), temp.to(dt).to(device), zt.to(dt).to(device), mask.to(dt).to(device))


def gsw_rho(sa: torch.Tensor, ct: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
    v = [0.0] + V  # 1-based like the Fortran/Veros names v01..v48
    sqrtsa = torch.sqrt(sa)
    den = (v[1] + ct * (v[2] + ct * (v[3] + v[4] * ct))
           + sa * (v[5] + ct * (v[6] + v[7] * ct) + sqrtsa * (v[8] + ct * (v[9] + ct * (v[10] + v[11] * ct))))
           + p * (v[12] + ct * (v[13] + v[14] * ct) + sa * (v[15] + v[16] * ct)
                  + p * (v[17] + ct * (v[18] + v[19] * ct) + v[20] * sa)))
    num = (v[21] + ct * (v[22] + ct * (v[23] + ct * (v[24] + v[25] * ct)))
           + sa * (v[26] + ct * (v[27] + ct * (v[28] + ct * (v[29] + v[30] * ct))) + v[36] * sa
                   + sqrtsa * (v[31] + ct * (v[32] + ct * (v[33] + ct * (v[34] + v[35] * ct)))))
           + p * (v[37] + ct * (v[38] + ct * (v[39] + v[40] * ct)) + sa * (v[41] + v[42] * ct)
                  + p * (v[43] + ct * (v[44] + v[45] * ct + v[46] * sa) + p * (v[47] + v[48] * ct))))
    return den / num - RHO0


def reference(salt: torch.Tensor, temp: torch.Tensor, zt: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    p = zt.double().abs()[None, None, :]
    rho = gsw_rho(salt.double(), temp.double(), p) * mask.double()
    return rho.to(salt.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": 16 * n + 4 * s["nz"], "flops": 95 * n}
