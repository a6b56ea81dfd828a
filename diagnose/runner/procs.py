"""Parent side of the child protocol: start a child on a list of work items, watch its records,
kill it when an item overruns its timeout, and turn deaths (signals, exits) into outcomes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .child import EXIT_FATAL_DEVICE_ERROR, WorkItem
from .host import python_executable
from .tasks import REPO_ROOT

STARTUP_GRACE_S = 120.0  # importing torch and initialising the device, before the first item
POLL_S = 0.05


@dataclass
class Outcome:
    """What happened to one work item."""

    item: WorkItem
    status: str                  # ok | mismatch | crash | timeout | oom | ... | skipped
    cause: str | None = None
    result: dict = field(default_factory=dict)


@dataclass
class ChildRun:
    """All outcomes of a batch, plus what the child said about its device."""

    outcomes: list[Outcome]
    device_info: dict
    stderr_tail: str = ""
    sandbox: dict = field(default_factory=dict)


SkipRule = Callable[[WorkItem, WorkItem], bool]  # (failed item, later item) -> skip it?


@dataclass
class ChildOptions:
    """How children run: the sandbox (private dir, audit hook, network namespace) and a whole-run
    budget besides the per-item timeout; stop_on_failure skips every item after a failing one."""

    sandbox: bool = True
    budget_s: float | None = None
    stop_on_failure: bool = False


def run_items(items: list[WorkItem], device: str, timeout_s: float, skip: SkipRule,
              env: dict[str, str] | None = None, wrapper: list[str] | None = None,
              stdout_path: Path | None = None, options: ChildOptions | None = None) -> ChildRun:
    """Run items in children, restarting after a death with the items the skip rule keeps.

    Sandboxed, the eager and torch.compile references are timed in a child of their own, after
    the candidates: they are the task's trusted code, and inside the candidate's audit hook
    inductor's per-call Python paid for every audited event (on the H200 its wrapper's launch
    overhead doubled sub-0.1 ms references), while the inductor it loaded changed the candidates'
    ptxas and launch path."""
    opts = options or ChildOptions()
    refs = [i for i, item in enumerate(items) if _reference(item)]
    if opts.sandbox and refs and len(refs) < len(items):
        own = [i for i in range(len(items)) if i not in set(refs)]
        first = run_items([items[i] for i in own], device, timeout_s, skip, env, wrapper, stdout_path, options)
        second = run_items([items[i] for i in refs], device, timeout_s, skip, env, wrapper, stdout_path, options)
        merged = dict(zip(own, first.outcomes, strict=True)) | dict(zip(refs, second.outcomes, strict=True))
        return ChildRun([merged[i] for i in range(len(items))], first.device_info or second.device_info,
                        first.stderr_tail or second.stderr_tail, first.sandbox)
    deadline = time.monotonic() + opts.budget_s if opts.budget_s else None
    outcomes: dict[int, Outcome] = {}
    pending = list(range(len(items)))
    info: dict = {}
    tail = ""
    while pending:
        if deadline is not None and time.monotonic() >= deadline:
            for i in pending:
                outcomes[i] = Outcome(items[i], "skipped", f"skipped: the whole-run budget of {opts.budget_s:g} s ran out")
            break
        batch = [items[i] for i in pending]
        done, info_now, tail, dead = _run_batch(batch, device, timeout_s, env, wrapper, stdout_path, opts, deadline)
        info = info or info_now
        for local, outcome in done.items():
            outcomes[pending[local]] = outcome
        if dead is None:
            break
        failed = outcomes[pending[dead]]
        rest = pending[dead + 1:]
        pending = []
        for i in rest:
            if failed.result.get("budget") or skip(failed.item, items[i]):
                outcomes[i] = Outcome(items[i], "skipped", _skip_cause(failed))
            else:
                pending.append(i)
    return ChildRun([outcomes[i] for i in range(len(items))], info, tail)


def _skip_cause(failed: Outcome) -> str:
    if failed.result.get("budget"):
        return f"skipped: the whole-run budget of {failed.result['budget']:g} s ran out"
    it = failed.item
    where = f" at size {it.size}, {it.dtype or 'default dtype'}, seed {it.seed}" if it.kind == "verify" else ""
    return f"skipped after the {failed.status}{where}"


def _run_batch(batch: list[WorkItem], device: str, timeout_s: float, env: dict[str, str] | None,
               wrapper: list[str] | None, stdout_path: Path | None, opts: ChildOptions,
               deadline: float | None) -> tuple[dict[int, Outcome], dict, str, int | None]:
    """One child over batch; returns outcomes, device info, stderr tail, index it died on (or None)."""
    with tempfile.TemporaryDirectory(prefix="passwise-runner-") as tmp:
        items_path, records_path = Path(tmp) / "items.json", Path(tmp) / "records.jsonl"
        spec, prefix, cwd = _child_spec(batch, device, Path(tmp), opts, profiled=bool(wrapper))
        items_path.write_text(json.dumps(spec))
        records_path.touch()
        cmd = [*(wrapper or []), *prefix, python_executable(), "-m", "diagnose.runner", "_child",
               str(items_path), str(records_path)]
        stderr_path = Path(tmp) / "stderr.txt"
        out_path = stdout_path or Path(tmp) / "stdout.txt"
        with open(out_path, "w") as out, open(stderr_path, "w") as err:
            proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=child_env(env, opts.sandbox),
                                    cwd=cwd, start_new_session=True)
            records, timed_out, over_budget = _watch(proc, records_path, timeout_s, deadline)
        tail = _tail(stderr_path)
    done, info, tail, dead = _interpret(batch, records, proc.returncode, timed_out, timeout_s, tail)
    if over_budget and dead is not None:
        o = done[dead]
        o.cause = f"the whole-run budget of {opts.budget_s:g} s ran out during {_what(o.item)}; it was killed"
        o.result["budget"] = opts.budget_s
    return done, info, tail, dead


def _child_spec(batch: list[WorkItem], device: str, tmp: Path, opts: ChildOptions,
                profiled: bool = False) -> tuple[dict, list[str], Path]:
    """The child's items (pointing at private copies when sandboxed), its command prefix and cwd."""
    spec: dict = {"device": device, "stop_on_failure": opts.stop_on_failure,
                  "items": [i.to_json() for i in batch]}
    if not opts.sandbox or all(i.kind == "ceilings" or _reference(i) for i in batch):
        # The ceilings child runs only our own copy and stream kernels, and it writes the shared
        # ceilings cache; a references child runs only the task's own eager and torch.compile
        # code. Neither is a candidate, so they keep the repository's view.
        return spec, [], REPO_ROOT
    from .sandbox import netns_id, network_namespace_wrapper, private_copies

    box = tmp / "sandbox"
    box.mkdir(parents=True, exist_ok=True)  # the child's cwd, even for a batch with no files
    copies = private_copies(box, [f for i in batch for f in (i.task, i.candidate or "")])
    for raw in spec["items"]:
        raw["task"] = copies.get(raw["task"], raw["task"])
        raw["candidate"] = copies.get(raw["candidate"], raw["candidate"]) if raw["candidate"] else None
    prefix = [] if profiled else list(network_namespace_wrapper())  # profilers need the host's view
    note = ("a profiler wraps the child, which then keeps the host's network namespace" if profiled else
            "unprivileged network namespaces are not available here (or PASSWISE_RUNNER_NETNS=0)")
    spec["sandbox"] = {"dir": str(box), "parent_netns": netns_id() if prefix else "",
                       "netns_note": None if prefix else note + "; the audit hook alone refuses network access"}
    return spec, prefix, box


def _reference(item: WorkItem) -> bool:
    """A timing of the task's own reference (eager or torch.compile): no candidate code in it."""
    return item.kind == "bench" and item.candidate is None and item.impl in ("eager", "compile")


def child_env(extra: dict[str, str] | None, sandbox: bool = False) -> dict[str, str]:
    """Our environment with diagnose/ importable and the caller's additions."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    if sandbox:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        # The child's TMPDIR is its private folder: keep inductor's cache where it is shared between
        # children (phase 1 of suite warms it for phase 2); torch writes it, not the candidate.
        env.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"torchinductor_{_user()}"))
    env.update(extra or {})
    return env


def _user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "user"


def _watch(proc: subprocess.Popen, records_path: Path, timeout_s: float,
           budget_deadline: float | None = None) -> tuple[list[dict], bool, bool]:
    """Follow the records; kill the child's whole process group when the running item overruns its
    timeout or the whole run overruns its budget. Returns records, timed out, over budget."""
    deadline = time.monotonic() + max(STARTUP_GRACE_S, timeout_s)
    records: list[dict] = []
    offset = 0
    while True:
        new, offset = _read_new(records_path, offset)
        for rec in new:
            records.append(rec)
            if rec.get("event") == "begin":
                deadline = time.monotonic() + timeout_s
        if proc.poll() is not None:
            new, offset = _read_new(records_path, offset)
            records.extend(new)
            return records, False, False
        now = time.monotonic()
        over_budget = budget_deadline is not None and now > budget_deadline
        if now > deadline or over_budget:
            _kill_group(proc)
            new, offset = _read_new(records_path, offset)
            records.extend(new)
            return records, True, over_budget
        time.sleep(POLL_S)


def _read_new(path: Path, offset: int) -> tuple[list[dict], int]:
    with open(path) as f:
        f.seek(offset)
        chunk = f.read()
    complete = chunk[: chunk.rfind("\n") + 1]  # a half-written last line waits for the next poll
    recs = [json.loads(line) for line in complete.splitlines() if line.strip()]
    return recs, offset + len(complete.encode())


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # our own child's session: a hung kernel ignores SIGTERM
    except ProcessLookupError:
        pass
    proc.wait()


def _interpret(batch: list[WorkItem], records: list[dict], rc: int, timed_out: bool,
               timeout_s: float, tail: str) -> tuple[dict[int, Outcome], dict, str, int | None]:
    info: dict = {}
    done: dict[int, Outcome] = {}
    running: int | None = None
    for rec in records:
        if rec["event"] == "hello":
            info = {**rec["device_info"], "sandbox": rec.get("sandbox") or {}}
        elif rec["event"] == "begin":
            running = rec["index"]
        elif rec["event"] == "end":
            res = rec["result"]
            done[rec["index"]] = Outcome(batch[rec["index"]], res["status"], res.get("cause"), res)
            running = None
    dead: int | None = None
    if running is not None:  # the child died or was killed inside this item
        done[running] = _death(batch[running], rc, timed_out, timeout_s, tail)
        dead = running
    elif rc == EXIT_FATAL_DEVICE_ERROR and done:
        dead = max(done)
    elif len(done) < len(batch):  # died before the first item: the environment, not the candidate
        first = len(done)
        cause = f"the runner child failed to start (exit {rc}): {_last_line(tail)}"
        done[first] = Outcome(batch[first], "timeout" if timed_out else "crash", cause)
        dead = first
    return done, info, tail, dead


def _death(item: WorkItem, rc: int, timed_out: bool, timeout_s: float, tail: str) -> Outcome:
    what = _what(item)
    if timed_out:
        return Outcome(item, "timeout", f"{what} did not finish within {timeout_s:g} s and was killed; "
                       "look for an infinite loop or a kernel that never terminates")
    lowered = tail.lower()
    if "out of memory" in lowered:
        return Outcome(item, "oom", f"{what} ran out of device memory and the process died")
    if any(m in lowered for m in ("illegal memory access", "misaligned address", "unspecified launch failure")):
        return Outcome(item, "illegal_memory_access", f"{what} faulted on the device: {_last_line(tail)}")
    if rc < 0:
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        return Outcome(item, "crash", f"{what} killed the process with {name}"
                       f"{' (segmentation fault)' if name == 'SIGSEGV' else ''}")
    return Outcome(item, "crash", f"{what} ended the process (exit code {rc}) without a result"
                   f"{'; ' + _last_line(tail) if tail.strip() else '; it probably called os._exit or sys.exit'}")


def _what(item: WorkItem) -> str:
    if item.kind == "verify":
        return f"the candidate at size {item.size}, {item.dtype}, seed {item.seed}"
    if item.kind == "bench":
        return f"the {item.impl} run at size {item.size}"
    return f"the {item.kind} step"


def _tail(path: Path, n: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:300] if lines else "no error output"
