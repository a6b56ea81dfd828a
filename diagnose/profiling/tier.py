"""Tier 2 of the ladder, profiling: where the time goes and against which ceiling.

Reads the runner's bench JSON (timings per size, cost, measured ceilings), its profile JSON
(ncu counters or msprof files) and, on Ascend, msprof op / torch_npu CSVs; returns a TierResult.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from diagnose.evidence import Finding, TierResult
from diagnose.profiling.msprof import AscendKernel, MsprofError, read_kernels

from .ascend import AscendCores, kernel_findings
from .inputs import (
    BenchRun,
    ImplTime,
    MeasuredCeilings,
    ProfileError,
    ProfileRun,
    SizeTiming,
    read_bench,
    read_profile,
)
from .ncu import CounterFacts, counter_facts
from .roofline import (
    COMPUTE,
    LAUNCH,
    MEMORY,
    OCCUPANCY,
    RooflinePlace,
    hotspot,
    launch_floor,
    place,
    place_all,
)
from .rules import Context, counter_findings, roofline_finding

TIER, TIER_NAME = 2, "profiling"
BACKENDS = ("cuda", "ascend")
SUFFICIENT_CONFIDENCE = 0.8
COMPETING_CONFIDENCE = 0.5
NO_DATA = ("no GPU/NPU timings: run `python -m diagnose.runner bench TASK` (and `profile TASK --size "
           "SIZE`) on the device host and pass its JSON with --runner-json")


def profile_tier(bench: dict | None, profile: dict | None, *, backend: str,
                 msprof: str | Path | dict[str, str] | None = None,
                 ascend_cores: AscendCores | None = None) -> TierResult:
    """Tier 2 over the runner's bench and profile JSON (either may be None) for `backend`.

    On Ascend, `msprof` is an OPPROF folder, a kernel_details.csv, or {file name: CSV text};
    without it the profile JSON's msprof files are read when they exist on this host.
    """
    started = time.perf_counter()
    if backend not in BACKENDS:
        raise ProfileError(f"Unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")
    run = read_bench(bench) if bench is not None else None
    prof = read_profile(profile) if profile is not None else None
    skip = _skip_reason(run, prof, backend, msprof)
    if skip:
        return TierResult(TIER, TIER_NAME, skipped=True, skip_reason=skip,
                          elapsed_s=round(time.perf_counter() - started, 4))
    notes: list[str] = []
    findings = _device_findings(run, prof, backend, notes)
    if backend == "ascend":
        findings += _ascend_findings(prof, msprof, ascend_cores or _cores(profile),
                                     _profiled_names(profile), notes)
    findings.sort(key=lambda f: -f.confidence)
    sufficient, reason = _sufficiency(findings, backend)
    if notes:
        reason += " " + " ".join(notes)
    return TierResult(TIER, TIER_NAME, findings, sufficient, reason,
                      elapsed_s=round(time.perf_counter() - started, 4))


def _skip_reason(run: BenchRun | None, prof: ProfileRun | None, backend: str, msprof: Any) -> str:
    if backend == "ascend" and (msprof is not None or (prof is not None and prof.files)):
        return ""
    if run is None and (prof is None or not prof.timing_us):
        return NO_DATA
    if run is not None and run.interpreted:
        return ("the bench ran in the Triton interpreter on CPU, so its times measure the interpreter, "
                "not a kernel: " + NO_DATA)
    if run is not None and not place_all(run, backend) and prof is None:
        causes = sorted({f"{p.size}: {p.candidate.cause or p.candidate.status}"
                         for p in run.points if p.candidate and p.candidate.status != "ok"})
        return ("the candidate has no successful timing in the bench report"
                + (f" ({'; '.join(causes)})" if causes else "") + "; fix it with `runner verify` first")
    return ""


def _device_findings(run: BenchRun | None, prof: ProfileRun | None, backend: str,
                     notes: list[str]) -> list[Finding]:
    """Roofline findings per size, then the profiled size's counter findings."""
    places = place_all(run, backend) if run else []
    if not places and prof is not None and prof.timing_us:
        places = [_place_from_profile(prof, backend)]
        notes.append("No bench report: the profiled size stands in for the hotspot.")
    device_name = run.device_name if run else ""
    facts = counter_facts(prof, device_name) if prof is not None else None
    if prof is not None and facts is None and prof.profiler != "msprof":
        notes.append(f"No hardware counters ({prof.reason or 'profiler gave none'}).")
    _mark_occupancy_limited(places, facts)
    _unmark_launch_bound(places, facts, backend, notes)
    hot = hotspot(places)
    ctx = Context(task=run.task if run else (prof.task if prof else "?"), backend=backend,
                  hotspot_size=hot.size if hot else None,
                  all_launch_bound=bool(places) and all(p.kernel_class == LAUNCH for p in places))
    findings = [roofline_finding(p, facts, ctx) for p in places]
    if facts is not None:
        at_size = next((p for p in places if p.size == facts.size), None)
        findings += counter_findings(at_size, facts, ctx)
    return findings


def _mark_occupancy_limited(places: list[RooflinePlace], facts: CounterFacts | None) -> None:
    """Counters can re-class a size: few warps resident while neither DRAM nor SMs are busy."""
    if facts is None or not (facts.occupancy_low and facts.units_idle):
        return
    for p in places:
        if p.size == facts.size and p.kernel_class != LAUNCH and not p.near_ceiling:
            p.kernel_class = OCCUPANCY


def _unmark_launch_bound(places: list[RooflinePlace], facts: CounterFacts | None, backend: str,
                         notes: list[str]) -> None:
    """A size the wall-clock time calls launch-bound is not, when the profiler shows the
    kernels themselves running well past the roofline floor: the GPU time, which holds no
    launch cost, already explains the gap."""
    if facts is None or facts.device_us is None:
        return
    for p in places:
        if p.size != facts.size or p.kernel_class != LAUNCH:
            continue
        if facts.device_us - (p.floor_us or 0.0) > launch_floor(backend) / 2:
            p.kernel_class = MEMORY if p.bound == "memory" else COMPUTE if p.bound else p.kernel_class
            notes.append(f"Size {p.size} looked launch-bound by wall time, but its kernels run "
                         f"{facts.device_us:.1f} us on the GPU for {p.floor_us or 0:.1f} us of "
                         "roofline work: the kernel, not the launch, is slow.")


def _place_from_profile(prof: ProfileRun, backend: str) -> RooflinePlace:
    point = SizeTiming(prof.size, prof.dtype, None, None, {"candidate": ImplTime("ok", prof.timing_us)})
    return place(point, MeasuredCeilings("", False, None, {}), backend)


def _ascend_findings(prof: ProfileRun | None, msprof: Any, cores: AscendCores, names: list[str],
                     notes: list[str]) -> list[Finding]:
    source = msprof if msprof is not None else _local_msprof(prof, notes)
    if source is None:
        return []
    try:
        kernels = read_kernels(source, names or None)
    except MsprofError as exc:
        notes.append(f"msprof output unreadable: {exc}")
        return []
    hot = _ascend_hotspot(kernels)
    task = prof.task if prof else "?"
    out: list[Finding] = []
    for k in kernels:
        out += kernel_findings(k, cores, task, hotspot=k is hot)
    if cores.cube is None and cores.vector is None:
        notes.append("Core counts unknown: block-dim findings left out (pass ascend_cores).")
    return out


def _ascend_hotspot(kernels: list[AscendKernel]) -> AscendKernel | None:
    return max(kernels, key=lambda k: k.total_us) if kernels else None


def _local_msprof(prof: ProfileRun | None, notes: list[str]) -> Path | None:
    """The OPPROF folder named in the profile JSON, when this host can read it."""
    if prof is None or not prof.files:
        return None
    folders = {Path(f).parent for f in prof.files}
    present = [d for d in folders if d.is_dir()]
    if not present:
        notes.append(f"The msprof CSVs ({prof.files[0]} ...) are on the NPU host; copy its OPPROF "
                     "folder here and pass it as msprof.")
        return None
    return min(present, key=lambda d: len(d.parts))


def _profiled_names(profile: dict | None) -> list[str]:
    """The candidate's kernel names from the runner's msprof command (--kernel-name=a|b)."""
    command = ((profile or {}).get("counters") or {}).get("command") or []
    for arg in command:
        if isinstance(arg, str) and arg.startswith("--kernel-name="):
            return [n for n in arg.split("=", 1)[1].split("|") if n]
    return []


def _cores(profile: dict | None) -> AscendCores:
    info = (profile or {}).get("device_info") or {}
    return AscendCores(cube=info.get("num_aicore"), vector=info.get("num_vectorcore"))


def _sufficiency(findings: list[Finding], backend: str) -> tuple[bool, str]:
    """Enough alone only when the hotspot's evidence names one family with confidence and the
    numbers say why; Ascend evidence, never run on hardware, is never enough."""
    hot = [f for f in findings if f.evidence.get("hotspot")] or findings
    ranked = [f for f in hot if f.rewrite_family] or hot
    if not ranked:
        return False, "No timing could be placed on the roofline; tier 3 must locate the cost."
    top = ranked[0]
    if not top.rewrite_family:
        why = top.evidence.get("why") or f"a {top.kind} kernel has no tuning family among the pattern cards"
        return False, f"Hotspot: {top.message} No rewrite family: {why}."
    rivals = sorted({f.rewrite_family for f in ranked[1:]
                     if f.rewrite_family and f.rewrite_family != top.rewrite_family
                     and f.confidence >= COMPETING_CONFIDENCE})
    if backend == "ascend" and any(f.evidence.get("verified_on_hardware") is False for f in findings):
        return False, (f"{top.message} Leading hypothesis {top.rewrite_family} rests on Ascend "
                       "profiler columns read from the documentation, not verified on hardware; "
                       "tier 3 must confirm it.")
    if top.confidence < SUFFICIENT_CONFIDENCE:
        return False, (f"Hotspot points to {top.rewrite_family} with confidence {top.confidence:.2f} "
                       f"< {SUFFICIENT_CONFIDENCE}: {top.message} Needs: "
                       f"{'; '.join(top.evidence_needed) or 'IR attribution (tier 3)'}.")
    if rivals:
        return False, f"{top.rewrite_family} leads but competes with {', '.join(rivals)}; tier 3 must decide."
    return True, f"{top.message} The numbers narrow the change to {top.rewrite_family}."
