"""The CPU trace: what the kernel's memory accesses do when a few of its programs run in Triton's
interpreter, turned into hypotheses with the share of the traffic they explain.

Pattern triage reads how the source is written; the trace reads what it does, however it is
written: a sector efficiency of 1/16 is a column walk whether the stride came from a tuple, a
helper or a launcher three calls away. The child (trace_child.py) runs the task's launcher at
the diagnosis size with every launch cut to a handful of sampled programs (first, next along
each axis, middle, last); this side estimates each access's traffic over the whole grid and
names the families whose mechanism that traffic shows:

    uncoalesced     an affine access with no unit-stride axis touching >= 2x the sectors its
                    bytes need                              -> coalesce-contiguous-axis
    atomic-funnel   atomics whose lanes share few addresses -> tree-reduction-not-atomics
    atomic-scatter  one atomic per element over many addresses -> aggregate-before-atomics
    sorted keys     atomics addressed through an integer load whose values come sorted, in runs
                    (in a tile, or one key per program across the sampled programs)
                                                            -> segment-reduce-sorted-keys
    split-k         atomics in a launch with a tl.dot        -> drop-split-k
    global-rmw      a load and a store of the same addresses every loop step
                                                            -> keep-accumulator-in-registers
    underfill       fewer programs than SMs moving most bytes -> split-work-across-programs
    launch-loop     one kernel launched >= 8 times by one call -> one-launch-over-grid
    round trip      a later launch of another kernel loading what an earlier one stored or
                    loaded                                  -> fuse-launches
    reread          a program reading the same span through two lines, or neighbouring
                    programs looping over the same >= 16 KB (no tl.dot) -> compute-stats-once
    idle-lanes      most lanes of the traffic masked off     -> block-size-tuning / skip-masked-tiles
    dropped steps   a tl.where in a dot loop keeping no lane on most steps -> skip-masked-tiles
    host            fills the kernels only store over, copies and casts, read-backs (these
                    weighed in time: stalls against the traffic and launches at full speed)
                    -> allocate-empty-output, drop-host-copies / cast-inside-kernel, avoid-host-sync
    small steps     Ascend only: loops of >= 16 steps moving <= 2 KB each, most of the traffic
                                                            -> block-size-tuning (ranks only)
    operands        an fp32 tl.dot fed by 16-bit loads; a rank-3 broadcast pair; a cast to fp64
                    -> lower-precision-dot, use-dot-for-broadcast-sum, lower-precision-math
    walks           one-element loads and stores repeated per program; a table every program
                    loads whole, step by step   -> use-associative-scan, binary-search-sorted-bounds

The estimates are the traced size's bytes (sectors x 32 B), not times: each hypothesis carries
its share of the launch's sector traffic, and its confidence grows with that share.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from diagnose.evidence import Finding
from diagnose.triage.detectors.compute import converts_to, stored_only
from diagnose.triage.detectors.launch import (
    AI_CORES,
    HOPPER_SMS,
    VECTOR_CORES,
    carried_names,
    fills_a_part,
)
from diagnose.triage.detectors.memory import MEMORY_OPS, bound_to_call, depends_on
from diagnose.triage.detectors.model import (
    JitKernel,
    KernelModule,
    ShapeInference,
    build_model,
    call_name,
    names_in,
)

from .trace_child import MAX_KEPT_EXECS

T = TypeVar("T")
HERE = Path(__file__).resolve().parent
CHILD = HERE / "trace_child.py"
SM_COUNT = HOPPER_SMS  # H200 (sm_90)
UNITS = {"cuda": (SM_COUNT, "SM GPU"), "ascend": (VECTOR_CORES, "vector-core Atlas A2")}  # what a grid fills
SECTOR = 32
# rough H200 figures for weighing host stalls against kernel work (not a time prediction)
BANDWIDTH = 4.0e12      # bytes/s a memory-bound kernel reaches
LAUNCH_SECONDS = 3e-6   # a launch's minimum on the GPU
SYNC_SECONDS = 10e-6    # a device-to-host read-back: drain, copy, and relaunch latency
LAUNCH_LOOP = 8
STARVED_SHARE = 0.5  # of the kernels' time, weighed by fill: a kernel's starved launches that matter
# and each launch's starved pass has to outlast a few launches' fixed cost (~3 us on a GPU, ~10 us
# on an NPU): a few programs padding a few KB finish in the launch's shadow, whatever their share
STARVED_SECONDS = {"cuda": 12e-6, "ascend": 40e-6}
STARVED_BANDWIDTH = {"cuda": BANDWIDTH, "ascend": 1.6e12}
BASE_CONFIDENCE = 0.35  # a trace hypothesis explaining little traffic: below any confident idiom
SHARE_CONFIDENCE = 0.3  # added in proportion to the share of the traffic it explains


class TraceError(Exception):
    """The trace could not run (no task to make inputs from, the launcher failed, a timeout)."""


def _key(task_dir: Path, kernel: Path, size: str) -> str:
    digest = hashlib.sha256(f"{size}|trace".encode())
    for file in [kernel, CHILD, *sorted(task_dir.rglob("*.py"))]:
        digest.update(file.read_bytes())
    return digest.hexdigest()[:32]


def run_trace(task_dir: Path, kernel: Path, size: str = "large", timeout: float = 240.0,
              python: str | None = None) -> dict[str, Any]:
    """The child's report for `kernel` launched by its task at `size` (cached under
    PASSWISE_CAPTURE_CACHE when set). Raises TraceError with one sentence when it cannot run."""
    if not (task_dir / "task.py").exists():
        raise TraceError(f"no task.py in {task_dir} to make inputs from")
    cache = os.environ.get("PASSWISE_CAPTURE_CACHE")
    cached = Path(cache) / f"trace-{_key(task_dir, kernel, size)}.json" if cache else None
    if cached is not None and cached.exists():
        return json.loads(cached.read_text())
    with tempfile.TemporaryDirectory(prefix="passwise-trace-") as tmp:
        out = Path(tmp) / "trace.json"
        cmd = [python or os.environ.get("PASSWISE_CUDA_PYTHON") or sys.executable, str(CHILD),
               "--kernel", str(kernel), "--task-dir", str(task_dir), "--size", size, "--out", str(out)]
        env = {**os.environ, "TRITON_INTERPRET": "1"}
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise TraceError(f"the CPU trace of {kernel.name} ran past {timeout:.0f} s") from None
        if not out.exists():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise TraceError(f"the CPU trace of {kernel.name} failed: {tail[0][:200]}")
        report = json.loads(out.read_text())
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(report))
        os.replace(partial, cached)  # as the capture cache: a reader never sees half an entry
    return report


# ---------------------------------------------------------------- traffic over the whole grid

def programs(launch: dict) -> int:
    """Programs a traced launch ran (its grid's size)."""
    grid = launch.get("grid") or [1, 1, 1]
    n = 1
    for g in grid:
        n *= max(int(g), 1)
    return n


def _per_program(access: dict) -> float:
    """Active bytes one program moves through this access (mean over the sampled programs)."""
    sampled = max(len(access.get("execs") or [1]), 1)
    return access["active"] * access["elem_bytes"] / sampled


def _efficiency(access: dict) -> float:
    return access["ideal_sectors"] / access["sectors"] if access.get("sectors") else 1.0


def traffic(report: dict) -> list[dict]:
    """Each access with its whole-grid bytes and sector traffic at the traced size."""
    launches = report.get("launches") or []
    counts = report.get("launch_count") or {}
    rows = []
    for access in report.get("accesses") or []:
        if access["launch"] >= len(launches):
            continue
        launch = launches[access["launch"]]
        repeats = counts.get(launch["kernel"], 1) / max(
            sum(1 for x in launches if x["kernel"] == launch["kernel"]), 1)
        useful = _per_program(access) * programs(launch) * repeats
        rows.append({**access, "programs": programs(launch), "repeats": repeats, "useful_bytes": useful,
                     "sector_bytes": useful / max(_efficiency(access), 1e-6),
                     "efficiency": _efficiency(access)})
    return rows


def kernel_shares(report: dict) -> dict[str, tuple[float, float]]:
    """Per traced kernel, its share of the run's sector traffic and of its element operations
    (each launch's sampled programs' mean, times its programs and its untraced repeats). A kernel
    with a truncated launch is left out: its sampled programs did not show all their work."""
    launches = report.get("launches") or []
    counts = report.get("launch_count") or {}
    ops: dict[str, float] = {}
    cut: set[str] = set()
    for launch in launches:
        kernel = launch.get("kernel")
        tally = [t[0] for t in launch.get("tally") or [] if t]
        if launch.get("truncated") or not tally:
            cut.add(kernel)
            continue
        repeats = counts.get(kernel, 1) / max(sum(1 for x in launches if x.get("kernel") == kernel), 1)
        ops[kernel] = ops.get(kernel, 0.0) + sum(tally) / len(tally) * programs(launch) * repeats
    total_ops = sum(ops.values()) or 1.0
    moved = byte_shares(report)
    return {k: (moved.get(k, 0.0), ops[k] / total_ops) for k in ops if k not in cut}


def byte_shares(report: dict) -> dict[str, float]:
    """Per traced kernel, its share of the run's sector traffic at the traced size."""
    rows = traffic(report)
    total = sum(r["sector_bytes"] for r in rows) or 1.0
    shares: dict[str, float] = {}
    for r in rows:
        shares[r["kernel"]] = shares.get(r["kernel"], 0.0) + r["sector_bytes"] / total
    return shares


# ---------------------------------------------------------------- hypotheses

def _finding(card: str, family: str, message: str, share: float, row: dict | None,
             path: str, facts: dict[str, Any], **flags: bool) -> Finding:
    """`flags` go into the evidence: `of_time` (the share is of all the kernels' time, not of
    the bytes), `ranks_only` (tuning: ranks beside the idioms, never overrules one)."""
    location = {"path": path}
    if row is not None:
        location.update({"function": row.get("function"), "line": row.get("line")})
    confidence = round(BASE_CONFIDENCE + SHARE_CONFIDENCE * min(max(share, 0.0), 1.0), 3)
    return Finding(tier=1, kind="trace", card_id=card, rewrite_family=family, message=message,
                   confidence=confidence, location=location,
                   evidence={"traced": True, "share": round(share, 3), "facts": facts, **flags},
                   evidence_needed=[])


def trace_findings(report: dict, kernel: Path, backend: str = "cuda") -> list[Finding]:
    """Hypotheses the traced accesses support, the costliest first (see the module's table).
    On Ascend (the same portable Triton traced in the interpreter) a CUDA card is replaced by its
    Ascend twin and its family; one without a twin (a GPU-only mechanism) is dropped."""
    rows = [r for r in traffic(report) if r["file"] != "?"]
    total = sum(r["sector_bytes"] for r in rows) or 1.0
    path = str(kernel)
    found: list[Finding] = []
    for row in rows:
        share = row["sector_bytes"] / total
        where = f"line {row['line']} ({row['op']} in {row['function']})"
        # on Ascend weighed apart, all of them together, in element transfers (_discrete_findings)
        if _strided(row) and backend != "ascend" and share >= STRIDED_SHARE:
            found.append(_finding(
                "cuda-strided-fast-axis", "coalesce-contiguous-axis",
                f"Traced on the CPU, the {row['op']} at {where} steps {row['strides']} elements "
                f"along its tile's axes (no unit stride), so a warp touches "
                f"{1 / row['efficiency']:.0f}x the 32-byte sectors its bytes need; it carries "
                f"{share:.0%} of the kernel's sector traffic.", share, row, path,
                {"strides": row["strides"], "efficiency": round(row["efficiency"], 3)}))
        if row["op"] == "atomic" and _has_dot(report, row["launch"]):
            found.append(_finding(
                "cuda-split-k-atomics", "drop-split-k",
                f"Traced on the CPU, the GEMM launch adds its partial tiles into the output with "
                f"atomics at {where}: the K dimension is split across programs.",
                max(share, 0.5), row, path, {"line": row["line"]}))
        elif row["op"] == "atomic":
            lanes = max(row["active"] / max(sum(row["execs"]), 1), 1.0)
            atomics = (lanes * sum(row["execs"]) / max(len(row["execs"]), 1) * row["programs"]
                       * row["repeats"])
            # an atomic every sampled lane of every program sends to one word is addressed by no
            # key, whatever sorted integers the launch also reads: it is a reduction
            keys = None if _one_word(row) else _sorted_keys(rows, row["launch"])
            own = _own_address_runs(row)
            table = _small_table(row, own)
            if atomics >= 4096 and keys is None and own is not None and table is not None:
                found.append(_finding(
                    "common-scatter-atomics", "aggregate-before-atomics",
                    f"Traced on the CPU, the atomic at {where} keeps coming back to the same "
                    f"{table['addresses']:,} addresses: each program sends about "
                    f"{table['revisits']:.0f} separate runs of lanes to each of them, so the "
                    f"runs are a few bins filled over and over, not sorted keys; about "
                    f"{atomics:,.0f} atomics over the grid that a per-program table would "
                    "add up first.", max(share, 0.7), row, path,
                    {"atomics": int(atomics), "addresses": table["addresses"],
                     "revisits": round(table["revisits"], 1)}))
            elif atomics >= 4096 and keys is None and own is not None:
                found.append(_finding(
                    "common-sorted-key-atomics", "segment-reduce-sorted-keys",
                    f"Traced on the CPU, the atomic at {where} sends neighbouring lanes to the same "
                    f"address, in sorted runs of about {own['mean_run']:.0f} lanes: about "
                    f"{atomics:,.0f} atomics over the grid add runs that already sit together.",
                    max(share, 0.7), row, path, {"atomics": int(atomics), "mean_run": own["mean_run"]}))
            elif atomics >= 4096 and keys is not None:
                runs = ("neighbouring programs read the same key" if keys["keys"].get("across_programs")
                        else f"about {keys['keys']['mean_run']:.0f} per distinct key")
                found.append(_finding(
                    "common-sorted-key-atomics", "segment-reduce-sorted-keys",
                    f"Traced on the CPU, the atomic at {where} is addressed through keys that "
                    f"line {keys['line']} reads in sorted order, {runs}: about {atomics:,.0f} "
                    "atomics over the grid add runs that already sit together.", max(share, 0.7), row, path,
                    {"atomics": int(atomics), "key_line": keys["line"],
                     "mean_run": keys["keys"]["mean_run"]}))
            elif atomics >= 4096 and row["distinct_in_exec"] * 8 <= lanes:
                found.append(_finding(
                    "cuda-atomic-reduction", "tree-reduction-not-atomics",
                    f"Traced on the CPU, the atomic at {where} sends {lanes:.0f} lanes to "
                    f"{row['distinct_in_exec']} address(es) per step, about {atomics:,.0f} "
                    "atomics over the grid that serialise on the same words.",
                    max(share, 0.5), row, path, {"atomics": int(atomics)}))
            elif atomics >= 65536:
                found.append(_finding(
                    "common-scatter-atomics", "aggregate-before-atomics",
                    f"Traced on the CPU, the atomic at {where} issues one atomic per element, "
                    f"about {atomics:,.0f} over the grid.", max(share, 0.4), row, path,
                    {"atomics": int(atomics)}))
        if row["op"] == "load" and len(row["unique_bytes"]) and row["execs"] and \
                min(row["execs"]) > 1 and _rmw(row, rows):
            # each step waits for the store of the step before to land before its load can
            # start: the whole loop runs one memory round trip at a time, not this load alone
            looped = _serialised_share(row, rows, total)
            found.append(_finding(
                "cuda-global-accumulator", "keep-accumulator-in-registers",
                f"Traced on the CPU, {where} reads back what the kernel stored a step or two "
                f"before, on every one of its {max(row['execs'])} loop steps: each step waits "
                f"for a memory round trip, and the loop's accesses ({looped:.0%} of the traffic) "
                "wait with it.", max(looped, 0.3), row, path,
                {"steps": max(row["execs"]), "loop_share": round(looped, 3)}))
    found += _strided_group_findings(rows, total, path, backend)
    found += _launch_findings(report, rows, total, path, backend)
    found += _reread_findings(report, rows, total, path)
    found += _round_trip_findings(report, rows, total, path, backend)
    found += _host_findings(report, rows, total, path)
    found += _dot_findings(report, rows, path)
    found += _idle_lane_findings(rows, total, path)
    found += _note_findings(report, path, rows, total)
    found += _walk_findings(report, rows, total, path)
    found += _growing_walk_findings(report, rows, total, path)
    found += _dropped_step_findings(report, rows, total, path)
    found += _retired_lane_findings(report, rows, total, path)
    found += _zero_product_findings(report, rows, total, path)
    found += _blind_program_findings(report, rows, total, path)
    found += _empty_program_findings(report, rows, total, path)
    found += _shared_operand_findings(report, rows, total, path)
    if backend == "ascend":
        found += _small_tile_findings(rows, total, path)
        found += _discrete_findings(rows, total, path)
    if backend != "cuda":
        found = _for_backend(found, backend)
    best: dict[str, Finding] = {}
    for f in found:
        if f.rewrite_family not in best or f.confidence > best[f.rewrite_family].confidence:
            best[f.rewrite_family] = f
    return sorted(best.values(), key=lambda f: -f.confidence)


def _strided_group_findings(rows: list[dict], total: float, path: str, backend: str) -> list[Finding]:
    """Strided accesses none of which carries STRIDED_SHARE of the traffic alone, but which do
    together (a stencil's taps, each a load of its own line, all stepping along the slow axis):
    one finding at the costliest of them, weighed by their sum."""
    strided = [r for r in rows if _strided(r)]
    if backend == "ascend" or any(r["sector_bytes"] / total >= STRIDED_SHARE for r in strided):
        return []
    strided = [r for r in strided if not _record_field(r, strided)]
    if len(strided) < 2:
        return []
    share = sum(r["sector_bytes"] for r in strided) / total
    if share < STRIDED_SHARE:
        return []
    worst = max(strided, key=lambda r: r["sector_bytes"])
    lines = sorted({r["line"] for r in strided})
    return [_finding(
        "cuda-strided-fast-axis", "coalesce-contiguous-axis",
        f"Traced on the CPU, {len(strided)} accesses of {worst['function']} (lines "
        f"{', '.join(map(str, lines))}) step {worst['strides']} elements along their tiles' axes "
        f"(no unit stride), so a warp touches up to {1 / worst['efficiency']:.0f}x the 32-byte "
        f"sectors their bytes need; together they carry {share:.0%} of the kernel's sector traffic.",
        share, worst, path, {"strides": worst["strides"], "efficiency": round(worst["efficiency"], 3),
                             "lines": lines})]


def _record_field(row: dict, strided: list[dict]) -> bool:
    """`row` reads one field of an array of records whose other fields sibling accesses of the
    same launch read: the same stride, a start less than one stride away (a stencil's taps
    start whole strides apart). The sectors one field's lanes leave unused, the next fields'
    use, so their sum is not wasted traffic, when the fields together fill at least half of what
    a lane's sector holds of its record (x, y, z of 12-byte points do; the real and imaginary
    parts of one complex value in a row kilobytes long use 8 of each 32-byte sector)."""
    span, reach = _span(row), row["strides"][0] * row["elem_bytes"] if row["strides"] else 0
    if span is None:
        return False
    starts = {span[0]} | {s[0] for o in strided
                          if o is not row and o["launch"] == row["launch"] and o["strides"] == row["strides"]
                          and (s := _span(o)) is not None and 0 < abs(s[0] - span[0]) < abs(reach)}
    return len(starts) > 1 and len(starts) * row["elem_bytes"] >= 0.5 * min(abs(reach), SECTOR)


STRIDED_SHARE = 0.2  # of the sector traffic: a strided access (or a group of them) worth a finding


def _strided(row: dict) -> bool:
    """A tile access with no unit-stride axis using at most half of each sector it touches."""
    return (row["op"] in ("load", "store") and row["affine"] and row["unit_axis"] is None
            and row["efficiency"] <= 0.5 and max(row["shape"] or [1]) > 1)


def contiguous_at(rows: list[dict], function: str | None, line: int | None) -> bool | None:
    """What the trace measured (`traffic` rows) of the accesses at one source line: True when
    every one of them uses more than half of the 32-byte sectors it touches (neighbouring lanes
    read neighbouring addresses, whether or not the addresses are affine in the lane), False
    when one does not, None when the trace saw no access there."""
    at = [r for r in rows if r["line"] == line and r["op"] in ("load", "store")
          and (function is None or r["function"] == function) and max(r["shape"] or [1]) > 1]
    if not at:
        return None
    return all(r["efficiency"] > 0.5 for r in at)


OUTER_WORK = 32  # outer-operation elements per element a launch moves: the launch is ALU-bound


def outer_work_lines(report: dict) -> dict[int, str]:
    """The source lines where a launch's rank-2 outer operations (a[:, None] op b[None, :], kept
    in registers) outnumber the lanes of the launch's loads and stores (masked or not: a mask
    built by an outer compare has a tile's lanes) at least OUTER_WORK times:
    the launch's time is that arithmetic, not its traffic. Line -> what was measured; the lines
    that called a helper holding such a line are included (the source names the call)."""
    moved: dict[int, int] = {}  # lanes, masked or not: a masked-off lane still costs its step
    for a in report.get("accesses") or []:
        moved[a["launch"]] = moved.get(a["launch"], 0) + a.get("lanes", 0)
    lines: dict[int, str] = {}
    for note in report.get("notes") or []:
        if note["kind"] != "outer" or note["file"] == "?":
            continue
        ratio = note.get("elements", 0) / max(moved.get(note["launch"], 0), 1)
        if ratio >= OUTER_WORK:
            what = (f"the CPU trace counted {ratio:,.0f} elements of the outer operation at line "
                    f"{note['line']} per lane its launch loads or stores: the launch is bound "
                    "by that arithmetic, not by its traffic")
            for line in [note["line"], *(note.get("callers") or [])]:
                lines.setdefault(line, what)
    return lines


SERIAL_WALK = 256  # one-element loads a program makes in turn, at least: a serial walk
STEP_NS = 500.0  # a dependent one-element global load: the latency each step of a walk waits
CONCURRENT = {"cuda": SM_COUNT * 8, "ascend": VECTOR_CORES}  # programs whose walks overlap


def _walk_ns(row: dict, backend: str) -> float:
    """The latency of a program's walk of one-element loads at `row`: STEP_NS a step, programs
    overlapping up to CONCURRENT."""
    execs = row["execs"] or [0]
    return sum(execs) / len(execs) * STEP_NS * max(1.0, row["programs"] / CONCURRENT.get(backend, CONCURRENT["cuda"]))


# A short one-pass program's latency on the GPU: its block's start, a load's round trip, the
# reduction or math that waits on it, and the store (four dependent global accesses' worth).
PROGRAM_NS = 4 * STEP_NS
BLOCKS_PER_SM, WARPS_PER_SM = 32, 64  # sm_90's limits on resident blocks and warps
DEFAULT_WARPS = 4


def program_overhead_share(count: int, num_warps: int | None, sector_bytes: float) -> float:
    """The share of a launch's time that is its programs' own latency rather than its bytes: the
    grid runs in waves of as many programs as the SMs hold at once, each wave PROGRAM_NS long,
    against the launch's traffic at full bandwidth. A rough model, to weigh readings in one unit
    (time), not a prediction."""
    resident = SM_COUNT * min(BLOCKS_PER_SM, WARPS_PER_SM // max(num_warps or DEFAULT_WARPS, 1))
    programs_ns = math.ceil(count / max(resident, 1)) * PROGRAM_NS
    bytes_ns = sector_bytes / (BANDWIDTH / 1e9)
    return round(max(0.0, 1.0 - bytes_ns / programs_ns), 3) if programs_ns else 0.0


def serial_walk_lines(report: dict, backend: str = "cuda") -> dict[int, tuple[str, float]]:
    """The source lines of one-element loads a program makes one after another, hundreds of times,
    whose latency (STEP_NS a step, programs overlapping up to CONCURRENT) outweighs the launch's
    traffic at full bandwidth: the launch's time is the walk's dependent steps, not its bytes.
    Line -> (what was measured, the traffic's share of the time: what a share of bytes is worth)."""
    rows = traffic(report)
    lines: dict[int, tuple[str, float]] = {}
    for r in rows:
        execs = r["execs"] or [0]
        steps = sum(execs) / len(execs)
        if r["op"] != "load" or r["lanes"] > sum(execs) or steps < SERIAL_WALK or r["file"] == "?":
            continue
        walk_ns = _walk_ns(r, backend)
        bytes_ns = sum(x["sector_bytes"] for x in rows if x["launch"] == r["launch"]) / (BANDWIDTH / 1e9)
        if walk_ns >= bytes_ns:
            lines.setdefault(r["line"], (
                f"the CPU trace counted about {steps:,.0f} one-element loads a program at line "
                f"{r['line']}, each waiting on the last: about {walk_ns / 1e3:,.0f} us of latency "
                f"against {bytes_ns / 1e3:,.0f} us for the launch's traffic at full bandwidth",
                bytes_ns / (bytes_ns + walk_ns)))
    return lines


DOMINANT_WALK = 0.9  # of the time a walk and every launch's traffic take together


def walk_shares(report: dict, backend: str = "cuda", walks: dict | None = None) -> dict[int, float]:
    """The lines of serial walks (serial_walk_lines, or `walks` when the caller read them) and the
    share of the time their dependent steps take of the time they and the traffic of every traced
    launch take together. A walk the tracer cut short (a program past its work budget) is
    measured in part: its share is a floor."""
    rows = traffic(report)
    everything_ns = sum(x["sector_bytes"] for x in rows) / (BANDWIDTH / 1e9)
    shares: dict[int, float] = {}
    for line in (serial_walk_lines(report, backend) if walks is None else walks):
        for r in rows:
            if r["line"] == line and r["op"] == "load":
                walk_ns = _walk_ns(r, backend)
                shares[line] = max(shares.get(line, 0.0), round(walk_ns / (walk_ns + everything_ns), 3))
    return shares


def dominant_walks(report: dict, backend: str = "cuda") -> set[int]:
    """The lines of serial walks whose dependent steps take at least DOMINANT_WALK of the time
    (walk_shares): the walk is the task's time, and what saves bytes anywhere saves little."""
    return {line for line, share in walk_shares(report, backend).items() if share >= DOMINANT_WALK}


def _sorted_keys(rows: list[dict], launch: int) -> dict | None:
    """The integer load of `launch` that reads sorted keys with runs (every checked execution
    non-decreasing, at least two addresses per distinct key on average), if there is one."""
    for r in rows:
        k = r.get("keys")
        if (r["launch"] == launch and r["op"] == "load" and k and k["execs"] >= 2
                and k["sorted"] == k["execs"] and k["mean_run"] >= 2):
            return r
    return None


def _one_word(row: dict) -> bool:
    """Every active lane of every sampled program reaches the same address (a grid-wide total):
    each program's lowest and highest address are one, and the same in every program."""
    spans = {tuple(s) for s in row.get("spans") or []}
    return len(spans) == 1 and None not in next(iter(spans)) and len(set(next(iter(spans)))) == 1


SORTED_RUN_EXECS = 0.75  # share of an atomic's checked steps whose lanes reach sorted addresses


def _own_address_runs(row: dict) -> dict | None:
    """An atomic whose addresses the data chose (no affine stride) and whose lanes, in order,
    reach non-decreasing addresses in runs of two or more on most checked steps, with at least
    two addresses a step (one address for every lane is a reduction, not runs of keys)."""
    runs = row.get("address_runs")
    if row.get("affine") or not runs or runs["execs"] < 2:
        return None
    if runs["sorted"] < SORTED_RUN_EXECS * runs["execs"] or runs["mean_run"] < 2 or runs["min_distinct"] < 2:
        return None
    return runs


REVISITED_RUNS = 4  # separate runs per address and program that make a table of bins


def _small_table(row: dict, runs: dict | None) -> dict | None:
    """Runs of lanes to one address that come back to it again and again within a program: the
    program's atomics reach few distinct bytes (`unique_bytes`) for all they request, at least
    REVISITED_RUNS runs per address (a histogram into a few bins whose lanes happen to arrive
    grouped). Sorted keys reach each address in about one run, then move on."""
    unique, requested = row.get("unique_bytes") or [], row.get("requested_bytes") or []
    if runs is None or not unique or not requested or min(unique) <= 0:
        return None
    hits = sum(requested) / sum(unique)  # requests per distinct byte, per program
    revisits = hits / max(runs["mean_run"], 1.0)
    if revisits < REVISITED_RUNS:
        return None
    return {"addresses": int(max(unique) // max(row.get("elem_bytes") or 4, 1)), "revisits": revisits}


def _has_dot(report: dict, launch: int) -> bool:
    return any(d["launch"] == launch for d in report.get("dots") or [])


# A value stored and read back through memory is one a register could carry when the load
# reads it within a few executions of the store: a running accumulator rereads the tile it
# stored one step before, a recurrence ported through scratch the row of the step before. A
# load that cycles over more tiles than this before it comes back (a DP row of M cells, reread
# M steps later) holds more than registers carry, and is not read as an accumulator.
CARRY_STEPS = 8


def _rmw(load: dict, rows: list[dict]) -> bool:
    """A store of the same launch, repeated every loop step with the load's strides, whose
    bytes the load reads back within CARRY_STEPS executions: the same addresses cycling over
    a few tiles (a running accumulator), or the store's addresses one or two steps behind (a
    recurrence carried through memory: the load at step t reads what step t - 1 stored)."""
    own = _span(load)
    if own is None:
        return False
    for r in rows:
        if not (r["op"] == "store" and r["launch"] == load["launch"] and min(r["execs"]) > 1
                and r["strides"] == load["strides"]) or (span := _span(r)) is None:
            continue
        if span == own and _tiles(load) <= CARRY_STEPS:
            return True
        step = (r.get("step") or [0])[0]
        if step and (load.get("step") or [0])[0] == step and any(
                own == (span[0] - d * step, span[1] - d * step) for d in (1, 2)):
            return True
    return False


def _serialised_share(load: dict, rows: list[dict], total: float) -> float:
    """The share of the traffic in the loop a carried load serialises: the accesses of its
    launch that run at least as often per program (its loop's body and the loops inside)."""
    steps = load["execs"][0]
    return sum(r["sector_bytes"] for r in rows if r["launch"] == load["launch"]
               and r["execs"] and r["execs"][0] >= steps) / total


def _tiles(row: dict) -> float:
    """How many distinct tiles the first sampled program's kept executions of an access touch
    (its distinct bytes over the bytes one execution asks for)."""
    kept = min(row["execs"][0], MAX_KEPT_EXECS) if row["execs"] else 0
    requested = row["requested_bytes"][0] if row.get("requested_bytes") else 0
    if not kept or not requested:
        return math.inf
    return row["unique_bytes"][0] / (requested / kept)


# The Ascend cards that name a traced mechanism the CUDA card names (tests/test_trace.py checks
# that each exists for Ascend); CUDA cards not listed (an fp32 tl.dot, fp64 math, split-K,
# a global accumulator) are left out of an Ascend diagnosis.
ASCEND_TWINS = {"cuda-strided-fast-axis": "ascend-strided-fast-axis",
                "cuda-atomic-reduction": "ascend-atomic-reduction",
                "cuda-small-grid-underfill": "ascend-small-grid-underfill",
                "cuda-broadcast-matmul": "ascend-broadcast-matmul",
                "cuda-global-accumulator": "ascend-global-accumulator",
                "cuda-split-k-atomics": "ascend-split-k-partials"}


# An Atlas A2 moving a tile with no unit-stride axis: one scalar-issued transfer per element
# (about 10 cycles at 1.8 GHz on each of the 48 vector cores), against HBM at about 1.6 TB/s.
DISCRETE_NS = 5.5
NPU_BYTES_PER_NS = 1600.0


def _discrete_findings(rows: list[dict], total: float, path: str) -> list[Finding]:
    """Ascend: tiles with no unit-stride axis move one element per transfer. Their element
    transfers, all of them together, are weighed in time against the rest of the traffic moving
    at full bandwidth (one finding, at the costliest such access)."""
    strided = [r for r in rows if _strided(r)]
    if not strided:
        return []

    def element_ns(r: dict) -> float:
        return r["useful_bytes"] / max(r["elem_bytes"], 1) * DISCRETE_NS / VECTOR_CORES
    spent = sum(element_ns(r) for r in strided)
    rest_ns = max(total - sum(r["sector_bytes"] for r in strided), 0.0) / NPU_BYTES_PER_NS
    share = spent / max(spent + rest_ns, 1e-9)
    if share < 0.2:
        return []
    row = max(strided, key=element_ns)
    others = f" and {len(strided) - 1} more such access(es)" if len(strided) > 1 else ""
    return [_finding(
        "cuda-strided-fast-axis", "coalesce-contiguous-axis",
        f"Traced on the CPU, the {row['op']} at line {row['line']} ({row['op']} in {row['function']}) "
        f"steps {row['strides']} elements along its tile's axes (no unit stride){others}: the NPU "
        f"moves them one element per transfer, about {share:.0%} of the kernels' time against the "
        "rest of the traffic at full bandwidth.", share, row, path,
        {"strides": row["strides"], "efficiency": round(row["efficiency"], 3), "weighed": "time",
         "accesses": len(strided)})]


def _for_backend(found: list[Finding], backend: str) -> list[Finding]:
    from diagnose.triage import load_cards  # the cards know each twin's family

    family = {c.id: c.rewrite_family for c in load_cards(backend)}
    out = []
    for f in found:
        card = ASCEND_TWINS.get(f.card_id, f.card_id) if f.card_id.startswith("cuda-") else f.card_id
        if card in family:
            f.card_id, f.rewrite_family = card, family[card]
            out.append(f)
    return out


def _launch_findings(report: dict, rows: list[dict], total: float, path: str,
                     backend: str = "cuda") -> list[Finding]:
    units, machine = UNITS.get(backend, UNITS["cuda"])
    found = []
    sources: dict[str, dict[tuple[int, str], int]] = {}  # each kernel file's memory calls, read once
    for kernel, count in (report.get("launch_count") or {}).items():
        if count >= LAUNCH_LOOP:
            share = sum(r["sector_bytes"] for r in rows if r["kernel"] == kernel) / total
            found.append(_finding(
                "common-launch-loop", "one-launch-over-grid",
                f"Traced on the CPU, one call of the launcher launches {kernel} {count} times.",
                max(share, 0.5), None, path, {"kernel": kernel, "launches": count}))
    for index, launch in enumerate(report.get("launches") or []):
        count = programs(launch)
        if backend == "ascend":  # a kernel with a tl.dot runs on the cube cores, half as many
            units, machine = (AI_CORES, "AI-core Atlas A2") if _has_dot(report, index) else UNITS["ascend"]
        mine = [r for r in rows if r["launch"] == index]
        launch_bytes = sum(r["sector_bytes"] for r in mine)
        share = launch_bytes / total
        idle = share * (1 - count / units)  # the machine the grid leaves idle, weighed
        moved = sum(_per_program(r) for r in mine)
        once = all(max(r["execs"] or [1]) <= _static_execs(r, path, sources) for r in mine)
        limit = SHORT_CORE_PROGRAM_BYTES if backend == "ascend" else SHORT_PROGRAM_BYTES
        if count >= SHORT_PROGRAMS_PER_UNIT * units and once and 0 < moved <= limit and share >= 0.5:
            said = f"each of the {count:,} programs of {launch['kernel']} moves about {moved:,.0f} bytes " \
                "in one pass, with no loop"
            if backend == "ascend":
                # programs are bound to the physical cores: each of the grid's rounds starts a
                # program and runs its loads, math and stores one after another, with no loop
                # whose next step's transfer could overlap this one's compute
                card, family, message = "ascend-grid-exceeds-cores", "grid-size-cores", (
                    f"Traced in the interpreter, {said}: the {units} {machine}s run them in "
                    f"{count // units:,} rounds, each paying a program's start and an un-overlapped "
                    f"load, compute and store for that little data ({share:.0%} of the traffic).")
            else:
                card, family, message = "common-row-per-program", "multi-row-programs", (
                    f"Traced on the CPU, {said}: a program's setup and its reduction tail are paid "
                    f"for that little data ({share:.0%} of the traffic).")
            # how to give a program more work (a bigger block, more rows, fewer programs that
            # loop) is the source idiom's to say, and the grid's rounds are overhead beside the
            # bytes: this ranks, it does not overrule a confirmed idiom of the traffic
            facts = {"kernel": launch["kernel"], "programs": count, "bytes_per_program": round(moved)}
            if backend == "cuda":
                facts["overhead_share"] = program_overhead_share(count, launch.get("num_warps"), launch_bytes)
            found.append(_finding(card, family, message, share, None, path, facts, ranks_only=True))
        fills = backend == "ascend" and fills_a_part(count, _has_dot(report, index))
        if count < units and share >= 0.5 and launch.get("grid") and not fills:
            found.append(_finding(
                "cuda-small-grid-underfill", "split-work-across-programs",
                f"Traced on the CPU, {launch['kernel']} runs {count} program(s) on a "
                f"{units}-{machine} while it moves {share:.0%} of the traffic.", idle, None, path,
                {"kernel": launch["kernel"], "programs": count}))
    said = {f.evidence["facts"].get("kernel") for f in found if f.rewrite_family == "split-work-across-programs"}
    return found + [f for f in _starved_kernels(report, rows, path, backend) if f.evidence["facts"]["kernel"] not in said]


def _starved_kernels(report: dict, rows: list[dict], path: str, backend: str) -> list[Finding]:
    """Kernels whose every launch runs fewer programs than the machine has units, weighed by
    time rather than bytes: a launch's bytes take `bytes / fill` of the full machine's time,
    since a program streams at about one unit's share of the bandwidth (one program reducing a
    whole vector, 30 MB at one SM's pace, outlasts a full-grid pass over 220 MB). A kernel taking
    at least half the time that way, though it moves a minor share of the bytes, is the cost, when
    each of its launches takes STARVED_SECONDS at that pace. A kernel launched in a loop is marked
    `looped`: one launch over the loop's grid fills the machine too, unless the loop cannot be one
    launch (the ladder keeps the reading only then)."""
    times: dict[str, float] = {}
    small: dict[str, int] = {}
    counts = report.get("launch_count") or {}
    total = 0.0
    for index, launch in enumerate(report.get("launches") or []):
        units = UNITS.get(backend, UNITS["cuda"])[0]
        if backend == "ascend" and _has_dot(report, index):
            units = AI_CORES
        count = programs(launch)
        moved = sum(r["sector_bytes"] for r in rows if r["launch"] == index)
        fill = min(1.0, count / units)
        seconds = moved / fill
        total += seconds
        name = launch["kernel"]
        times[name] = times.get(name, 0.0) + seconds
        fills = backend == "ascend" and fills_a_part(count, _has_dot(report, index))
        slow = seconds / STARVED_BANDWIDTH.get(backend, BANDWIDTH) >= STARVED_SECONDS.get(backend, 12e-6)
        if count < units and launch.get("grid") and not fills and slow and small.get(name, count) == count:
            small[name] = count
        else:
            small[name] = -1  # a launch of it fills the machine (or grids differ): not starved
    found = []
    for name, count in small.items():
        share = times[name] / total if total else 0.0
        if count > 0 and share >= STARVED_SHARE:
            found.append(_finding(
                "cuda-small-grid-underfill", "split-work-across-programs",
                f"Traced on the CPU, every launch of {name} runs {count} program(s): at one "
                f"unit's pace its bytes take about {share:.0%} of the kernels' time, weighed by "
                "how much of the machine each launch fills.", share, None, path,
                {"kernel": name, "programs": count,
                 **({"looped": looped} if (looped := counts.get(name, 1)) >= LAUNCH_LOOP else {})},
                of_time=True))
    return found


def _calls_by_line(file: str) -> dict[tuple[int, str], int]:
    """(line, memory op) -> how many such calls the source has on that line (atomics of every
    kind count as "atomic", as the trace names them); empty when the file cannot be read."""
    try:
        tree = ast.parse(Path(file).read_text())
    except (OSError, SyntaxError, ValueError):
        return {}
    counts: dict[tuple[int, str], int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MEMORY_OPS:
            key = (node.lineno, "atomic" if node.func.attr.startswith("atomic") else node.func.attr)
            counts[key] = counts.get(key, 0) + 1
    return counts


def _static_execs(row: dict, kernel: str, sources: dict[str, dict[tuple[int, str], int]]) -> int:
    """How often one program runs this access with no loop around it: once per call of its op
    on the line, times the call sites of the @triton.jit helper that holds it (a helper that
    loads a vertex's three coordinates, called for four vertices, runs twelve loads). The
    source is read from the diagnosed kernel's path when the trace ran a file of its name
    (a cached trace may name another checkout's copy), once per file (`sources`)."""
    file = row.get("file") or ""
    file = kernel if Path(file).name == Path(kernel).name else file
    if file not in sources:
        sources[file] = _calls_by_line(file)
    return sources[file].get((row["line"], row["op"]), 1) * max(len(row.get("site_spans") or {}), 1)


def _span(row: dict) -> tuple[int, int] | None:
    """The first sampled program's lowest and highest active address through this access."""
    spans = row.get("spans") or []
    if not spans or spans[0][0] is None:
        return None
    return int(spans[0][0]), int(spans[0][1])


def _sites(row: dict) -> list[tuple[tuple[int, str], tuple[int, int] | None]]:
    """((line, call path), span) per place an access runs from: one per call path when a helper
    holding it was called from several lines of the first sampled program (one helper called
    twice passes over its bytes twice through one line), else the access's own span."""
    spans = row.get("site_spans") or {}
    if len(spans) >= 2:
        return [((row["line"], path.split(",")[0]), (int(lo), int(hi)) if lo is not None else None)
                for path, (lo, hi) in spans.items()]
    return [((row["line"], ""), _span(row))]


def _overlaps(a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool:
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


def _reread_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """Loads at different lines of one launch reading the same bytes: the program passes over
    its data more than once; or neighbouring programs looping over the same bytes (no tl.dot in
    the launch, whose tiles share operands by design): each redoes one slice's pass."""
    by_launch: dict[int, list[dict]] = {}
    for r in rows:
        if r["op"] == "load" and r["affine"] and _span(r) is not None:
            by_launch.setdefault(r["launch"], []).append(r)
    found = []
    for loads in by_launch.values():
        groups: dict[tuple, list[tuple]] = {}  # the same bytes, read from two or more sites
        for r in loads:
            for site, span in _sites(r):
                if span is not None:
                    groups.setdefault(span, []).append((site, r))
        groups = {k: g for k, g in groups.items() if len({site for site, _ in g}) >= 2}
        passes = list({id(r): r for g in groups.values() for _, r in g}.values())
        if not passes:
            continue
        share = sum(r["sector_bytes"] for r in passes) / total
        most = max(groups.values(), key=lambda g: len({site for site, _ in g}))
        sites = sorted({site for site, _ in most})
        lines = sorted({line for line, _ in sites})
        where = (f"lines {', '.join(map(str, lines))} each read" if len(lines) == len(sites) else
                 f"line {lines[0]}, called from lines {', '.join(c for _, c in sites if c)}, reads")
        if share >= 0.5:
            launch = passes[0]["launch"]
            if _stores_little(rows, launch):  # passes that only reduce: one sweep carries them all
                card, family, what = ("common-two-pass-max-sum", "online-row-reduction",
                                      "and stores only what it reduces: one sweep carrying running "
                                      "statistics reads it once")
            else:
                card, family, what = ("common-redundant-across-programs", "compute-stats-once",
                                      "a statistic recomputed from the data it then uses")
            found.append(_finding(
                card, family,
                f"Traced on the CPU, {where} the same bytes: every program passes over its data "
                f"{len(sites)} times, {what}.",
                share * (1 - 1 / len(sites)), passes[0], path, {"lines": lines}))
    multiplied = _when_asked(lambda: _multiplied_loads(path))

    for r in rows:  # neighbouring programs looping over the same bytes: a slice redone per program
        shared = max((r.get("overlap_next") or {}).values(), default=0.0)
        share = r["sector_bytes"] / total
        # most of the addresses shared, or half of them by a load run many times per tile the
        # program writes (each program re-reading the tiles before its own, a prefix rebuilt)
        overlapping = shared >= 0.9 or (shared >= 0.5 and _loads_per_store(r, rows) >= REREADS_PER_STORE)
        if not (r["op"] == "load" and overlapping and min(r["execs"] or [0]) >= 2 and share >= 0.5
                and max(r["unique_bytes"] or [0]) >= 16384 and not _has_dot(report, r["launch"])):
            continue
        if _read_again(r, rows):
            found.append(_finding(
                "common-redundant-across-programs", "compute-stats-once",
                f"Traced on the CPU, neighbouring programs of {r['kernel']} loop over the same "
                f"{max(r['unique_bytes']):,} bytes at line {r['line']} ({shared:.0%} shared), "
                f"{share:.0%} of the traffic: each redoes the same pass over one slice.",
                share, r, path, {"line": r["line"], "shared": shared}))
        elif shared >= 0.9 and r["line"] in multiplied():
            # a shared operand every program streams once for its own row and multiplies (a
            # matvec's matrix, a chunk's state): the programs of one slice read it once each,
            # where a program holding a tile of their rows reads it once for all of them (a tl.dot
            # of the tile). A table the programs only compare against (a sorted list searched
            # entry by entry) is no product's operand: stacking rows would not cut its reads.
            found.append(_finding(
                "cuda-matvec-per-row", "tile-rows-into-dot",
                f"Traced on the CPU, neighbouring programs of {r['kernel']} each stream the same "
                f"{max(r['unique_bytes']):,} bytes at line {r['line']} ({shared:.0%} shared), "
                f"{share:.0%} of the traffic: every program reloads a shared operand for its own "
                "row, where a program holding a tile of those rows reads it once.",
                share, r, path, {"line": r["line"], "shared": shared}))
    return found


REREADS_PER_STORE = 4  # tile loads per tile store of the same launch, per program


def _loads_per_store(load: dict, rows: list[dict]) -> float:
    """How many times per program this tile load runs for each run of the launch's most frequent
    tile store (0 when the launch stores no tile)."""
    stores = [max(r["execs"] or [0]) for r in rows if r["launch"] == load["launch"] and r["op"] == "store"
              and max(r["shape"] or [1]) > 1]
    most = max(stores, default=0)
    return min(load["execs"] or [0]) / most if most else 0.0


def _stores_little(rows: list[dict], launch: int) -> bool:
    """The launch's first sampled program stores at most 1/16 of the bytes it loads: it reduces
    (a row's statistic, an index), it does not write its data back."""
    def first(op: str) -> int:
        return sum((r["requested_bytes"] or [0])[0] for r in rows if r["launch"] == launch and r["op"] == op)
    return first("store") * 16 <= first("load")


def _read_again(shared: dict, rows: list[dict]) -> bool:
    """Another load line of the same launch starts reading inside the shared load's span (the
    spans are of the kept executions, so the other line may run on past it): the program
    passes over its own slice again (a statistic recomputed from the data it then uses), not a
    table every program reads once (a matvec's weight). A helper holding the load that a second
    call path runs over a piece of the first path's span counts the same way."""
    span = _span(shared)
    own = [s for _, s in _sites(shared) if s is not None]
    if len(own) >= 2 and any(a != b and a[0] <= b[0] <= a[1] for a in own for b in own):
        return True  # a helper holding the load, called again for a piece of the same span
    return span is not None and any(
        o is not shared and o["op"] == "load" and o["launch"] == shared["launch"]
        and o["line"] != shared["line"] and (s := _span(o)) is not None
        and span[0] <= s[0] <= span[1] for o in rows)


def _round_trip_findings(report: dict, rows: list[dict], total: float, path: str,
                         backend: str = "cuda") -> list[Finding]:
    """Buffers one launch stores and a later launch of another kernel loads back, or inputs it
    reads again: passes through memory one launch would not make (a kernel repeated LAUNCH_LOOP
    times or more is the launch-loop finding's; fewer repeats re-reading one input are counted here). (Whether a producer only casts is
    not visible in its addresses; the host's casts are read from its torch ops instead.)
    Partial tiles a tl.dot launch stores and a later launch reads back at least twice as many
    bytes of as it stores (it sums them) are a split K: drop-split-k, not a fusion (on the NPU
    too: a cube launch's partials summed by a vector launch)."""
    trips, producers, readers_of, moved, seen, partials = [], set(), set(), 0.0, set(), []
    counts = report.get("launch_count") or {}

    def once_each(first: dict, later: dict) -> bool:
        # a kernel launched LOOPED_READER_RUNS times per launch of the first (an iteration's loop of
        # launches reading what an init kernel made): one pass against every iteration's work
        return counts.get(later["kernel"], 1) < LOOPED_READER_RUNS * counts.get(first["kernel"], 1)

    for store in (r for r in rows if r["op"] == "store"):
        readers = [r for r in rows if r["op"] == "load" and r["launch"] > store["launch"]
                   and r["kernel"] != store["kernel"] and _overlaps(_span(r), _span(store))
                   and once_each(store, r)]
        key = (store["kernel"], store["line"], _span(store))
        if readers and key not in seen:  # written once and read back once: one launch's bytes
            seen.add(key)
            # (a reader that multiplies what it reads, as attention's P @ V, is no sum of partials)
            if _has_dot(report, store["launch"]) and _sums_back(readers, rows) \
                    and not any(_has_dot(report, r["launch"]) for r in readers):
                partials.append(store)
            trips += [store, *readers]
            producers.add(store["launch"])
            readers_of.update(r["kernel"] for r in readers)
            moved += 2 * store["sector_bytes"] / max(store.get("repeats", 1), 1)
    loads = [r for r in rows if r["op"] == "load" and max(r["shape"] or [1]) > 1]
    for r in loads:  # the same input read again by a later launch: a second pass over memory
        # (by another kernel, or by the same kernel launched a few times: more is a launch loop)
        again = [o for o in loads if o["launch"] > r["launch"] and _span(o) == _span(r)
                 and (o["kernel"] != r["kernel"] and once_each(r, o)
                      or o["kernel"] == r["kernel"] and counts.get(r["kernel"], 1) < LAUNCH_LOOP)]
        if again:
            trips += [r, *again]
            producers.add(r["launch"])
            readers_of.update(o["kernel"] for o in again)
            moved += sum(min(o["sector_bytes"], r["sector_bytes"]) for o in again)
    share = min(moved / total, 1.0)
    if not trips or share < 0.2:
        return []
    first = trips[0]
    kernels = sorted({r["kernel"] for r in rows if r["launch"] in producers})
    if partials:
        return [_finding(
            "cuda-split-k-atomics", "drop-split-k",
            f"Traced on the CPU, {partials[0]['kernel']} stores partial tiles of a tl.dot that a "
            "later launch reads back and sums: the K loop is split, and its partials make "
            f"{share:.0%} of the traffic a pass one program per output tile would not make.",
            share, partials[0], path, {"kernels": kernels})]
    return [_finding(
        "common-unfused-launches", "fuse-launches",
        f"Traced on the CPU, {', '.join(kernels)} store(s) or read(s) what a later launch loads "
        f"again: {share:.0%} of the traffic is passes through memory one launch would not make.",
        share, first, path, {"kernels": kernels, "readers": sorted(readers_of)})]


LOOPED_READER_RUNS = 3  # launches of a reader per launch of the kernel whose output it reads in the
# trace's shortened run (its loops cut short): a loop
MOST_SPLITS = 64  # a reader storing under 1/64 of what it loads reduces rows (a loss), not splits


def _sums_back(readers: list[dict], rows: list[dict]) -> bool:
    """The launches reading a buffer back store between 1/64 and half the elements they load
    from it: a few partials summed per output (a loss or a statistic per row stores far less;
    counted in elements, not bytes, so a softmax writing its fp32 scores back as fp16 is one
    element per element, not a sum)."""
    def elements(r: dict) -> float:
        return r["useful_bytes"] / max(r["elem_bytes"], 1)

    launches = {r["launch"] for r in readers}
    loaded = sum(elements(r) for r in readers)
    stored = sum(elements(r) for r in rows if r["op"] == "store" and r["launch"] in launches)
    return 0 < stored * 2 <= loaded <= MOST_SPLITS * stored


FILLS = ("aten.zero_", "aten.fill_", "aten.zeros", "aten.full")
COPIES = ("aten._to_copy", "aten.clone", "aten.copy_", "aten.contiguous")


def _host_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """What the launcher does around its launches: fills of buffers the kernels then overwrite,
    whole-tensor copies and casts, and reads of device values back to the host."""
    found = []
    ops = report.get("host_ops") or []
    fills = [op for op in ops if op["op"].startswith(FILLS) and op["bytes"] >= 0.1 * total]
    for op in fills:
        lo, hi = op["range"]
        inside = [r for r in rows if _overlaps(_span(r), (lo, hi - 1))]
        if inside and all(r["op"] == "store" for r in inside):
            share = op["bytes"] / (total + op["bytes"])
            found.append(_finding(
                "common-zeroed-output", "allocate-empty-output",
                f"Traced on the CPU, the launcher fills {op['bytes']:,} bytes ({op['op']}) that "
                "the kernel then only stores to: the fill is a whole extra pass over the output.",
                max(share, 0.3), None, path, {"bytes": op["bytes"]}))
            break
    copies = [op for op in ops if op["op"].startswith(COPIES) and op["bytes"] >= 0.05 * total]
    moved = sum(2 * op["bytes"] for op in copies)
    if copies and moved >= 0.25 * total:
        cast = sum(op["bytes"] for op in copies if op.get("from") and op["from"] != op.get("dtype"))
        share = moved / (total + moved)
        if cast * 2 >= sum(op["bytes"] for op in copies):
            found.append(_finding(
                "common-host-casts", "cast-inside-kernel",
                f"Traced on the CPU, the launcher casts {cast:,} bytes on the host around its "
                "launches; the kernel could convert as it loads and stores.", share, None, path,
                {"bytes": cast}))
        else:
            found.append(_finding(
                "common-host-copies", "drop-host-copies",
                f"Traced on the CPU, the launcher copies {moved // 2:,} bytes on the host "
                "(.contiguous(), .clone(), .to()) around its launches.", share, None, path,
                {"bytes": moved // 2}))
    syncs = sum(1 for op in ops if op["op"].startswith("aten._local_scalar_dense"))
    if syncs:
        # a read-back's cost is a round trip, not bytes: weigh the stalls against the time the
        # traffic and the launches take at full speed (a few read-backs around a long kernel
        # cost little; one per request around two tiny kernels is nearly all the time)
        stalled = syncs * SYNC_SECONDS
        launched = sum((report.get("launch_count") or {}).values()) or len(report.get("launches") or [])
        busy = total / BANDWIDTH + launched * LAUNCH_SECONDS
        share = stalled / (stalled + busy)
        found.append(_finding(
            "common-host-sync", "avoid-host-sync",
            f"Traced on the CPU, the launcher reads {syncs} device value(s) back to the host "
            "(.item(), .tolist(), int(tensor)): each waits for the GPU to drain, about "
            f"{stalled * 1e6:,.0f} us of stalls against about {busy * 1e6:,.0f} us of kernel work.",
            share, None, path, {"syncs": syncs, "stall_us": round(stalled * 1e6, 1),
                                "work_us": round(busy * 1e6, 1)}, of_time=True))
    return found


def _dot_findings(report: dict, rows: list[dict], path: str) -> list[Finding]:
    """A tl.dot on fp32 operands in a kernel that loads only 16-bit data: the operands were
    widened before the dot, which then runs at the fp32 (tf32 at best) rate."""
    found = []
    for dot in report.get("dots") or []:
        loads = [r for r in rows if r["launch"] == dot["launch"] and r["op"] == "load"
                 and max(r["shape"] or [1]) > 1]
        if dot["a"] == dot["b"] == "fp32" and loads and all(r["elem_bytes"] <= 2 for r in loads):
            found.append(_finding(
                "cuda-fp32-dot", "lower-precision-dot",
                f"Traced on the CPU, the tl.dot at line {dot['line']} multiplies fp32 "
                f"{dot['a_shape']} x {dot['b_shape']} tiles although the kernel loads 16-bit "
                "data: the operands were widened before the dot.", 0.8,
                {"function": dot["function"], "line": dot["line"]}, path, {"line": dot["line"]}))
    return found


def _idle_lane_findings(rows: list[dict], total: float, path: str) -> list[Finding]:
    """Traffic whose lanes are mostly masked off: whole tiles that do nothing (a loop that runs
    past the region that matters) or a block far larger than the data it covers. Lanes masked
    off in a scattered pattern in most steps that move any are chosen by data (a load only some
    streams need): not a block size; steps with every lane off still are skippable steps."""
    found = []
    lengths = _when_asked(lambda: _lengths_read(path))

    def stepping(r: dict) -> tuple[tuple, tuple]:
        """Each sampled program's steps of the access, and its steps with every lane off."""
        return tuple(r["execs"]), tuple(r.get("idle_execs") or [0] * len(r["execs"]))

    # accesses stepped and idled alike are one loop body: its steps are skipped together
    bodies: dict[tuple, list[dict]] = {}
    for r in rows:
        bodies.setdefault(stepping(r), []).append(r)
    for r in rows:
        if r["lanes"] == 0 or r["active"] / r["lanes"] >= 0.5:
            continue
        share = r["sector_bytes"] / total
        execs = sum(r["execs"])
        idle = sum(stepping(r)[1])
        # steps with every lane off are a loop running past its work, however the data picks
        # the lanes of the steps that still move something (counted in programs that loop: a
        # program whose one step is all masked off is an edge of the grid, not a loop)
        looped = [(n, i) for n, i in zip(*stepping(r), strict=False) if n > 1]
        loop_steps = sum(n for n, _ in looped)
        loop_idle = sum(i for _, i in looped)
        if loop_steps > 1 and loop_idle * 4 >= loop_steps:
            body = bodies[stepping(r)]
            if r is not body[0]:
                continue
            body_share = sum(b["sector_bytes"] for b in body) / total
            if body_share < 0.3:
                continue
            found.append(_finding(
                "common-causal-full-scan", "skip-masked-tiles",
                f"Traced on the CPU, {idle} of the {execs} steps of the {r['op']} at line "
                f"{r['line']} have every lane masked off: the loop visits tiles that do nothing.",
                # the cost is in steps, not bytes (a masked-off step moves nothing but still
                # runs): weighed by the share of the line's steps that do nothing
                max(body_share, idle / execs), r, path, {"idle_steps": idle, "steps": execs}))
        elif share >= 0.3 and not 2 * sum(r.get("scattered_execs") or [0]) >= execs - idle > 0 \
                and r["line"] not in lengths():
            # (lanes chosen by the data the kernel reads, or cut at a length it reads per item,
            # a ragged sequence the block covers at its longest: no block size helps)
            found.append(_finding(
                "common-block-size", "block-size-tuning",
                f"Traced on the CPU, only {r['active'] / r['lanes']:.0%} of the lanes of the "
                f"{r['op']} at line {r['line']} are active: the block is far larger than the "
                "data it covers.", share, r, path, {"active": round(r["active"] / r["lanes"], 3)}))
    return found


# A GPU program that moves at most this much once, in a grid of this many programs per SM,
# spends more on its own setup, index math and reduction tail than on its bytes.
SHORT_PROGRAM_BYTES = 2048
SHORT_PROGRAMS_PER_UNIT = 64
# an NPU program that moves at most this much once (a twelfth of a vector core's 192 KB unified
# buffer) is too little work to hide its start and its unpipelined transfers behind
SHORT_CORE_PROGRAM_BYTES = 16384
SMALL_DMA_BYTES = 2048  # a step moving at most this much pays the transfer's issue cost per step
MANY_STEPS = 16


SEPARATE_PIECES = 0.5  # a program touching under half the span it walks steps over separate pieces


def _density(row: dict) -> float | None:
    """The median share of its walked span (lowest to highest address) that a sampled program
    touches through this access: near 1 for a walk along contiguous chunks, small for a walk
    over pieces spaced apart (rows strided by the grid)."""
    shares = sorted(touched / (hi - lo + row["elem_bytes"])
                    for touched, (lo, hi) in zip(row.get("unique_bytes") or [], row.get("spans") or [],
                                                 strict=False)
                    if lo is not None and hi is not None and hi >= lo)
    return shares[len(shares) // 2] if shares else None


def _small_tile_findings(rows: list[dict], total: float, path: str) -> list[Finding]:
    """Ascend: loads and stores in a loop of many steps per program, each step moving a small
    tile, carrying most of the traffic: one MTE transfer each way per step, issue-bound."""
    small = []
    for r in rows:
        steps = max(r["execs"] or [0])
        # bytes per step that moves any: masked-off steps (a loop past the data) are the
        # idle-lane finding's, and would make every step look small
        moving = sum(r["execs"] or [1]) - sum(r.get("idle_execs") or [0])
        per_step = r["active"] * r["elem_bytes"] / max(moving, 1)
        if r["op"] in ("load", "store") and steps >= MANY_STEPS and 0 < per_step <= SMALL_DMA_BYTES:
            small.append((r, steps, per_step))
    share = sum(r["sector_bytes"] for r, _s, _b in small) / total
    if not small or share < 0.5:
        return []
    r, steps, per_step = max(small, key=lambda x: x[0]["sector_bytes"])
    density = _density(r)
    step = r.get("step") or [0, 0]
    facts: dict[str, Any] = {"bytes_per_step": round(per_step), "steps": steps}
    shape = r.get("shape") or []
    # a step whose tile already spans several rows ([16 households, 8 slots]) takes more rows
    # with a bigger block: its size is the knob, not rows a step
    several_rows = len(shape) >= 2 and math.prod(shape[:-1]) > 1
    if several_rows:
        how = ""
    elif density is not None and density < SEPARATE_PIECES:
        # the steps touch pieces spaced apart (a row each, the rows between them another
        # program's): no bigger block merges two steps; a step of several rows does
        how = f"each step a separate piece (the program touches {density:.0%} of the span it walks)"
        facts["density"] = round(density, 3)
    elif step[1] and step[0] >= step[1] + DMA_ALIGN_BYTES:
        # each step moves one row of a 2-D array and the next starts a row further on: a
        # [rows, cols] tile moves several rows per transfer (a bigger 1-D block cannot); rows
        # less than one 32-byte DMA block apart (a padded row's edge) abut: a bigger block does
        how = f"one row per step (each starts {step[0]:,} bytes after the last and spans {step[1]:,})"
        facts["step"] = step
    else:
        how = ""
    if how:
        return [_finding(
            "common-row-per-program", "multi-row-programs",
            f"Traced in the interpreter, the {r['op']} at line {r['line']} ({r['function']}) moves "
            f"about {per_step:,.0f} bytes per loop step over {steps} steps per program, {how}: one "
            "transfer each way per piece on a vector core; a step over several pieces at once "
            f"(a [rows, cols] tile) amortises it. Such steps carry {share:.0%} of the traffic.",
            share, r, path, facts, ranks_only=True)]
    # a tile size is tuning: it ranks beside the idioms but does not overrule one a higher
    # tier confirmed (a kernel with a structural defect also loops in small tiles)
    return [_finding(
        "ascend-small-dma-tile", "block-size-tuning",
        f"Traced in the interpreter, the {r['op']} at line {r['line']} ({r['function']}) moves about "
        f"{per_step:,.0f} bytes per loop step over {steps} steps per program: each step is one "
        f"transfer each way on a vector core, and such steps carry {share:.0%} of the traffic.",
        share, r, path, {"bytes_per_step": round(per_step), "steps": steps}, ranks_only=True)]


DMA_ALIGN_BYTES = 32  # the Ascend MTE's alignment unit: pieces closer than this abut

GROWING_SPREAD = 16  # the longest sampled walk this many times the shortest
LINEAR_MIDDLE = (0.3, 0.7)  # the middle walk's length as a share of the longest: linear growth


def _growing_walk_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """Loads whose loop runs 1, n/2 and n steps in the first, middle and last sampled programs
    (no tl.dot in the launch: causal attention's tiles grow the same way by design): each
    program walks everything before (or after) its position, C(C+1)/2 steps over the grid where
    carrying a running value (or scanning per-block totals) walks each block once. The loads of
    one loop (the same steps in the same programs: a sum over two arrays) are weighed together."""
    found = []
    walks: dict[tuple[int, tuple[int, ...]], list[dict]] = {}
    for r in rows:
        execs = tuple(r["execs"] or [])
        if r["op"] == "load" and len(execs) >= 3:
            walks.setdefault((r["launch"], execs), []).append(r)
    for (launch, execs_seen), loads in walks.items():
        execs = sorted(execs_seen)
        share = sum(r["sector_bytes"] for r in loads) / total
        if (execs[0] < 1 or share < 0.5 or _has_dot(report, launch)
                or execs[-1] < GROWING_SPREAD * execs[0]):
            continue
        if LINEAR_MIDDLE[0] <= _middle_share(report, launch, execs_seen) <= LINEAR_MIDDLE[1]:
            r = max(loads, key=lambda x: x["sector_bytes"])
            lines = sorted({x["line"] for x in loads})
            where = (f"the load at line {r['line']}" if len(lines) == 1 else
                     f"the loads at lines {', '.join(map(str, lines))}")
            ahead = "after" if execs_seen[0] > execs_seen[-1] else "before"
            found.append(_finding(
                "common-prefix-rescan", "carry-running-prefix",
                f"Traced on the CPU, {where} ({r['kernel']}) run{'s' if len(lines) == 1 else ''} "
                f"{', '.join(map(str, execs_seen))} steps in programs further along the grid: each "
                f"program walks every block {ahead} its position, about C(C+1)/2 steps in all, "
                f"{share:.0%} of the traffic.", share, r, path,
                {"line": r["line"], "lines": lines, "steps": execs}))
    return found


def _middle_share(report: dict, launch: int, execs: tuple[int, ...]) -> float:
    """The steps of the grid's middle program as a share of the longer end's (the first or the
    last program's): about a half for a walk that grows or shrinks linearly along the grid.
    Without the sampled coordinates, the median sample's share of the longest."""
    launches = report.get("launches") or []
    record = launches[launch] if launch < len(launches) else {}
    sampled, grid = record.get("sampled") or [], record.get("grid") or []
    if len(sampled) == len(execs) and len(grid) == 3:
        middle = [g // 2 for g in grid]
        if middle in sampled and max(execs[0], execs[-1]) > 0:
            return execs[sampled.index(middle)] / max(execs[0], execs[-1])
    ordered = sorted(execs)
    return ordered[len(ordered) // 2] / ordered[-1]


FEW_DOT_ROWS = 32  # a tl.dot of at most this many rows per program: a decode-style row block
SHARED_TILES = 0.9  # of a loop's tile bytes the neighbouring program along an axis loads too
PADDED = 0.5  # of its lanes active at most: a tile of rows that is mostly padding


def _shared_operand_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """A tl.dot launch whose programs each load their own few rows once, padded to the tile, and
    then stream operand tiles that the neighbouring program along a grid axis streams too (a
    decode-style attention or per-token product: each token's program reads the whole shared K/V
    or weight for a handful of rows). Stacking the rows of those programs into one tile reads the
    shared tiles once per tile of rows and fills the MMA's rows. Weighed by the shared loads'
    traffic."""
    found, seen = [], set()
    for dot in report.get("dots") or []:
        launch = dot["launch"]
        if (dot.get("a_shape") or [0])[0] > FEW_DOT_ROWS or launch in seen:
            continue
        loads = [r for r in rows if r["launch"] == launch and r["op"] == "load" and max(r["shape"] or [1]) > 1]
        shared = [r for r in loads if min(r["execs"] or [0]) >= 2
                  and max((r.get("overlap_next") or {}).values(), default=0.0) >= SHARED_TILES]
        # the program's own rows, loaded once and mostly padding (a token's few heads masked
        # up to the MMA's rows); a block of full rows is a block size, not rows to stack
        own = [r for r in loads if max(r["execs"] or [0]) == 1 and r["active"] <= PADDED * r["lanes"]
               and max((r.get("overlap_next") or {}).values(), default=0.0) < SHARED_TILES]
        share = sum(r["sector_bytes"] for r in shared) / total
        if not shared or not own or share < 0.5:
            continue
        seen.add(launch)
        shared.sort(key=lambda r: -r["sector_bytes"])
        axis = max(shared[0]["overlap_next"], key=shared[0]["overlap_next"].get)
        found.append(_finding(
            "cuda-matvec-per-row", "tile-rows-into-dot",
            f"Traced on the CPU, each program of {shared[0]['kernel']} loads its own rows once (line "
            f"{own[0]['line']}) and multiplies {dot['a_shape'][0]}-row tiles against the tiles at "
            f"line {shared[0]['line']}, which the next program along grid axis {axis} loads too: "
            f"{share:.0%} of the traffic re-reads shared tiles for a few rows each.",
            share, shared[0], path, {"launch": launch, "axis": axis, "rows": dot["a_shape"][0]}))
    return found


BLIND_PROGRAMS = 0.5  # of the sampled programs: storing tiles computed from no loaded lane


def _tile_launches(rows: list[dict]) -> list[tuple[int, list[dict], list[dict], int]]:
    """(launch, its tile loads, its tile stores, sampled programs) for each launch with both,
    sampled at the same >= 3 programs."""
    out = []
    for launch in sorted({r["launch"] for r in rows}):
        mine = [r for r in rows if r["launch"] == launch and max(r["shape"] or [1]) > 1]
        loads = [r for r in mine if r["op"] == "load"]
        stores = [r for r in mine if r["op"] == "store"]
        programs = {len(r["execs"]) for r in mine}
        if loads and stores and len(programs) == 1 and (n := programs.pop()) >= 3:
            out.append((launch, loads, stores, n))
    return out


def _blind_program_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """Programs that store a tile although every tile load they made was masked off: their
    output is a constant the program computed the whole path to reach (a region outside a box,
    a tile past a band), where a test on the tile's bounds could store it directly. Weighed by
    the share of the sampled programs that did so times the launch's share of the traffic (their
    cost is the arithmetic and the masked instructions, not bytes)."""
    found = []
    for launch, loads, stores, n in _tile_launches(rows):
        blind = sum(1 for p in range(n)
                    if all(r["idle_execs"][p] == r["execs"][p] for r in loads)
                    and any(r["idle_execs"][p] < r["execs"][p] for r in stores))
        launch_share = sum(r["sector_bytes"] for r in rows if r["launch"] == launch) / total
        if blind < BLIND_PROGRAMS * n or blind / n * launch_share < MIN_DROPPED_SHARE:
            continue
        lines = ", ".join(str(r["line"]) for r in loads[:4])
        found.append(_finding(
            "common-causal-full-scan", "skip-masked-tiles",
            f"Traced on the CPU, {blind} of the {n} sampled programs of {loads[0]['kernel']} store "
            f"a tile although every lane of their loads (lines {lines}) is masked off: the tile is "
            "a constant computed the long way, where a test on its bounds could store it directly.",
            blind / n * launch_share, stores[0], path, {"blind_programs": blind, "programs": n}))
    return found


EMPTY_PROGRAMS = 0.4  # of the sampled programs: moving tiles in, storing nothing


def _empty_program_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """Programs whose every tile store is masked off although their tile loads moved bytes: they
    read (and multiply) a whole tile to write nothing (an m-tile past its segment's rows that
    only the row mask stops, a flag checked at the store). Weighed by the share of the sampled
    programs that did so times the launch's share of the traffic; the sample starts at the
    grid's first programs, where the data usually is, so the share is a lower bound."""
    found = []
    for launch, loads, stores, n in _tile_launches(rows):
        idle = [p for p in range(n)
                if all(r["execs"][p] and r["idle_execs"][p] == r["execs"][p] for r in stores)
                and any(r["idle_execs"][p] < r["execs"][p] for r in loads)]
        empty = len(idle)
        launch_share = sum(r["sector_bytes"] for r in rows if r["launch"] == launch) / total
        if empty < EMPTY_PROGRAMS * n or empty / n * launch_share < MIN_DROPPED_SHARE:
            continue
        moved = sorted({r["line"] for r in loads for p in idle if r["idle_execs"][p] < r["execs"][p]})
        found.append(_finding(
            "common-gated-program", "skip-masked-tiles",
            f"Traced on the CPU, {empty} of the {n} sampled programs of {stores[0]['kernel']} store "
            f"nothing (every lane of their stores is masked off) after loading tiles at line(s) "
            f"{', '.join(map(str, moved[:4]))}: whole tiles read for no output, where a test on the "
            "program's bounds could leave before its loads.",
            empty / n * launch_share, stores[0], path, {"empty_programs": empty, "programs": n}))
    return found


def _launch_weighed(rows: list[dict], total: float, launch: int, fraction: float) -> float:
    """A share of one launch's work, weighed by the launch's share of all the traced traffic."""
    return fraction * sum(r["sector_bytes"] for r in rows if r["launch"] == launch) / total


DROPPED_STEPS = 0.5  # a select keeping no lane on at least this share of its loop's steps
MIN_SELECT_STEPS = 4  # per sampled program: fewer executions are no loop to skip steps of
MIN_DROPPED_SHARE = 0.3  # dropped share of the steps times the launch's share of the traffic


def _retired_lane_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """A loop over a row of lanes whose per-lane tl.where (`live = live & ...` guarding the
    update) held for no lane on the last steps of most of what its sampled programs ran, after
    holding for some earlier: every lane had retired and the loop kept stepping (an X-drop
    extension, a ray march, a convergence loop run to its fixed count). Weighed by the idle share
    of the steps times the launch's share of the traffic. A condition that never keeps more than
    one lane in any sampled program is a match (a one-hot `cols == label` over a row's column
    blocks): its quiet steps are the row's other columns, which the loop walks for other work."""
    found = []
    events: dict[str, set[int]] = {}  # each source file parsed once
    for sel in report.get("lane_selects") or []:
        file = path if Path(sel.get("file") or path).name == Path(path).name else sel["file"]
        if file not in events:
            events[file] = _event_selects(file)
        if sel["line"] in events[file]:
            continue  # an event on values this step computed (a reset at a threshold): no lane retired
        counts = [v for v in (sel.get("per_program") or {}).values() if v[0] >= MIN_SELECT_STEPS and v[2]]
        steps, tail = sum(v[0] for v in counts), sum(v[1] for v in counts)
        if not steps or tail < DROPPED_STEPS * steps:
            continue
        if max(v[3] for v in counts) < 2:
            continue  # one lane at most: a match (a one-hot column), not lanes retiring
        share = _launch_weighed(rows, total, sel["launch"], tail / steps)
        if share < MIN_DROPPED_SHARE:
            continue
        found.append(_finding(
            "common-retired-lanes-loop", "skip-masked-tiles",
            f"Traced on the CPU, the tl.where at line {sel['line']} held for no lane on the last "
            f"{tail} of the {steps} loop steps its sampled programs ran, after holding for some: "
            "every lane had retired and the loop kept stepping.",
            share, sel, path, {"idle_steps": tail, "steps": steps, "line": sel["line"]}))
    return found


def _event_selects(file: str) -> set[int]:
    """Lines of the tl.where calls in `file`'s loops whose kept-when-false operand is a name the
    same loop step assigned before the select (`V = V + h * dv` then `V = tl.where(spiked,
    v_reset, V)`): where the condition fails, the step's own result stands, so a condition that
    holds for no lane is an event that did not happen (a reset, a clamp), not lanes that retired
    and froze their old values. Empty when the file cannot be read."""
    tree = _parsed(file)
    if tree is None:
        return set()
    lines: set[int] = set()
    for loop in (n for n in ast.walk(tree) if isinstance(n, ast.For | ast.While)):
        assigned: dict[str, list[int]] = {}
        for stmt in ast.walk(loop):
            if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign) and stmt is not loop:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            assigned.setdefault(n.id, []).append(stmt.lineno)
        for call in (n for n in ast.walk(loop) if isinstance(n, ast.Call) and call_name(n) == "where"):
            kept = call.args[2] if len(call.args) >= 3 else None
            if isinstance(kept, ast.Name) and any(line < call.lineno for line in assigned.get(kept.id, [])):
                lines.add(call.lineno)
    return lines


def _dropped_step_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """A tl.where over a 2-D tile (a tl.dot's scores, a pairwise block), or a 2-D condition tile
    counted as numbers (`tl.sum(ok.to(tl.int32), 1)`), whose condition kept no lane on most of
    the steps the sampled programs ran it: each such step's tiles were loaded and
    computed to be thrown away (a causal triangle, a window, a flag for unselected blocks, a
    distance cutoff), however the condition is spelled. Weighed by the dropped share of the steps
    times the launch's share of the traffic."""
    found = []
    searches: dict[str, set[int]] = {}  # each source file parsed once
    choices: dict[str, set[int]] = {}
    for sel in report.get("selects") or []:
        counts = [v for v in (sel.get("per_program") or {}).values() if v[0] >= MIN_SELECT_STEPS]
        steps, dropped = sum(v[0] for v in counts), sum(v[1] for v in counts)
        if not steps or dropped < DROPPED_STEPS * steps:
            continue
        share = _launch_weighed(rows, total, sel["launch"], dropped / steps)
        if share < MIN_DROPPED_SHARE:
            continue
        file = path if Path(sel.get("file") or path).name == Path(path).name else sel["file"]
        if file not in searches:
            searches[file] = _key_searches(file)
            choices[file] = _choices(file)
        if sel["line"] in choices[file]:
            continue  # the other operand is computed from the data too: a choice, nothing dropped
        walked = _sorted_walk(rows, sel["launch"])
        if sel["line"] in searches[file] and walked is not None:
            found.append(_finding(
                "common-linear-table-scan", "binary-search-sorted-bounds",
                f"Traced on the CPU, the loop at line {walked['line']} walks sorted keys "
                f"{min(walked['execs'])}+ steps per program while the tl.where at line {sel['line']} "
                f"keeps a match on only {steps - dropped} of {steps} steps: a linear search for equal "
                "keys, where a binary search over the sorted keys takes log2 steps.",
                share, sel, path, {"dropped_steps": dropped, "steps": steps, "line": sel["line"],
                                   "key_line": walked["line"]}))
            continue
        what = "condition turned into numbers" if sel.get("how") == "numbers" else "tl.where"
        found.append(_finding(
            "common-causal-full-scan", "skip-masked-tiles",
            f"Traced on the CPU, the {what} at line {sel['line']} keeps no lane on {dropped} of the "
            f"{steps} loop steps its sampled programs ran: those steps' tiles were loaded and "
            + ("multiplied" if _has_dot(report, sel["launch"]) else "computed") + " for nothing.",
            share, sel, path,
            {"dropped_steps": dropped, "steps": steps, "line": sel["line"]}))
    return found


def _sorted_walk(rows: list[dict], launch: int) -> dict | None:
    """A loop load of `launch` reading distinct integer keys in sorted order, for SHARED_STEPS
    steps or more in the longest sampled program (a sorted list walked element range by range;
    lists of different lengths, a graph's neighbour lists, walk some short)."""
    for r in rows:
        k = r.get("keys")
        if (r["launch"] == launch and r["op"] == "load" and k and k["execs"] >= 2
                and k["sorted"] == k["execs"] and k["mean_run"] < 2 and r["execs"]
                and max(r["execs"]) >= SHARED_STEPS):
            return r
    return None


def _conditions(kernel: JitKernel) -> list[tuple[ast.Call, ast.AST]]:
    """(call, condition) of the kernel's selects: a tl.where's first operand, and a condition
    turned into numbers (`(a == b).to(tl.int32)`, `tl.cast(ok, tl.float32)`), as the tracer
    records both."""
    out = [(call, call.args[0]) for call in kernel.calls("where") if call.args]
    out += [(call, call.func.value) for call in kernel.calls("to")
            if isinstance(call.func, ast.Attribute)]
    out += [(call, call.args[0]) for call in kernel.calls("cast") if call.args]
    return out


def _kernels_and_loads(file: str) -> list[tuple[JitKernel, set[str]]]:
    """Each kernel of `file` with the names it binds to loads; none when the file cannot be read."""
    module = _kernel_model(file)
    return [] if module is None else [(k, bound_to_call(k, "load")) for k in module.kernels.values()]


def _key_searches(file: str) -> set[int]:
    """Lines of the selects in `file` (a tl.where, or a condition turned into numbers) whose
    condition tests values read from memory for equality with other values read from memory
    (`a[:, None] == b[None, :]`, through local names): a select that keeps the matches of a
    search. Empty when the file cannot be read."""
    lines = set()
    for kernel, loaded in _kernels_and_loads(file):
        for call, condition in _conditions(kernel):
            todo, seen, found = [condition], set(), False
            while todo and not found:
                node = todo.pop()
                for compare in (n for n in ast.walk(node) if isinstance(n, ast.Compare)):
                    sides = [compare.left, *compare.comparators]
                    found = found or (any(isinstance(op, ast.Eq) for op in compare.ops)
                                      and all(depends_on(kernel, side) & loaded for side in sides))
                for name in names_in(node) - seen:
                    seen.add(name)
                    todo += [st.value for st in kernel.assigns.get(name, [])
                             if getattr(st, "value", None) is not None and name not in loaded]
            if found:
                lines.add(call.lineno)
    return lines


def _choices(file: str) -> set[int]:
    """Lines of the tl.where calls in `file` whose value when the condition fails is computed
    from what the kernel loaded (`tl.where(abs(d) >= f, one_sided, two_sided)`): a choice
    between two results per lane, where a lane the condition does not keep still has its
    answer; not a fill that throws a tile's work away. Empty when the file cannot be read."""
    lines = set()
    for kernel, loaded in _kernels_and_loads(file):
        # `acc = tl.where(keep, acc + x, acc)` keeps the old value where the condition fails:
        # that step's work is thrown away, as a fill would; only a fresh result is a choice
        carried = {id(n.value) for n in ast.walk(kernel.node) if isinstance(n, ast.Assign)
                   and isinstance(n.value, ast.Call) and call_name(n.value) == "where"
                   and len(n.value.args) > 2 and names_in(n.value.args[2])
                   & {t.id for t in n.targets if isinstance(t, ast.Name)}}
        for call in kernel.calls("where"):
            other = call.args[2] if len(call.args) > 2 and id(call) not in carried else None
            if other is not None and (names_in(other) & loaded or depends_on(kernel, other) & loaded
                                      or any(isinstance(c, ast.Call) and call_name(c) == "load"
                                             for c in ast.walk(other))):
                lines.add(call.lineno)
    return lines


SEARCHES = ("argmin", "argmax", "min", "max", "minimum", "maximum")


def _compared_loads(file: str) -> set[int] | None:
    """Lines of the loads in `file` whose value (or a value computed from it) meets a comparison
    or a min/max/argmin in its kernel (`a[:, None] == b`, `tl.sum(knots <= x)`, the argmin of
    distances; a load written inside the comparison counts too): what a search does with a
    table. None when the file cannot be read (nothing is ruled out)."""
    module = _kernel_model(file)
    if module is None:
        return None
    lines: set[int] = set()
    for kernel in module.kernels.values():
        loaded = bound_to_call(kernel, "load")
        sides = [n for node in ast.walk(kernel.node) if isinstance(node, ast.Compare)
                 for n in (node.left, *node.comparators)]
        sides += [a for node in kernel.calls(*SEARCHES) for a in node.args[:2]]
        # a state carried across steps (`x = x + dt * z`) and then compared is a simulation
        # that draws on the table, not a search of it: followed no further than that state
        carried = {n for n, stmts in kernel.assigns.items()
                   if any(isinstance(st, ast.AugAssign) or n in names_in(getattr(st, "value", None) or ast.Pass())
                          for st in stmts)}
        met = {name for side in sides for name in depends_on(kernel, side, carried) & loaded}
        lines |= _load_lines(kernel, met)
        lines |= {n.lineno for side in sides for n in ast.walk(side)
                  if isinstance(n, ast.Call) and call_name(n) == "load"}
    return lines


def _multiplied_loads(file: str) -> set[int]:
    """Lines of the loads in `file` whose value (or a cast of it) is an operand of a product in
    its kernel (`tl.sum(x[:, None] * w, 0)`, `acc += w * x`): the loaded tile is multiplied, not
    only compared or selected; empty when the file cannot be read."""
    module = _kernel_model(file)
    if module is None:
        return set()
    lines: set[int] = set()
    for kernel in module.kernels.values():
        loaded = bound_to_call(kernel, "load")
        factors = {n.id for node in ast.walk(kernel.node)
                   if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
                   for side in (node.left, node.right) for n in ast.walk(side)
                   if isinstance(n, ast.Name) and n.id in loaded}
        lines |= _load_lines(kernel, factors)
    return lines


def _load_lines(kernel: JitKernel, names: set[str]) -> set[int]:
    """The lines of the loads in the values bound to `names`."""
    return {call.lineno for name in names for stmt in kernel.assigns.get(name, [])
            if getattr(stmt, "value", None) is not None
            for call in ast.walk(stmt.value)  # type: ignore[attr-defined]
            if isinstance(call, ast.Call) and call_name(call) == "load"}


def _when_asked(compute: Callable[[], T]) -> Callable[[], T]:
    """`compute()` called once, on the first call of the returned function (a source parsed only
    when a traced row needs it, and once)."""
    memo: list[T] = []

    def ask() -> T:
        if not memo:
            memo.append(compute())
        return memo[0]
    return ask


def _lengths_read(file: str) -> set[int]:
    """Lines of the loads and stores in `file` whose mask compares against a value the kernel
    read from memory (`t < n` with `n = tl.load(lengths + b)`: an item's own length); empty
    when the file cannot be read."""
    module = _kernel_model(file)
    if module is None:
        return set()
    lines = set()
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        loaded = bound_to_call(kernel, "load")
        for op in ("load", "store"):
            at = 2 if op == "store" else 1
            for call in kernel.calls(op):
                mask = next((k.value for k in call.keywords if k.arg == "mask"),
                            call.args[at] if len(call.args) > at else None)
                # a scalar read: the item's length (a loaded tile in the mask picks lanes by data,
                # which the scattered-lane count already tells apart)
                if mask is not None and any(
                        shapes.shape(ast.Name(n, ast.Load(), lineno=call.lineno), call.lineno) == ()
                        for n in depends_on(kernel, mask) & loaded):
                    lines.add(call.lineno)
    return lines


ZERO_PRODUCTS = 0.5  # a tl.dot whose products are this often made zero by a zero row or column


def _zero_product_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """A tl.dot whose first operand's rows are all zero for most of its products over the sampled
    programs, though each of those rows holds data in some other call: rows a mask filled with
    zeros (taps that do not apply to an output row, a causal step's probabilities) still go through
    the tensor cores. Rows zero in every call (past the data) and zero columns of the second operand
    (zero taps of a filter: data, not a mask) do not count. Weighed by that share times the
    launch's share of the traffic."""
    found = []
    for rec in report.get("dots") or []:
        counts = rec.get("per_program") or {}
        calls = sum(counts.values())
        # rows zero in every call are past the data (a block larger than it: block size, its
        # own finding); only rows live in some calls and zeroed in others are masked work
        never = rec.get("never_live") or {}
        idle = sum(max(v - never.get(p, 0.0) * counts.get(p, 0), 0.0) for p, v in (rec.get("idle") or {}).items())
        if not calls or idle < ZERO_PRODUCTS * calls:
            continue
        share = _launch_weighed(rows, total, rec["launch"], idle / calls)
        if share < MIN_DROPPED_SHARE:
            continue
        found.append(_finding(
            "common-zero-row-dot", "skip-masked-tiles",
            f"Traced on the CPU, the tl.dot at line {rec['line']} ({rec['function']}) multiplies "
            f"{rec['a_shape']} x {rec['b_shape']} tiles of which {idle / calls:.0%} of the rows of the first "
            f"operand, over its {calls} calls in the sampled programs, are all zero though they hold data "
            "in other calls (rows a mask filled with zeros): that tensor-core work computes nothing.",
            share, rec, path, {"zero_share": round(idle / calls, 3), "calls": calls, "line": rec["line"]}))
    return found


def _address_names(fn: ast.FunctionDef, helpers: dict[str, tuple[set[str], set[str]]]
                   ) -> tuple[set[str], set[str]]:
    """(names that reach only addresses and masks, names used as values) in one function: those
    in the pointer or mask of a load, store or atomic, or handed to a helper's parameter that is
    one, and, through assignments, what those are made of (`ptrs = base + offs`)."""
    assigns = [a for a in ast.walk(fn) if isinstance(a, ast.Assign)]
    places: list[ast.expr] = []
    others: list[ast.expr] = []
    for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Attribute) and call.func.attr in MEMORY_OPS:
            at = 2 if call.func.attr == "store" else 1  # load(ptr, mask) / store(ptr, value, mask)
            for k, arg in enumerate(call.args):
                (places if k in (0, at) else others).append(arg)
            for kw in call.keywords:
                (places if kw.arg in ("pointer", "mask") else others).append(kw.value)
        elif isinstance(call.func, ast.Name) and call.func.id in helpers:
            params, (addressing, used) = helpers[call.func.id][0], helpers[call.func.id][1]
            for param, arg in zip(params, call.args, strict=False):
                (places if param in addressing and param not in used else others).append(arg)
    addressing = {n.id for p in places for n in ast.walk(p) if isinstance(n, ast.Name)}
    grown = True
    while grown:
        before = len(addressing)
        for a in assigns:
            if any(isinstance(t, ast.Name) and t.id in addressing for t in a.targets):
                addressing |= {n.id for n in ast.walk(a.value) if isinstance(n, ast.Name)}
        grown = len(addressing) > before
    inside = {id(n) for p in places for n in ast.walk(p)}  # `x = tl.load(p + offs)` uses offs as an address
    used = {n.id for o in others for n in ast.walk(o) if isinstance(n, ast.Name) and id(n) not in inside}
    used |= {n.id for a in assigns if not any(isinstance(t, ast.Name) and t.id in addressing for t in a.targets)
             for n in ast.walk(a.value) if isinstance(n, ast.Name) and id(n) not in inside}
    return addressing, used


def _source(file: str) -> tuple[str, ast.Module] | None:
    """The source file's text and syntax tree; None when it cannot be read or parsed."""
    try:
        text = Path(file).read_text(encoding="utf-8")
        return text, ast.parse(text)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def _parsed(file: str) -> ast.Module | None:
    read = _source(file)
    return None if read is None else read[1]


def _kernel_model(file: str) -> KernelModule | None:
    """Tier 1's model of the file (kernels with their helpers inlined, lines kept); None when it
    cannot be read or parsed."""
    read = _source(file)
    return None if read is None else build_model(read[0], file, read[1])


def _address_tables(file: str) -> list[tuple[ast.FunctionDef, set[str], set[str]]]:
    """Per function of `file`: (the function, its address-only names, its value names), with
    what each helper's parameters are; [] when the file cannot be read."""
    tree = _parsed(file)
    if tree is None:
        return []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    helpers = {fn.name: ([a.arg for a in fn.args.args], _address_names(fn, {})) for fn in functions}
    return [(fn, *_address_names(fn, helpers)) for fn in functions]


def _addressing(tables: list[tuple[ast.FunctionDef, set[str], set[str]]], line: int) -> bool:
    """Whether the statement at `line` only makes addresses or masks: the names it binds reach
    memory only as pointers or masks (`offs = t[:, None, None] * stride + head_offs`, also when
    handed to a helper that loads through them). Broadcasting index tiles to rank 3 is no product."""
    for fn, addressing, used in tables:
        bound = {t.id for a in ast.walk(fn) if isinstance(a, ast.Assign)
                 and a.lineno <= line <= (a.end_lineno or a.lineno)
                 for t in a.targets if isinstance(t, ast.Name)}
        if bound:
            return (bound <= addressing and not bound & used) or _expands_addresses_only(fn, line)
    return False


def _expands_addresses_only(fn: ast.FunctionDef, line: int) -> bool:
    """Whether every axis the statement at `line` adds (`nb[:, :, None]`, `m[None, None, :]`)
    lies in the pointer or the mask of a load or store: a rank-3 gather's address, written in
    place, broadcasts index tiles and multiplies no values."""
    stmt = next((a for a in ast.walk(fn) if isinstance(a, ast.Assign | ast.AugAssign | ast.Expr)
                 and a.lineno <= line <= (a.end_lineno or a.lineno)), None)
    if stmt is None:
        return False

    def expansions(node: ast.AST) -> list[ast.Subscript]:
        return [n for n in ast.walk(node) if isinstance(n, ast.Subscript) and any(
            isinstance(e, ast.Constant) and e.value is None
            for e in (n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]))]

    added = expansions(stmt)
    inside = {id(n) for c in ast.walk(stmt) if isinstance(c, ast.Call) and call_name(c) in MEMORY_OPS
              for arg in [*c.args[:1], *(k.value for k in c.keywords if k.arg == "mask")]
              for n in expansions(arg)}
    return bool(added) and all(id(n) in inside for n in added)


SUMS = ("sum", "reduce")


def _bindings(node: ast.AST) -> dict[str, list[ast.Assign | ast.AugAssign | ast.AnnAssign]]:
    """Each name bound under `node` with the statements that bind it (with a value)."""
    out: dict[str, list[ast.Assign | ast.AugAssign | ast.AnnAssign]] = {}
    for a in ast.walk(node):
        if isinstance(a, ast.Assign | ast.AugAssign | ast.AnnAssign) and a.value is not None:
            for t in a.targets if isinstance(a, ast.Assign) else [a.target]:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        out.setdefault(n.id, []).append(a)
    return out


def _unreduced_lines(file: str) -> set[int]:
    """Lines of `file` whose statement computes values no sum reduces: it calls no tl.sum /
    tl.reduce, is not returned (a helper's result is the caller's), and the names it binds reach
    no sum's argument through later assignments (`tl.store(out + offs, x1 * c - x2 * s, mask=m)`:
    a rank-3 elementwise product and its broadcast mask, not a matrix product)."""
    tree = _parsed(file)
    if tree is None:
        return set()
    lines: set[int] = set()
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        values = {name: [st.value for st in stmts] for name, stmts in _bindings(fn).items()}
        summed: set[str] = set()
        todo = [n.id for c in ast.walk(fn) if isinstance(c, ast.Call) and call_name(c) in SUMS
                for a in c.args for n in ast.walk(a) if isinstance(n, ast.Name)]
        todo += [n.id for r in ast.walk(fn) if isinstance(r, ast.Return) and r.value is not None
                 for n in ast.walk(r.value) if isinstance(n, ast.Name)]
        while todo:
            name = todo.pop()
            if name in summed:
                continue
            summed.add(name)
            todo += [n.id for v in values.get(name, []) for n in ast.walk(v) if isinstance(n, ast.Name)]
        for stmt in (n for n in ast.walk(fn) if isinstance(n, ast.Assign | ast.AugAssign | ast.Expr)):
            if any(isinstance(c, ast.Call) and call_name(c) in SUMS for c in ast.walk(stmt)):
                continue
            bound = ({n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                     if isinstance(stmt, ast.Assign) else
                     {stmt.target.id} if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name)
                     else set())
            if not bound & summed:
                lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines


def _is_condition(node: ast.AST, conditions: set[str]) -> bool:
    """Whether `node` computes a condition: a compare, `&` / `|` / `^` / `~` of conditions, or
    a name in `conditions` (indexed or not)."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr | ast.BitXor):
        return _is_condition(node.left, conditions) and _is_condition(node.right, conditions)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not):
        return _is_condition(node.operand, conditions)
    if isinstance(node, ast.Subscript):
        return _is_condition(node.value, conditions)
    return isinstance(node, ast.Name) and node.id in conditions


def _condition_lines(file: str) -> set[int]:
    """Lines of `file` whose statement binds a condition: compares, and `&` / `|` / `~` of
    conditions (`mask[:, :, None] & kmask[None, None, :]`). Broadcasting two masks to a rank-3
    shape combines predicates, it multiplies nothing, so no matrix product hides there."""
    tree = _parsed(file)
    if tree is None:
        return set()
    lines: set[int] = set()
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        assigns = [a for a in ast.walk(fn) if isinstance(a, ast.Assign)
                   and all(isinstance(t, ast.Name) for t in a.targets)]
        conditions: set[str] = set()
        grew = True
        while grew:  # a condition built from names that are conditions themselves
            grew = False
            for a in assigns:
                names = {t.id for t in a.targets}
                if not names <= conditions and _is_condition(a.value, conditions):
                    conditions |= names
                    grew = True
        for a in assigns:
            if {t.id for t in a.targets} <= conditions:
                lines.update(range(a.lineno, (a.end_lineno or a.lineno) + 1))
    return lines


def _stored_widenings(file: str) -> set[int]:
    """Lines of `file` whose conversions to fp64 all only reach memory (the value a store or an
    atomic writes into an fp64 output); empty when the file cannot be read."""
    module = _kernel_model(file)
    if module is None:
        return set()
    lines: dict[int, bool] = {}
    for kernel in module.kernels.values():
        for call in kernel.calls("to", "cast"):
            if converts_to(call, "float64"):
                lines[call.lineno] = lines.get(call.lineno, True) and stored_only(kernel, call)
    return {line for line, only in lines.items() if only}


def _note_findings(report: dict, path: str, rows: list[dict] | None = None,
                   total: float = 0.0) -> list[Finding]:
    """Interpreter events at a source line: two operands broadcast to one rank-3 shape along
    different axes (a multiply-and-sum written out instead of a tl.dot), and values widened to
    fp64 (math at the fp64 rate, 1/64 of fp32 on an H100-class GPU), weighed by the launch's
    share of the traffic (a finalize launch's handful of fp64 values costs nothing)."""
    found = []
    tables: dict[str, list] = {}  # each source file parsed once
    unreduced: dict[str, set[int]] = {}
    stored: dict[str, set[int]] = {}
    by_line: dict[tuple, list[dict]] = {}
    for note in report.get("notes") or []:
        by_line.setdefault((note["launch"], note["file"], note["line"], note["kind"]), []).append(note)
    for (launch, _, line, kind), notes in by_line.items():
        where = {"function": notes[0]["function"], "line": line}
        file = path if Path(notes[0]["file"]).name == Path(path).name else notes[0]["file"]
        if kind == "broadcast" and file not in tables:
            tables[file] = _address_tables(file)
            unreduced[file] = _unreduced_lines(file) | _condition_lines(file)
        if kind == "broadcast" and not _has_dot(report, launch) \
                and not _addressing(tables[file], line) \
                and line not in unreduced[file]:  # rank-3 index math, a product nothing sums, a mask
            ones = {tuple(i for i, d in enumerate(_shape(n["detail"])) if d == 1) for n in notes}
            # a product needs three axes longer than one (rows, columns, the summed axis): a
            # rank-3 shape with an axis of 1 is an outer product or a rank-2 op with a spare axis
            full = all(d > 1 for n in notes for d in _shape(n["detail"], target=True))
            if len({o for o in ones if o}) >= 2 and full and not _small_batched(notes):
                found.append(_finding(
                    "cuda-broadcast-matmul", "use-dot-for-broadcast-sum",
                    f"Traced on the CPU, line {line} broadcasts two operands to one rank-3 shape "
                    f"along different axes ({'; '.join(n['detail'] for n in notes[:2])}): a "
                    "matrix product written as multiply-and-sum runs on the CUDA cores, not the "
                    "tensor cores.", 0.9, where, path, {"line": line}))
        elif kind == "widen-fp64":
            if file not in stored:
                stored[file] = _stored_widenings(file)
            if line in stored[file]:
                continue  # the output's dtype, widened as it is written: no math at the fp64 rate
            share = _widened_share(report, launch, notes)
            if rows and total:
                share *= sum(r["sector_bytes"] for r in rows if r["launch"] == launch) / total
            found.append(_finding(
                "cuda-fp64-math", "lower-precision-math",
                f"Traced on the CPU, line {line} widens {notes[0]['detail']} values to fp64, so "
                "the math after it runs at the fp64 rate"
                + (f" (weighed by its launch's traffic, about {share:.0%} of the values loaded)."
                   if share < FP64_SHARE else "."), share, where, path, {"line": line}))
    return found


FP64_SHARE = 0.8  # the share a widening as large as the launch's loads stands for


def _widened_share(report: dict, launch: int, notes: list[dict]) -> float:
    """Values widened to fp64 against the values the launch loads (both over the sampled
    programs), at most FP64_SHARE: a reduction's result widened once per program is not fp64
    math over the data. A report without element counts keeps FP64_SHARE."""
    widened = sum(n.get("elements", 0) for n in notes)
    loaded = sum(a.get("active", 0) for a in report.get("accesses") or []
                 if a["launch"] == launch and a["op"] == "load")
    if not widened or not loaded:
        return FP64_SHARE
    return round(min(FP64_SHARE, widened / loaded), 3)


MMA_MIN = 16  # the shortest side of a product a tensor core (or an Ascend cube) takes


def _small_batched(notes: list[dict]) -> bool:
    """Both operands span an axis of their own (a batch: sites, points, pixels) and a side of
    the products is under MMA_MIN (`[128, 4, 1] * [128, 1, 4]`: 3x3 complex matrices per lattice
    site): a batch of small products, each with its own operands, that no tensor core multiplies.
    A product with a shared operand (`[M, 1, K] * [1, N, K]`) has no batch axis; nor has a
    rank-4 one whose operands share one axis (`[B, V, U, 1] * [1, 1, U, X]`): rows, columns and
    the summed axis take three, each other axis belongs to one operand, so the shared axis is
    the summed one and the product is `[B * V, U] @ [U, X]`."""
    sources = [_shape(n["detail"]) for n in notes]
    target = _shape(notes[0]["detail"], target=True)
    if len(sources) < 2 or any(len(s) != len(target) for s in sources):
        return False
    batch = [i for i in range(len(target)) if all(s[i] > 1 for s in sources)]
    if len(batch) == 1 and len(target) > 3:
        return False
    sides = [target[i] for i in range(len(target)) if i not in batch]
    return bool(batch) and any(d < MMA_MIN for d in sides)


def _shape(detail: str, target: bool = False) -> list[int]:
    """The source shape (or the target's) of a 'SRC->DST' broadcast note."""
    try:
        return json.loads(detail.split("->")[1 if target else 0])
    except (ValueError, IndexError):
        return []


SERIAL_STEPS = 64  # one-element accesses a program repeats this often walk a sequence
SHARED_STEPS = 16  # a table every program loads whole, in this many steps or more, is scanned


def _serial_step(r: dict) -> bool:
    """An access a loop repeats one element (or a few) at a time: a walk along a sequence.
    (A wider tile that each step moves further than its width is left out: a time step down an
    outer axis and a grid-stride loop leave the same addresses; only the carried value differs.)"""
    return r["lanes"] / max(sum(r["execs"]), 1) <= 16


def _shift_only_loops(file: str) -> set[int]:
    """Lines of the loops in `file` that carry values from step to step but no value that depends
    on its own earlier value (directly or through the other carried names): each step's carried
    values are loaded or computed afresh and only handed on (a sliding window of neighbours), so
    the steps do not wait on one another's arithmetic. Empty when the file cannot be read."""
    module = _kernel_model(file)
    if module is None:
        return set()
    loops: list[tuple[int, int, bool]] = []  # (first line, last line, whether it only shifts)
    for kernel in module.kernels.values():
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            carried = carried_names(loop)
            if not carried:
                continue
            bound = _bindings(loop)
            graph = {name: _carried_reads(name, bound, carried) for name in carried}
            loops.append((loop.lineno, loop.end_lineno or loop.lineno,
                          not any(_reaches(graph, start, start) for start in carried)))
    lines: set[int] = set()
    for first, last, shifts in loops:
        for line in range(first, last + 1):
            # the innermost carrying loop around a line decides
            inner = min((lp for lp in loops if lp[0] <= line <= lp[1]), key=lambda lp: lp[1] - lp[0])
            if shifts and inner[:2] == (first, last):
                lines.add(line)
    return lines


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether `goal` is reachable from `start` in one or more steps of `graph`."""
    todo, seen = list(graph.get(start, ())), set()
    while todo:
        n = todo.pop()
        if n == goal:
            return True
        if n not in seen:
            seen.add(n)
            todo += graph.get(n, ())
    return False


def _carried_reads(name: str, values: dict[str, list], carried: set[str]) -> set[str]:
    """The carried names a loop step's new value of `name` reads, through the names the step
    computes (`values`: each name's binding statements in the loop; a carried name read is last
    step's value)."""
    out: set[str] = set()
    todo, seen = [name], set()
    while todo:
        for stmt in values.get(todo.pop(), []):
            # what the statement reads: its value, and for `x += v` the old x too
            read = names_in(stmt.value) | (names_in(stmt.target) if isinstance(stmt, ast.AugAssign) else set())
            for m in read:
                if m in carried:
                    out.add(m)
                elif m in values and m not in seen:
                    seen.add(m)
                    todo.append(m)
    return out


def _unsorted(row: dict) -> bool:
    """An integer table whose tiles the run read mostly out of order (dose voxels, not bucket
    bounds): no binary search can replace scanning it."""
    keys = row.get("keys")
    return bool(keys) and keys["execs"] >= 2 and 2 * keys["sorted"] <= keys["execs"]


def _walk_findings(report: dict, rows: list[dict], total: float, path: str) -> list[Finding]:
    """Two ways a program walks memory in a loop: one element per step with a store per step
    (a recurrence carried in a scalar), and a table every sampled program reads whole, step by
    step (a linear search where the table is sorted, or any lookup done by scanning)."""
    found = []
    compared_lines = _when_asked(lambda: _compared_loads(path))

    def compared(line: int) -> bool:
        """Whether the load at `line` meets a comparison (an unreadable source rules nothing out)."""
        lines = compared_lines()
        return lines is None or line in lines

    shifting_lines = _when_asked(lambda: _shift_only_loops(path))

    for launch in {r["launch"] for r in rows}:
        mine = [r for r in rows if r["launch"] == launch]
        scalar = [r for r in mine if min(r["execs"]) >= SERIAL_STEPS and _serial_step(r)]
        # a loop that only hands loaded values on (`em = ec; ec = ep`: a window of levels walked
        # one at a time) carries no dependent chain: its walk is how it reads memory, not a recurrence
        if scalar and all(r["line"] in shifting_lines() for r in scalar):
            scalar = []
        if any(r["op"] == "load" for r in scalar) and any(r["op"] == "store" for r in scalar):
            share = sum(r["sector_bytes"] for r in scalar) / total
            if share >= 0.5:
                steps = min(min(r["execs"]) for r in scalar)
                found.append(_finding(
                    "common-serial-recurrence", "use-associative-scan",
                    f"Traced on the CPU, each program of {scalar[0]['kernel']} loads and stores one "
                    f"element per step for {steps:,} steps (lines "
                    f"{', '.join(str(r['line']) for r in scalar)}): a recurrence carried in a scalar, "
                    "one dependent step at a time.", share, scalar[0], path, {"steps": steps}))
        for r in mine:
            spans = [tuple(s) for s in r.get("spans") or [] if s and s[0] is not None]
            share = r["sector_bytes"] / total
            # a launch with a tl.dot shares its operand tiles across programs by design (every
            # row block of a GEMM reads all of B): that is the matmul, not a table scanned whole
            # (a table the programs only compute with, as random numbers every path draws, is
            # streamed, not searched: its values must meet a comparison or a min/max)
            if (r["op"] == "load" and len(spans) >= 3 and len(set(spans)) == 1
                    and min(r["execs"]) >= SHARED_STEPS and share >= 0.5
                    and not _has_dot(report, launch) and compared(r["line"]) and not _unsorted(r)):
                found.append(_finding(
                    "common-linear-table-scan", "binary-search-sorted-bounds",
                    f"Traced on the CPU, every sampled program of {r['kernel']} loads the same "
                    f"{max(r['unique_bytes']):,} bytes at line {r['line']} in {min(r['execs'])} steps: "
                    f"a table scanned whole per program, {share:.0%} of the traffic.", share, r, path,
                    {"steps": min(r["execs"]), "table_bytes": max(r["unique_bytes"])}))
    return found
