"""verify: is a candidate correct? Static torch-fallback check, then every size/dtype/seed in a child."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from . import static_check
from .child import WorkItem
from .errors import RunnerError
from .probes import probe_names
from .procs import ChildOptions, Outcome, run_items
from .tasks import CandidateSpec, TaskSpec, find_task, read_candidate

# A failing case's own status is the verdict (the first failing case wins; later ones are skipped).
FAILURE_STATUSES = ("bad_task", "compile_error", "illegal_memory_access", "oom", "timeout", "crash",
                    "torch_fallback", "sandbox_violation", "mutates_input", "aliases_input", "stale_result",
                    "nondeterministic")


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
    sandbox: dict = field(default_factory=dict)      # layers active in the child (sandbox.py)
    torch_ops: list[dict] = field(default_factory=list)  # torch_fallback seen at run time: op, at
    violations: list[dict] = field(default_factory=list)  # sandbox_violation: action, at

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
    budget_s: float | None = None   # the whole verify, besides the per-case timeout
    probes: bool = True
    sandbox: bool = True
    runs: int | None = None         # calls per case on the same inputs; None: 3 on a GPU/NPU, 1 on CPU


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
                    env=interpret_env(opts.device),
                    options=ChildOptions(sandbox=opts.sandbox, budget_s=opts.budget_s, stop_on_failure=True))
    verdict, cause = _verdict(run.outcomes, task)
    failed = next((o.result for o in run.outcomes if o.status == verdict), {})
    return Verdict(verdict, cause, task.name, str(cand.path), opts.device,
                   sizes=[_case_json(o) for o in run.outcomes], device_info=run.device_info,
                   sandbox=run.device_info.get("sandbox", {}), torch_ops=failed.get("torch_ops", []),
                   violations=failed.get("violations", []))


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
    """Every size x dtype x seed (later seeds reuse the first seed's buffers with new data; a lone
    seed calls again itself), then the probes of each size at the first dtype, seed 0."""
    items = []
    sizes, dtypes = pick_sizes(task, opts.sizes, opts.device), pick_dtypes(task, opts.dtypes, opts.device)
    for size in sizes:
        for dtype in dtypes:
            for seed in range(opts.seeds):
                items.append(_item(task, cand, size, dtype, seed, refill=seed > 0, recall=opts.seeds == 1,
                                   runs=opts.runs or (1 if opts.device == "cpu" else 3)))
    if opts.probes and task.kind == "task" and not task.has_check:
        for size in sizes:
            for probe in probe_names(task.meta):
                items.append(_item(task, cand, size, dtypes[0], 0, probe=probe))
    return items


def _item(task: TaskSpec, cand: CandidateSpec, size: str, dtype: str, seed: int, **kw: object) -> WorkItem:
    tol = task.tol(dtype)
    return WorkItem(kind="verify", task=str(task.path), task_kind=task.kind, candidate=str(cand.path),
                    entry=cand.entry, size=size, dtype=None if task.kind == "kernelbench" else dtype,
                    seed=seed, atol=float(tol["atol"]), rtol=float(tol["rtol"]), **kw)  # type: ignore[arg-type]


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
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        return "timeout", f"{skipped[0].cause}; {len(outcomes) - len(skipped)} of {len(outcomes)} cases ran."
    cases = [o for o in outcomes if not o.item.probe]
    sizes = sorted({o.item.size for o in cases}, key=[o.item.size for o in cases].index)
    dtypes = sorted({o.item.dtype or "default" for o in cases})
    seeds = len({o.item.seed for o in cases})
    probes = [o for o in outcomes if o.item.probe]
    ran = [o.item.probe for o in probes if o.status == "ok"]
    probe_text = f"; probes passed: {', '.join(dict.fromkeys(ran))}" if ran else ""
    na = len(probes) - len(ran)
    return "pass", (f"all {len(cases)} cases match the reference (sizes {', '.join(sizes)}; "
                    f"dtypes {', '.join(dtypes)}; {seeds} seeds each){probe_text}"
                    f"{f'; {na} probes not applicable' if na else ''}.")


def _sentence(o: Outcome) -> str:
    cause = (o.cause or o.status).rstrip(".")
    if o.item.size and o.status != "timeout" and f"size {o.item.size}" not in cause:
        cause += f" (size {o.item.size}, {o.item.dtype or 'default dtype'}, seed {o.item.seed})"
    return cause + "."


def _case_json(o: Outcome) -> dict:
    res = o.result
    extra = {k: res[k] for k in ("traceback", "torch_ops", "violations", "runs", "trusted_processes") if k in res}
    if o.item.probe:
        extra["probe"] = o.item.probe
        extra["probe_detail"] = res.get("probe_detail")
    return {"size": o.item.size, "dtype": o.item.dtype, "seed": o.item.seed, "status": o.status,
            "cause": o.cause, "outputs": res.get("outputs", []), "wall_s": res.get("wall_s"), **extra}
