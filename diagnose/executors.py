"""Executors carry runner calls to where the kernels run and bring the runner's JSON back.

`local` starts `python -m diagnose.runner` here; `cmd:TEMPLATE` ships the runner's files and the
call's task and candidate in a folder and runs a command template (ssh, srun, a container);
`queue:DIR` writes the calls into DIR for a device-side batch driver
(bench/optimize/device_batch.py) and answers from DIR/results/ once they are back."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNNER_FILES = ("diagnose/__init__.py", "diagnose/runner")


class ExecutorError(ValueError):
    """A bad --executor value: one sentence."""


class Pending(Exception):
    """Runner calls are queued for a device; resume once their answers are in the queue."""

    def __init__(self, queue: Path, keys: list[str]) -> None:
        super().__init__(f"{len(keys)} runner calls queued in {queue}")
        self.queue, self.keys = queue, keys


@dataclass
class RunnerCall:
    """One runner invocation: `command` (verify | bench) on a task folder and a candidate file.

    `key` names the answer in the round (runner/<key>.json); `after` names a verify call that
    must pass first; `order` sorts calls for interleaved timing; `tag` makes a repeat unique."""

    key: str
    command: str
    task_dir: Path
    candidate: Path
    options: list[str] = field(default_factory=list)
    after: str | None = None
    order: int = 0
    tag: str = ""
    after_any: list[str] = field(default_factory=list)  # at least one of these verifies must pass

    def argv(self, task: str, candidate: str) -> list[str]:
        return [self.command, task, candidate, *self.options]

    def digest(self) -> str:
        """Stable across processes: the call, the task and the candidate's content."""
        h = hashlib.sha256()
        for part in (self.command, self.task_dir.name, self.candidate.read_bytes().hex(),
                     json.dumps(self.options), self.tag):
            h.update(str(part).encode())
        return h.hexdigest()[:24]


Answer = Callable[[RunnerCall, dict], None]


def passed(answer: dict | None) -> bool:
    return bool(answer) and answer.get("verdict") == "pass"


def blocked(call: RunnerCall, done: dict[str, dict]) -> bool:
    """True when a verify this call depends on has answered and did not pass."""
    if call.after and call.after in done and not passed(done[call.after]):
        return True
    return bool(call.after_any) and all(k in done for k in call.after_any) \
        and not any(passed(done[k]) for k in call.after_any)


def run_calls(calls: list[RunnerCall], one: Callable[[RunnerCall], dict],
              done: dict[str, dict], on_answer: Answer, workers: int = 1) -> None:
    """Independent verifies first (`workers` at once: they need no quiet device), then the rest
    one at a time in order; a call whose verify did not pass is skipped (no answer)."""
    free = [c for c in calls if c.key not in done and c.command == "verify" and not c.after]
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for call, answer in zip(free, pool.map(one, free), strict=True):
            done[call.key] = answer
            on_answer(call, answer)
    for call in sorted(calls, key=lambda c: c.order):
        if call.key in done or blocked(call, done):
            continue
        answer = one(call)
        done[call.key] = answer
        on_answer(call, answer)


def _parse(stdout: str, stderr: str, code: int) -> dict:
    text = stdout.strip()
    start = text.find("{")
    try:
        return json.loads(text[start:]) if start >= 0 else {}
    except json.JSONDecodeError:
        pass
    tail = (stderr.strip().splitlines() or ["no output"])[-1][:300]
    return {"error": f"the runner gave no JSON (exit {code}): {tail}"}


class LocalExecutor:
    """The runner as a subprocess of this machine (the device host, or the interpreter on cpu)."""

    name = "local"

    def __init__(self, python: str | None = None, env: dict[str, str] | None = None,
                 timeout_s: float = 1800.0, workers: int = 2) -> None:
        self.python, self.env, self.timeout_s = python or sys.executable, env or {}, timeout_s
        self.workers = workers

    def one(self, call: RunnerCall) -> dict:
        argv = [self.python, "-m", "diagnose.runner", *call.argv(str(call.task_dir), str(call.candidate))]
        env = {**os.environ, **self.env, "PYTHONPATH": str(REPO)}
        try:
            proc = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True,
                                  timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": f"the runner did not answer within {self.timeout_s:.0f} s"}
        return _parse(proc.stdout, proc.stderr, proc.returncode)

    def run(self, calls: list[RunnerCall], done: dict[str, dict], on_answer: Answer) -> None:
        run_calls(calls, self.one, done, on_answer, self.workers)


def ship(folder: Path, call: RunnerCall) -> tuple[str, str]:
    """Copy the runner, the task folder and the candidate under folder; relative (task, cand)."""
    for rel in RUNNER_FILES:
        src, dst = REPO / rel, folder / rel
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    task = f"kernels/{call.task_dir.name}"
    shutil.copytree(call.task_dir, folder / task, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    cand = f"candidates/{call.digest()}.py"
    (folder / "candidates").mkdir(exist_ok=True)
    shutil.copy2(call.candidate, folder / cand)
    return task, cand


class CommandExecutor:
    """`cmd:TEMPLATE`: {dir} is a folder holding the runner's files, the task and the candidate;
    {args} the runner's arguments relative to it (shell-quoted); the command prints the JSON."""

    def __init__(self, template: str, timeout_s: float = 1800.0) -> None:
        if "{dir}" not in template or "{args}" not in template:
            raise ExecutorError("A cmd: executor template needs {dir} (the folder it is given) "
                                "and {args} (the runner's arguments), e.g. "
                                "'cmd:cd {dir} && python3 -m diagnose.runner {args}'.")
        self.template, self.timeout_s = template, timeout_s
        self.name = f"cmd:{template}"

    def one(self, call: RunnerCall) -> dict:
        with tempfile.TemporaryDirectory(prefix="passwise-ship-") as tmp:
            task, cand = ship(Path(tmp), call)
            args = " ".join(shlex.quote(a) for a in call.argv(task, cand))
            command = self.template.replace("{dir}", shlex.quote(tmp)).replace("{args}", args)
            try:
                proc = subprocess.run(command, shell=True, capture_output=True, text=True,
                                      timeout=self.timeout_s)
            except subprocess.TimeoutExpired:
                return {"error": f"the command did not answer within {self.timeout_s:.0f} s"}
        return _parse(proc.stdout, proc.stderr, proc.returncode)

    def run(self, calls: list[RunnerCall], done: dict[str, dict], on_answer: Answer) -> None:
        run_calls(calls, self.one, done, on_answer)


class QueueExecutor:
    """`queue:DIR`: answers from DIR/results/<digest>.json; the rest are written to DIR/jobs/
    (with their files under DIR/bundle/) and the round waits (Pending)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.expanduser().resolve()
        self.name = f"queue:{self.folder}"

    def run(self, calls: list[RunnerCall], done: dict[str, dict], on_answer: Answer) -> None:
        waiting = []
        for call in sorted(calls, key=lambda c: c.order):
            if call.key in done:
                continue
            result = self.folder / "results" / f"{call.digest()}.json"
            if result.is_file():
                done[call.key] = json.loads(result.read_text())
                on_answer(call, done[call.key])
            elif not blocked(call, done):
                waiting.append(call)
        if waiting:
            self._queue(waiting, {c.key: c for c in calls})
            raise Pending(self.folder, [c.digest() for c in waiting])

    def _queue(self, waiting: list[RunnerCall], by_key: dict[str, RunnerCall]) -> None:
        bundle = self.folder / "bundle"
        for call in waiting:
            task, cand = ship(bundle, call)
            after = by_key[call.after].digest() if call.after else None
            any_of = [by_key[k].digest() for k in call.after_any]
            job = {"id": call.digest(), "argv": call.argv(task, cand), "after": after,
                   "after_any": any_of,
                   "command": call.command, "order": call.order, "call": asdict(call) | {
                       "task_dir": str(call.task_dir), "candidate": str(call.candidate)}}
            path = self.folder / "jobs" / f"{call.digest()}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # a driver never reads half a job
            tmp.write_text(json.dumps(job, indent=2))
            os.replace(tmp, path)


def make_executor(spec: str, python: str | None = None) -> LocalExecutor | CommandExecutor | QueueExecutor:
    """From the --executor flag."""
    if spec == "local":
        return LocalExecutor(python)
    if spec.startswith("cmd:"):
        return CommandExecutor(spec[4:])
    if spec.startswith("queue:") and spec[6:]:
        return QueueExecutor(Path(spec[6:]))
    raise ExecutorError(f"Unknown executor {spec!r}; use local, 'cmd:TEMPLATE' (with {{dir}} and "
                        "{args}) or queue:DIR.")
