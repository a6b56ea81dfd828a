"""CovidSim IncubRecoverySweep on packed person records: latent -> infectious -> recovered/dead, current infectiousness."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_REC = 8            # fp32 words per person record
_TS = 0.25          # days per model time step
_TAU_PEAK = 2.0     # days from infectiousness onset to peak


@triton.jit
def _field(tile, fields, k: tl.constexpr):
    # column k of a [BLOCK, REC] record tile, taken out on chip
    return tl.sum(tile * tl.where(fields == k, 1.0, 0.0)[None, :], axis=1)


@triton.jit
def _incub_recovery_sweep(person, state_out, inf_out, susc_out, N, ts,
                          TS: tl.constexpr, TAU_PEAK: tl.constexpr,
                          REC: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    fields = tl.arange(0, REC).to(tl.float32)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        rec = person + offs[:, None] * REC + tl.arange(0, REC)[None, :]
        tile = tl.load(rec, mask=mask[:, None], other=0.0)
        st = _field(tile, fields, 0)
        lat = _field(tile, fields, 2)
        rcv = _field(tile, fields, 3)
        infn = _field(tile, fields, 4)
        susc = _field(tile, fields, 5)
        die = _field(tile, fields, 6)

        new = tl.where((st == 1.0) & (ts >= lat), 2.0, st)
        new = tl.where((st == 2.0) & (ts >= rcv), tl.where(die > 0.5, 5.0, 4.0), new)
        tau = (ts - lat) * (TS / TAU_PEAK)
        inf_now = tl.where(new == 2.0, infn * tau * tl.exp(1.0 - tau), 0.0)
        susc_now = tl.where(new == 0.0, susc, 0.0)

        tl.store(state_out + offs, new.to(tl.int32), mask=mask)
        tl.store(inf_out + offs, inf_now, mask=mask)
        tl.store(susc_out + offs, susc_now, mask=mask)


def run(person: torch.Tensor, ts: float) -> tuple:
    n = person.shape[0]
    state = torch.empty(n, device=person.device, dtype=torch.int32)
    inf_now = torch.empty(n, device=person.device, dtype=person.dtype)
    susc_now = torch.empty(n, device=person.device, dtype=person.dtype)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _incub_recovery_sweep[grid](person, state, inf_now, susc_now, n, float(ts),
                                TS=_TS, TAU_PEAK=_TAU_PEAK, REC=_REC, BLOCK=BLOCK)
    return state, inf_now, susc_now
