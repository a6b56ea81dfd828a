"""What `passwise diagnose` reads: TASK|FILE (a task under kernels/, a task folder, a kernel file
beside a task.py or not, a KernelBench file) resolved to the one file diagnosed, and the runner
JSON tier 2 is given."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from diagnose.runner.errors import RunnerError
from diagnose.runner.tasks import kernels_dir, parse_file, top_level_names


class DiagnosisError(ValueError):
    """A mistake a user can fix (unknown task, unreadable file, bad runner JSON): one sentence."""


@dataclass
class Target:
    """The kernel file to diagnose and how tier 3 can launch it.

    `kind` is "task" (a folder with task.py), "kernel" (a .py file) or "kernelbench".
    `launch_dir`/`launch_file` are what IR capture is given; `launch_problem` says why the
    kernel cannot be launched for capture ("" when it can).
    """

    name: str
    kind: str
    kernel: Path
    task_dir: Path | None = None
    launch_file: Path | None = None
    launch_problem: str = ""

    def source(self) -> str:
        """The kernel's source text, or a DiagnosisError naming why it cannot be read."""
        try:
            return self.kernel.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DiagnosisError(f"Cannot read kernel file {self.kernel} "
                                 f"({type(exc).__name__}); check the path and that it is "
                                 "UTF-8 text.") from None


def resolve_target(arg: str, candidate: str | None = None) -> Target:
    """Turn TASK|FILE (and an optional candidate file) into a Target."""
    path = Path(arg).expanduser()
    if not path.exists() and not arg.endswith(".py") and "/" not in arg:
        path = kernels_dir() / arg
    if path.is_dir():
        return _task_folder(path, candidate)
    if path.is_file():
        if path.name == "task.py":
            return _task_folder(path.parent, candidate)
        return _python_file(path, candidate)
    raise DiagnosisError(f"No task or file {arg!r}; pass a task name under {kernels_dir()}, "
                         "a task folder, or the path of a kernel .py file.")


def _existing_candidate(candidate: str) -> Path:
    path = Path(candidate).expanduser()
    if not path.is_file():
        raise DiagnosisError(f"Candidate {candidate} does not exist; pass the path of a .py "
                             "file with the Triton kernel to diagnose.")
    return path.resolve()


def _task_folder(folder: Path, candidate: str | None) -> Target:
    folder = folder.resolve()
    if not (folder / "task.py").is_file():
        raise DiagnosisError(f"{folder} has no task.py; a task folder needs task.py and "
                             "baseline.py (see docs/task-format.md).")
    kernel = _existing_candidate(candidate) if candidate else folder / "baseline.py"
    if not kernel.is_file():
        raise DiagnosisError(f"Task {folder.name} has no baseline.py; add one or pass "
                             "--candidate FILE.")
    return Target(name=folder.name, kind="task", kernel=kernel, task_dir=folder,
                  launch_file=kernel)


def _python_file(path: Path, candidate: str | None) -> Target:
    path = path.resolve()
    names = _names_of(path)
    if {"Model", "get_inputs"} <= names:
        return _kernelbench(path, names, candidate)
    if candidate:
        raise DiagnosisError(f"--candidate needs a task folder or a KernelBench file, and "
                             f"{path.name} is neither; pass the candidate file itself.")
    beside = path.parent / "task.py"
    if beside.is_file():
        return Target(name=path.parent.name, kind="kernel", kernel=path, task_dir=path.parent,
                      launch_file=path)
    problem = (f"{path.name} has no task.py beside it and no ModelNew/get_inputs, so there are "
               "no inputs to launch it with; put it in a task folder (docs/task-format.md)")
    return Target(name=path.stem, kind="kernel", kernel=path, launch_problem=problem)


def _names_of(path: Path) -> set[str]:
    """Top-level names of a file; a file that does not parse has none (tier 1 reports why)."""
    try:
        return top_level_names(parse_file(path, "kernel file"))
    except RunnerError:
        return set()


def _kernelbench(path: Path, names: set[str], candidate: str | None) -> Target:
    """A KernelBench file: the kernel is its own ModelNew or the candidate's."""
    if candidate is None:
        if "ModelNew" not in names:
            raise DiagnosisError(f"KernelBench file {path.name} has no ModelNew; pass "
                                 "--candidate FILE with the Triton ModelNew to diagnose.")
        return Target(name=path.stem, kind="kernelbench", kernel=path, launch_file=path)
    kernel = _existing_candidate(candidate)
    if "ModelNew" not in _names_of(kernel):
        raise DiagnosisError(f"Candidate {kernel.name} defines no ModelNew; a KernelBench "
                             "candidate needs class ModelNew.")
    return Target(name=path.stem, kind="kernelbench", kernel=kernel,
                  launch_file=_kernelbench_launcher(path, kernel))


# IR capture imports one file that must offer ModelNew and get_inputs; a KernelBench task keeps
# them in two, so a small launcher file joins them (it only imports; nothing runs at import).
_LAUNCHER = '''"""passwise: joins a KernelBench reference and its ModelNew candidate for IR capture."""
import importlib.util


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_reference = _load("passwise_kb_reference", {reference!r})
_candidate = _load("passwise_kb_candidate", {candidate!r})
get_inputs = _reference.get_inputs
get_init_inputs = getattr(_reference, "get_init_inputs", lambda: [])
ModelNew = _candidate.ModelNew
'''


def _kernelbench_launcher(reference: Path, candidate: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="passwise-kb-launch-"))
    launcher = folder / f"{candidate.stem}_launch.py"
    launcher.write_text(_LAUNCHER.format(reference=str(reference), candidate=str(candidate)))
    return launcher


def load_runner_json(path: Path) -> tuple[dict | None, dict | None]:
    """(bench, profile) answers of the runner from one file: either one, both, or a list."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DiagnosisError(f"Cannot read runner JSON {path} ({type(exc).__name__}); pass the "
                             "output of `python -m diagnose.runner bench` or `profile`.") from None
    bench, profile, failed = _runner_answers(data)
    if failed is not None:
        raise DiagnosisError(f"{path} records a runner run that failed on the device ({failed}): "
                             "nothing was measured; run the runner again or diagnose without it.")
    if bench is None and profile is None:
        raise DiagnosisError(f"{path} is neither a runner bench answer (no 'points') nor a "
                             "profile answer (no 'counters'); see docs/runner.md.")
    return bench, profile


def runner_json_failed(path: Path) -> str | None:
    """The error a saved runner answer records instead of a measurement (a run that timed out
    on the device), or None when it holds one or cannot be read."""
    try:
        return _runner_answers(json.loads(Path(path).read_text(encoding="utf-8")))[2]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _runner_answers(data: object) -> tuple[dict | None, dict | None, str | None]:
    """The bench answer, the profile answer and, when there is neither, the error the file
    records instead."""
    if isinstance(data, dict):
        parts = [data.get("bench"), data.get("profile"), data]
    else:
        parts = data if isinstance(data, list) else []
    bench = next((p for p in parts if isinstance(p, dict) and "points" in p), None)
    profile = next((p for p in parts if isinstance(p, dict) and "counters" in p), None)
    failed = None if bench is not None or profile is not None else next(
        (p["error"] for p in parts if isinstance(p, dict) and isinstance(p.get("error"), str)), None)
    return bench, profile, failed
