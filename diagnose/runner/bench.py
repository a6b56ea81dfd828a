"""bench: time a candidate, the eager reference and torch.compile(reference) per size, on the roofline."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .ceilings import Ceilings, unmeasured
from .child import WorkItem
from .errors import RunnerError
from .procs import Outcome, run_items
from .roofline import place
from .tasks import TaskSpec, find_task, read_candidate
from .verify import interpret_env, pick_dtypes, pick_sizes

IMPLS = ("candidate", "eager", "compile")
DEATHS = {"crash", "timeout", "oom", "illegal_memory_access"}


@dataclass
class BenchOptions:
    sizes: list[str] | None = None
    dtypes: list[str] | None = None
    device: str = "cuda"
    timeout_s: float = 300.0
    compile: bool = True
    warmup_ms: float = 25.0
    rep_ms: float = 100.0
    cache: str | None = None


@dataclass
class ImplTiming:
    """One implementation at one size: status, timing, rates on the roofline."""

    status: str
    cause: str | None = None
    median_ms: float | None = None
    p20_ms: float | None = None
    p80_ms: float | None = None
    method: str | None = None
    l2_flushed: bool | None = None
    do_bench_median_ms: float | None = None
    first_call_s: float | None = None
    roofline: dict = field(default_factory=dict)
    note: str | None = None
    device_sync_median_ms: float | None = None  # CUDA: calls bracketed by device-wide synchronisation
    stream_median_ms: float | None = None  # the stream's own timing, when device_sync replaced it


@dataclass
class BenchPoint:
    size: str
    dtype: str | None
    bytes: float | None
    flops: float | None
    impls: dict[str, ImplTiming]
    candidate_vs_eager: float | None = None     # eager ms / candidate ms (>1: candidate faster)
    candidate_vs_compile: float | None = None   # compile ms / candidate ms
    ratio_method: str | None = None             # timing method the two ratios compare


@dataclass
class BenchReport:
    task: str
    candidate: str
    device: str
    points: list[BenchPoint]
    ceilings: dict
    device_info: dict
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


def get_ceilings(device: str, cache: str | None, remeasure: bool = False,
                 timeout_s: float = 300.0) -> tuple[Ceilings, dict]:
    """The device's ceilings from the cache, measured in a child when absent; unmeasured on CPU."""
    if device == "cpu":
        return unmeasured("cpu", "no GPU/NPU: ceilings are only measured on a device"), {}
    item = WorkItem(kind="ceilings", cache=cache, remeasure=remeasure)
    run = run_items([item], device, timeout_s, skip=lambda a, b: True)
    out = run.outcomes[0]
    if out.status != "ok":
        raise RunnerError(f"measuring the device ceilings failed: {out.cause}")
    return Ceilings(**out.result["ceilings"]), run.device_info


def bench_items(task: TaskSpec, candidate: str, entry: str, sizes: list[str], dtypes: list[str],
                opts: BenchOptions, time_it: bool = True) -> list[WorkItem]:
    """Per size and dtype: the candidate, then the eager and compiled references."""
    impls = [i for i in IMPLS if opts.compile or i != "compile"]
    items = []
    for dtype in dtypes:
        for size in sizes:
            for impl in impls:
                items.append(WorkItem(
                    kind="bench", task=str(task.path), task_kind=task.kind,
                    candidate=candidate if impl == "candidate" else None, entry=entry, impl=impl,
                    size=size, dtype=None if task.kind == "kernelbench" else dtype,
                    warmup_ms=opts.warmup_ms, rep_ms=opts.rep_ms, time_it=time_it))
    return items


def same_impl(failed: WorkItem, later: WorkItem) -> bool:
    """After a child dies in one implementation, skip that implementation's other sizes only."""
    return (failed.task, failed.impl, failed.dtype) == (later.task, later.impl, later.dtype)


def bench(task_arg: str, candidate_arg: str | None, opts: BenchOptions) -> BenchReport:
    task = find_task(task_arg)
    cand_path = candidate_arg or (str(task.baseline) if task.baseline else None)
    if not cand_path:
        raise RunnerError(f"task {task.name} has no baseline.py; pass a CANDIDATE file to time.")
    cand = read_candidate(cand_path, task)
    ceil, _ = get_ceilings(opts.device, opts.cache)
    sizes = pick_sizes(task, opts.sizes, opts.device)
    dtypes = pick_dtypes(task, opts.dtypes)[:1] if not opts.dtypes else pick_dtypes(task, opts.dtypes)
    items = bench_items(task, str(cand.path), cand.entry, sizes, dtypes, opts)
    run = run_items(items, opts.device, opts.timeout_s, skip=same_impl, env=interpret_env(opts.device))
    notes = device_notes(opts.device, ceil)
    return BenchReport(task.name, str(cand.path), opts.device, assemble(run.outcomes, ceil),
                       ceil.to_json(), run.device_info, notes)


def device_notes(device: str, ceil: Ceilings) -> list[str]:
    notes = []
    if device == "cpu":
        notes.append("CPU run: Triton kernels ran in the interpreter (TRITON_INTERPRET=1), so candidate "
                     "times measure the interpreter, not a kernel; ceilings are unmeasured.")
    if device == "npu":
        notes.append("NPU path not verified on hardware: timings use torch.npu events.")
    if not ceil.measured and device != "cpu":
        notes.append(f"ceilings unmeasured: {ceil.method}")
    return notes


def assemble(outcomes: list[Outcome], ceil: Ceilings) -> list[BenchPoint]:
    """Group outcomes by (size, dtype) into points with roofline places and ratios."""
    points: dict[tuple[str, str | None], BenchPoint] = {}
    for o in outcomes:
        key = (o.item.size, o.item.dtype)
        point = points.setdefault(key, BenchPoint(o.item.size, o.item.dtype, None, None, {}))
        if o.status == "ok" and point.bytes is None:
            point.bytes, point.flops = o.result.get("bytes"), o.result.get("flops")
        point.impls[o.item.impl] = _impl_timing(o)
    for point in points.values():
        for impl in point.impls.values():
            if impl.median_ms:
                impl.roofline = place(impl.median_ms, point.bytes, point.flops, point.dtype, ceil).to_json()
        _ratios(point)
    return list(points.values())


def _impl_timing(o: Outcome) -> ImplTiming:
    t = o.result.get("timing") or {}
    return ImplTiming(
        status=o.status, cause=o.cause, median_ms=t.get("median_ms"), p20_ms=t.get("p20_ms"),
        p80_ms=t.get("p80_ms"), method=t.get("method"), l2_flushed=t.get("l2_flushed"),
        do_bench_median_ms=t.get("do_bench_median_ms"), first_call_s=o.result.get("first_call_s"),
        note=t.get("note"), device_sync_median_ms=t.get("device_sync_median_ms"),
        stream_median_ms=t.get("stream_median_ms"))


def _ratios(point: BenchPoint) -> None:
    """Compare like with like: CUDA-graph medians when both sides have them, else do_bench medians."""
    cand = point.impls.get("candidate")
    if not cand or not cand.median_ms:
        return
    for name, attr in (("eager", "candidate_vs_eager"), ("compile", "candidate_vs_compile")):
        other = point.impls.get(name)
        if not other or not other.median_ms:
            continue
        if cand.method == other.method:
            a, b, method = cand.median_ms, other.median_ms, cand.method
        else:
            a, b, method = _plain(cand), _plain(other), "do_bench"
        setattr(point, attr, float(f"{b / a:.4g}"))
        point.ratio_method = method


def _plain(t: ImplTiming) -> float:
    return t.do_bench_median_ms or t.median_ms or 0.0
