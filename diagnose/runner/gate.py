"""One verify case in the child: the candidate called under watch, then every check the gate makes.

Order of checks after a call: a torch operator computed the result (`torch_fallback`), an output
is a Tensor subclass, an input changed (`mutates_input`), an output is a view of an input where the
reference's is not (`aliases_input`), the values (`mismatch`). Then, while the case still passes:
new data in the same input buffers and a second call (`stale_result` when only a fresh allocation
gives the right answer), and on a GPU two more calls on the same inputs (`nondeterministic`).
"""

from __future__ import annotations

from typing import Any

from .compare import compare_outputs
from .integrity import (
    aliases,
    changed_inputs,
    refill,
    snapshot,
    subclass_outputs,
    tensors,
    with_buffers,
)
from .probes import ProbeNotApplicable, build
from .watch import TorchFallbackDetected, Watch

RECALL_SEED_OFFSET = 1000  # the second call's data: a seed no case of the run uses


def verify_case(item: Any, ctx: Any) -> dict:
    """Run the reference and the candidate on one case (fresh, refilled or a probe) and judge it."""
    from .host import synchronize

    if item.probe:
        return _probe_case(item, ctx)
    fresh = ctx.inputs(item)
    group = (item.task, item.size, item.dtype)
    buffers = ctx.buffers.get(group) if item.refill else None
    if buffers is not None and refill(buffers, fresh):
        inputs = with_buffers(buffers, fresh)
    else:
        inputs, buffers = fresh, None
    ctx.buffers[group] = inputs
    result = judge(item, ctx, inputs, item.atol, item.rtol)
    if result["status"] == "mismatch" and buffers is not None:
        alone = judge(item, ctx, _clone(inputs), item.atol, item.rtol)
        if alone["status"] == "ok":
            return _stale(result, "on new data written into the input buffers of an earlier call")
    if result["status"] == "mismatch" and item.runs > 1 and _deterministic(ctx, item):
        return _retry(item, ctx, inputs, result)
    if result["status"] != "ok":
        return result
    if item.recall:
        result = _recall(item, ctx, inputs) or result
    if result["status"] == "ok" and item.runs > 1 and _deterministic(ctx, item):
        result = _repeat(item, ctx, inputs, result)
    synchronize(ctx.device)
    return result


def judge(item: Any, ctx: Any, inputs: tuple, atol: float, rtol: float, overflow_only: bool = False) -> dict:
    """Reference on clones, candidate under watch, then the checks in the module's order."""
    from .host import synchronize

    task = ctx.task(item)
    ref_inputs = _clone(inputs)
    want = ctx.reference(item, ref_inputs)
    before = snapshot(inputs)
    synchronize(ctx.device)
    watch = Watch(ctx.trust, item.candidate)
    fn = ctx.candidate(item)
    try:
        with watch:
            got = fn(*inputs)
            synchronize(ctx.device)  # asynchronous faults surface inside this case
    except TorchFallbackDetected:
        got = None
    if watch.findings:
        first = watch.findings[0]
        return {"status": "torch_fallback", "cause": first.sentence() + _MUST, "outputs": [],
                "torch_ops": [{"op": f.op, "at": f.at} for f in watch.findings]}
    return _checks(task, ctx, inputs, ref_inputs, want, got, before, atol, rtol, overflow_only)


_MUST = "; candidates must compute the result in Triton kernels and use torch only to allocate and reshape"


def _checks(task: Any, ctx: Any, inputs: tuple, ref_inputs: tuple, want: Any, got: Any,
            before: list, atol: float, rtol: float, overflow_only: bool = False) -> dict:
    inplace = _inplace(task, inputs)
    sub = subclass_outputs(got)
    if sub:
        i, name = sub[0]
        return _fail("mismatch", f"output {i} is a {name}, a torch.Tensor subclass; return plain tensors")
    moved = changed_inputs(inputs, before, inplace)
    if moved:
        return _fail("mutates_input", f"run() changed input {moved[0]} in place; the task's inputs are read-only "
                     "(declare META['inplace'] for a task whose semantics are in place)")
    mine, theirs = aliases(got, inputs), aliases(want, ref_inputs)
    bad = [(o, i) for o, i in mine.items() if theirs.get(o) != i]
    if bad:
        o, i = bad[0]
        return _fail("aliases_input", f"output {o} shares memory with input {i}, and the reference's output does "
                     "not; return a freshly allocated tensor")
    if task.check is not None:
        problem = task.check(inputs, got)
        return {"status": "mismatch" if problem else "ok", "cause": problem, "outputs": []}
    checks = compare_outputs(got, want, atol, rtol)
    if overflow_only:  # scaled inputs make nonlinear ops ill-conditioned (near-ties, saturation):
        for c in checks:  # only NaN/Inf where the reference is finite (and shape/dtype) fail
            if c.problem and not (c.nan or c.inf) and "differs" in c.problem:
                c.problem = None
    for i in sorted(inplace):  # in-place inputs must end as the reference left its copies
        extra = compare_outputs(inputs[i], ref_inputs[i], atol, rtol)[0]
        extra.problem = extra.problem and f"in-place input {i}: {extra.problem}"
        checks.append(extra)
    problems = [c.problem for c in checks if c.problem]
    return {"status": "mismatch" if problems else "ok", "cause": problems[0] if problems else None,
            "outputs": [c.to_json() for c in checks]}


def _fail(status: str, cause: str) -> dict:
    return {"status": status, "cause": cause, "outputs": []}


def _inplace(task: Any, inputs: tuple) -> set[int]:
    meta = getattr(task.module, "META", {}) or {}
    declared = meta.get("inplace", [])
    if declared is True:
        return {i for i, _ in tensors(inputs)}
    return {int(i) for i in declared or []}


def _recall(item: Any, ctx: Any, inputs: tuple) -> dict | None:
    """New data in the same buffers, second call: a cache keyed on data_ptr answers stale."""
    from dataclasses import replace

    other = replace(item, seed=item.seed + RECALL_SEED_OFFSET)
    fresh = ctx.inputs(other)
    if not refill(inputs, fresh):
        return None
    refilled = with_buffers(inputs, fresh)
    again = judge(item, ctx, refilled, item.atol, item.rtol)
    if again["status"] == "ok":
        return None
    if again["status"] == "mismatch" and judge(item, ctx, _clone(refilled), item.atol, item.rtol)["status"] == "ok":
        return _stale(again, "on a second call with new data in the same input buffers")
    return again


def _stale(result: dict, when: str) -> dict:
    return {**result, "status": "stale_result",
            "cause": f"{when}, {result['cause']} (a freshly allocated copy of the same inputs is right: the "
                     "candidate answers from a cache or from memory its kernels did not write)"}


def _deterministic(ctx: Any, item: Any) -> bool:
    meta = getattr(ctx.task(item).module, "META", {}) or {}
    return bool(meta.get("deterministic", True)) and ctx.task(item).check is None


def _repeat(item: Any, ctx: Any, inputs: tuple, first: dict) -> dict:
    """Two more calls on the same inputs: each must match the reference too."""
    for run in range(2, item.runs + 1):
        again = judge(item, ctx, inputs, item.atol, item.rtol)
        if again["status"] == "mismatch":
            return {**again, "status": "nondeterministic",
                    "cause": f"call {run} of {item.runs} on the same inputs differs from the reference although "
                             f"call 1 matched: {again['cause']} (a race, or unsynchronised split-K)"}
        if again["status"] != "ok":
            return again
    return {**first, "runs": item.runs}


def _retry(item: Any, ctx: Any, inputs: tuple, first: dict) -> dict:
    """A failing GPU case, called twice more: right in some calls only means it depends on the run."""
    for run in range(2, item.runs + 1):
        if judge(item, ctx, inputs, item.atol, item.rtol)["status"] == "ok":
            return {**first, "status": "nondeterministic",
                    "cause": f"call 1 of {item.runs} on the same inputs differs from the reference but call {run} "
                             f"matches: {first['cause']} (a race, or unsynchronised split-K)"}
    return first


def _probe_case(item: Any, ctx: Any) -> dict:
    task = ctx.task(item)
    try:
        case = build(item.probe, task.module, item.size, ctx.device, item.seed, item.dtype, task.reference)
    except ProbeNotApplicable as exc:
        return {"status": "not_applicable", "cause": f"probe {item.probe}: {exc}", "outputs": []}
    result = judge(item, ctx, case.inputs, item.atol * case.atol_scale, item.rtol,
                   overflow_only=item.probe == "large_magnitude")
    result["probe_detail"] = case.detail
    if result["status"] != "ok" and result.get("cause"):
        result["cause"] = f"probe {item.probe} ({case.detail}): {result['cause']}"
    return result


def timed_output_problem(item: Any, ctx: Any, inputs: tuple, got: Any) -> str | None:
    """Compare the last timed call's output with the reference, so a candidate that behaves
    differently when called back to back (skipping work, replaying results) is caught."""
    task = ctx.task(item)
    if task.check is not None:
        return task.check(inputs, got)
    tol = (getattr(task.module, "META", {}) or {}).get("tolerance", {}).get(item.dtype or "", {})
    atol, rtol = float(tol.get("atol", 1e-2)), float(tol.get("rtol", 1e-2))
    want = ctx.reference(item, _clone(inputs))
    return next((c.problem for c in compare_outputs(got, want, atol, rtol) if c.problem), None)


def _clone(inputs: tuple) -> tuple:
    """Copies for the reference, so a candidate that writes into its inputs cannot fool the check."""
    import torch

    return tuple(x.clone() if isinstance(x, torch.Tensor) else x for x in inputs)
