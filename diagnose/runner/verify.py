"""verify: is a candidate correct? Static torch-fallback check, then every size/dtype/seed in a child."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from . import static_check
from .child import WorkItem
from .errors import RunnerError
from .procs import Outcome, run_items
from .tasks import CandidateSpec, TaskSpec, find_task, read_candidate

# A failing case ends the verdict's search in this order: the first case's own status wins.
FAILURE_STATUSES = ("bad_task", "compile_error", "illegal_memory_access", "oom", "timeout", "crash")


@dataclass
class Verdict:
    """The answer of verify (schema in docs/runner.md)."""

    verdict: str
    cause: str
    task: str
    candidate: str
    device: str
    sizes: list[dict] = field(default_factory=list)
    static_findings: list[dict] = field(default_factory=list)
    device_info: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class VerifyOptions:
    sizes: list[str] | None = None
    dtypes: list[str] | None = None
    seeds: int = 3
    device: str = "cpu"
    timeout_s: float = 120.0
    static_check: bool = True


def verify(task_arg: str, candidate_arg: str, opts: VerifyOptions) -> Verdict:
    """Check the candidate statically, then run it against the reference; never raises for bad files."""
    try:
        task = find_task(task_arg)
    except RunnerError as exc:
        return Verdict("bad_task", str(exc), task_arg, candidate_arg, opts.device)
    try:
        cand = read_candidate(candidate_arg, task)
    except RunnerError as exc:
        return Verdict("bad_candidate", str(exc), task.name, candidate_arg, opts.device)
    if opts.static_check:
        findings = static_check.torch_fallbacks(cand.tree)
        if findings:
            return Verdict("torch_fallback", static_check.summary(findings), task.name, str(cand.path),
                           opts.device, static_findings=[asdict(f) for f in findings])
    items = verify_items(task, cand, opts)
    run = run_items(items, opts.device, opts.timeout_s, skip=lambda failed, later: True,
                    env=interpret_env(opts.device))
    verdict, cause = _verdict(run.outcomes, task)
    return Verdict(verdict, cause, task.name, str(cand.path), opts.device,
                   sizes=[_case_json(o) for o in run.outcomes], device_info=run.device_info)


def pick_sizes(task: TaskSpec, requested: list[str] | None, device: str) -> list[str]:
    """Requested sizes (checked), else all of them on a device, else the small one on CPU."""
    if requested:
        unknown = [s for s in requested if s not in task.sizes]
        if unknown:
            raise RunnerError(f"task {task.name} has no size {', '.join(unknown)}; it has {', '.join(task.sizes)}.")
        return requested
    if device == "cpu":
        return ["small"] if "small" in task.sizes else task.sizes[:1]
    return list(task.sizes)


def pick_dtypes(task: TaskSpec, requested: list[str] | None, device: str = "cuda") -> list[str]:
    """All the task's dtypes on a device; on the CPU bfloat16 only when the task has nothing
    else, because the interpreter computes bfloat16 arithmetic on raw bit patterns (numpy has
    no bfloat16)."""
    if requested:
        unknown = [d for d in requested if d not in task.dtypes]
        if unknown:
            raise RunnerError(f"task {task.name} has no dtype {', '.join(unknown)}; it has {', '.join(task.dtypes)}.")
        return requested
    if device == "cpu":
        return [d for d in task.dtypes if d != "bfloat16"] or list(task.dtypes[:1])
    return list(task.dtypes)


def verify_items(task: TaskSpec, cand: CandidateSpec, opts: VerifyOptions) -> list[WorkItem]:
    items = []
    for size in pick_sizes(task, opts.sizes, opts.device):
        for dtype in pick_dtypes(task, opts.dtypes, opts.device):
            tol = task.tol(dtype)
            for seed in range(opts.seeds):
                items.append(WorkItem(
                    kind="verify", task=str(task.path), task_kind=task.kind, candidate=str(cand.path),
                    entry=cand.entry, size=size, dtype=None if task.kind == "kernelbench" else dtype,
                    seed=seed, atol=float(tol["atol"]), rtol=float(tol["rtol"])))
    return items


def interpret_env(device: str) -> dict[str, str]:
    """On CPU, Triton kernels run in the interpreter."""
    return {"TRITON_INTERPRET": "1"} if device == "cpu" else {}


def _verdict(outcomes: list[Outcome], task: TaskSpec) -> tuple[str, str]:
    for o in outcomes:
        if o.status in FAILURE_STATUSES:
            return o.status, _sentence(o)
    bad = [o for o in outcomes if o.status == "mismatch"]
    if bad:
        o = bad[0]
        more = f" ({len(bad)} of {len(outcomes)} cases fail)" if len(bad) > 1 else ""
        return "wrong_result", f"at size {o.item.size}, {o.item.dtype or 'default dtype'}, seed {o.item.seed}: {o.cause}{more}."
    sizes = sorted({o.item.size for o in outcomes}, key=[o.item.size for o in outcomes].index)
    dtypes = sorted({o.item.dtype or "default" for o in outcomes})
    seeds = len({o.item.seed for o in outcomes})
    return "pass", (f"all {len(outcomes)} cases match the reference (sizes {', '.join(sizes)}; "
                    f"dtypes {', '.join(dtypes)}; {seeds} seeds each).")


def _sentence(o: Outcome) -> str:
    cause = (o.cause or o.status).rstrip(".")
    if o.item.size and o.status != "timeout" and f"size {o.item.size}" not in cause:
        cause += f" (size {o.item.size}, {o.item.dtype or 'default dtype'}, seed {o.item.seed})"
    return cause + "."


def _case_json(o: Outcome) -> dict:
    res = o.result
    return {"size": o.item.size, "dtype": o.item.dtype, "seed": o.item.seed, "status": o.status,
            "cause": o.cause, "outputs": res.get("outputs", []), "wall_s": res.get("wall_s"),
            **({"traceback": res["traceback"]} if "traceback" in res else {})}
