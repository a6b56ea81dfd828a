"""Diagnose jobs: a submitted kernel is diagnosed by `python -m passwise diagnose` in a
subprocess with a timeout (the same command a user types), a few at a time, from a bounded
queue; its progress lines and the saved diagnosis are what a page or the API polls."""

from __future__ import annotations

import os
import queue
import re
import secrets
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from web.config import WebConfig

ROOT = Path(__file__).resolve().parent.parent
TASK_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}$")
JOB_ID = re.compile(r"^[0-9a-f]{16}$")
BACKENDS = ("cuda", "ascend")
MAX_JOBS_KEPT = 200


class JobError(ValueError):
    """A submission that cannot be queued (bad input: 400; queue full: 429)."""

    def __init__(self, sentence: str, status: int = 400):
        super().__init__(sentence)
        self.status = status


@dataclass
class Job:
    """One diagnosis request and what became of it."""

    id: str
    task: str
    backend: str
    max_tier: int
    state: str = "queued"  # queued | running | done | failed
    progress: list[str] = field(default_factory=list)
    diagnosis: str = ""  # the saved diagnosis' name once done
    error: str = ""
    submitted: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        end = self.finished or time.time()
        d["elapsed_s"] = round(end - self.started, 1) if self.started else 0.0
        return d


def task_names(config: WebConfig) -> list[str]:
    """Tasks a submitted kernel can be launched through (folders with a task.py)."""
    from diagnose.runner.tasks import kernels_dir

    root = config.kernels_dir or kernels_dir()
    return sorted(p.parent.name for p in root.glob("*/task.py") if TASK_NAME.match(p.parent.name))


class JobQueue:
    """A bounded queue of diagnose jobs and the worker threads that run them."""

    def __init__(self, config: WebConfig):
        self.config = config
        self.jobs: dict[str, Job] = {}
        self._pending: queue.Queue[tuple[Job, Path]] = queue.Queue()
        self._lock = threading.Lock()
        self._workers: list[threading.Thread] = []

    def submit(self, source: str, task: str = "", backend: str = "cuda", max_tier: int = 3) -> Job:
        """Queue `source` (a kernel .py) for diagnosis, launched through `task` if given."""
        job = self.reserve(source, task, backend, max_tier)
        self._pending.put((job, self.kernel_path(job)))
        self._start_workers()
        return job

    def reserve(self, source: str, task: str = "", backend: str = "cuda",
                max_tier: int = 3) -> Job:
        """A checked job with its kernel written, counted against the queue limit; the caller
        runs it (`run_job`) or `submit` queues it."""
        _check(source, task, backend, max_tier, self.config)
        with self._lock:
            active = sum(j.state in ("queued", "running") for j in self.jobs.values())
            if active >= self.config.job_queue:
                raise JobError(f"{active} diagnoses are already queued or running; try again "
                               "when one finishes.", 429)
            job = Job(secrets.token_hex(8), task, backend, max_tier)
            self.jobs[job.id] = job
            self._forget_old()
        kernel = self.kernel_path(job)
        kernel.parent.mkdir(parents=True, exist_ok=True)
        kernel.write_text(source, encoding="utf-8")
        return job

    def kernel_path(self, job: Job) -> Path:
        return Path(self.config.home) / "jobs" / job.id / "kernel.py"

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id) if JOB_ID.match(job_id or "") else None

    def _forget_old(self) -> None:
        done = [j for j in self.jobs.values() if j.state in ("done", "failed")]
        for j in sorted(done, key=lambda j: j.submitted)[:max(0, len(self.jobs) - MAX_JOBS_KEPT)]:
            self.jobs.pop(j.id, None)

    def _start_workers(self) -> None:
        with self._lock:
            while len(self._workers) < self.config.job_workers:
                t = threading.Thread(target=self._work, daemon=True, name="passwise-diagnose")
                t.start()
                self._workers.append(t)

    def _work(self) -> None:
        while True:
            job, kernel = self._pending.get()
            try:
                run_job(job, kernel, self.config)
            except Exception as exc:  # a worker must outlive any one job
                job.state, job.error = "failed", f"The diagnosis crashed ({type(exc).__name__})."
                job.finished = time.time()


def _check(source: str, task: str, backend: str, max_tier: int, config: WebConfig) -> None:
    if not isinstance(source, str) or not source.strip():
        raise JobError("The kernel is empty; paste or upload the .py file with its @triton.jit.")
    if len(source.encode("utf-8", "replace")) > config.max_body_bytes:
        raise JobError(f"The kernel is larger than {config.max_body_bytes} bytes.", 413)
    if task and task not in task_names(config):
        raise JobError(f"No task {task!r}; pick one of the listed tasks or none.")
    if backend not in BACKENDS:
        raise JobError(f"Unknown backend {backend!r}; use cuda or ascend.")
    if not isinstance(max_tier, int) or isinstance(max_tier, bool) or not 1 <= max_tier <= 4:
        raise JobError("max_tier must be an integer from 1 to 4.")


def command(job: Job, kernel: Path, config: WebConfig) -> list[str]:
    """The `passwise diagnose` command line of a job."""
    target = [job.task, "--candidate", str(kernel)] if job.task else [str(kernel)]
    return [config.python, "-m", "passwise", "diagnose", *target, "--backend", job.backend,
            "--max-tier", str(job.max_tier), "--home", str(config.home), "--progress",
            "--out", str(kernel.with_name("diagnosis.json"))]


def run_job(job: Job, kernel: Path, config: WebConfig) -> None:
    """Run one job to its end: done with the saved diagnosis' name, or failed with a sentence."""
    job.state, job.started = "running", time.time()
    env = {**os.environ, **config.extra_env, "PASSWISE_HOME": str(config.home)}
    if config.kernels_dir:
        env["PASSWISE_KERNELS"] = str(config.kernels_dir)
    proc = subprocess.Popen(command(job, kernel, config), cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    timer = threading.Timer(config.job_timeout_s, _kill, (proc,))
    timer.start()
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()), daemon=True)
    reader.start()
    try:
        for line in proc.stderr:
            job.progress.append(line.rstrip()[:300])
        proc.wait()
        reader.join(5)
    finally:
        timer.cancel()
    _finish(job, proc.returncode, "".join(out), config)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _finish(job: Job, rc: int, stdout: str, config: WebConfig) -> None:
    job.finished = time.time()
    saved = [ln for ln in stdout.splitlines() if ln.startswith("Saved: ")]
    if saved:
        job.diagnosis = Path(saved[-1].split(", ")[-1].strip()).stem
    if rc == 0:
        job.state = "done"
        return
    job.state = "failed"
    if rc < 0 or rc == -signal.SIGKILL:
        job.error = f"The diagnosis took longer than {config.job_timeout_s:.0f} s and was stopped."
        return
    said = [ln.removeprefix("passwise: ") for ln in job.progress if ln.startswith("passwise: ")
            and not ln.startswith("passwise: tier ")]
    job.error = said[-1] if said else f"The diagnosis ended with status {rc}."
