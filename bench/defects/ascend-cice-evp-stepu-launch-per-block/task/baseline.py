"""CICE EVP subcycle momentum update (stepu, B grid) over all CICE blocks of the domain."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _stepu_kernel(uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery,
                  forcex, forcey, umassdti, fm, uarear, iceumask, strw,
                  uout, vout, sxout, syout,
                  nblocks, nx_block, cells, brlx, revp, BLOCK: tl.constexpr):
    rhow = 1026.0
    cosw = 1.0
    sinw = 0.0
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    m = lane < cells
    m_e = lane < cells - 1                  # (i+1, j)
    m_n = lane < cells - nx_block           # (i, j+1)
    m_ne = lane < cells - nx_block - 1      # (i+1, j+1)
    for b in range(pid, nblocks, nprog):
        o = b * cells + lane
        s = b * 8 * cells + lane
        uold = tl.load(uvel + o, mask=m, other=0.0)
        vold = tl.load(vvel + o, mask=m, other=0.0)
        ui = tl.load(uvel_init + o, mask=m, other=0.0)
        vi = tl.load(vvel_init + o, mask=m, other=0.0)
        a = tl.load(aiu + o, mask=m, other=0.0)
        c_w = tl.load(cw + o, mask=m, other=0.0)
        uo = tl.load(uocn + o, mask=m, other=0.0)
        vo = tl.load(vocn + o, mask=m, other=0.0)
        wx = tl.load(waterx + o, mask=m, other=0.0)
        wy = tl.load(watery + o, mask=m, other=0.0)
        fx = tl.load(forcex + o, mask=m, other=0.0)
        fy = tl.load(forcey + o, mask=m, other=0.0)
        mdti = tl.load(umassdti + o, mask=m, other=0.0)
        f_m = tl.load(fm + o, mask=m, other=0.0)
        rarea = tl.load(uarear + o, mask=m, other=0.0)
        on = tl.load(iceumask + o, mask=m, other=0.0) > 0.5
        # str(:,:,1..8) at (i,j), (i+1,j), (i,j+1), (i+1,j+1)
        s1 = tl.load(strw + s, mask=m, other=0.0)
        s2 = tl.load(strw + s + cells + 1, mask=m_e, other=0.0)
        s3 = tl.load(strw + s + 2 * cells + nx_block, mask=m_n, other=0.0)
        s4 = tl.load(strw + s + 3 * cells + nx_block + 1, mask=m_ne, other=0.0)
        s5 = tl.load(strw + s + 4 * cells, mask=m, other=0.0)
        s6 = tl.load(strw + s + 5 * cells + nx_block, mask=m_n, other=0.0)
        s7 = tl.load(strw + s + 6 * cells + 1, mask=m_e, other=0.0)
        s8 = tl.load(strw + s + 7 * cells + nx_block + 1, mask=m_ne, other=0.0)

        # (magnitude of relative ocean current) * rhow * drag * aice
        vrel = a * rhow * c_w * tl.sqrt((uo - uold) * (uo - uold) + (vo - vold) * (vo - vold))
        taux = vrel * wx
        tauy = vrel * wy
        cca = (brlx + revp) * mdti + vrel * cosw
        ccb = f_m + tl.where(f_m >= 0.0, 1.0, -1.0) * vrel * sinw
        ab2 = cca * cca + ccb * ccb
        strintx = rarea * (s1 + s2 + s3 + s4)
        strinty = rarea * (s5 + s6 + s7 + s8)
        cc1 = strintx + fx + taux + mdti * (brlx * uold + revp * ui)
        cc2 = strinty + fy + tauy + mdti * (brlx * vold + revp * vi)
        unew = (cca * cc1 + ccb * cc2) / ab2
        vnew = (cca * cc2 - ccb * cc1) / ab2
        tl.store(uout + o, tl.where(on, unew, 0.0), mask=m)
        tl.store(vout + o, tl.where(on, vnew, 0.0), mask=m)
        tl.store(sxout + o, tl.where(on, strintx, 0.0), mask=m)
        tl.store(syout + o, tl.where(on, strinty, 0.0), mask=m)


def run(uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery, forcex, forcey,
        umassdti, fm, uarear, iceumask, strw):
    nblocks, ny_block, nx_block = uvel.shape
    cells = ny_block * nx_block
    uout = torch.empty_like(uvel)
    vout = torch.empty_like(vvel)
    sxout = torch.empty_like(uvel)
    syout = torch.empty_like(uvel)
    brlx, revp = 120.0, 0.0          # classic EVP: brlx = ndte, revp = 0
    BLOCK = triton.next_power_of_2(cells)
    grid = (min(_VECTOR_CORES, nblocks),)
    _stepu_kernel[grid](uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery,
                        forcex, forcey, umassdti, fm, uarear, iceumask, strw,
                        uout, vout, sxout, syout,
                        nblocks, nx_block, cells, brlx, revp, BLOCK=BLOCK)
    return uout, vout, sxout, syout
