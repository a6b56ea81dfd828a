"""Read a task (kernels/<name>/, a task folder or a KernelBench file) without importing it.

The parent process only parses files (AST), so a broken task or candidate can never crash it;
the child process (execute.py) is the one that imports them.
"""

from __future__ import annotations

import ast
import operator
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import RunnerError

REQUIRED_META = ("name", "level", "category", "dtypes", "tolerance", "sizes", "deterministic")
REQUIRED_FUNCTIONS = ("make_inputs", "reference", "cost")
KERNELBENCH_TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}  # what KernelBench itself checks with
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class TaskSpec:
    """What the parent needs to know about a task: where it is and what to run it with."""

    name: str
    path: Path                      # the task.py or the KernelBench file
    kind: str                       # "task" | "kernelbench"
    sizes: list[str]
    dtypes: list[str]
    tolerance: dict[str, dict[str, float]]
    deterministic: bool = True
    has_check: bool = False
    baseline: Path | None = None
    meta: dict = field(default_factory=dict)

    def tol(self, dtype: str) -> dict[str, float]:
        """atol/rtol for dtype; KernelBench files use KernelBench's own 1e-2."""
        return self.tolerance.get(dtype) or KERNELBENCH_TOLERANCE


@dataclass
class CandidateSpec:
    """A candidate file and which entry point it offers."""

    path: Path
    entry: str                      # "run" | "ModelNew"
    tree: ast.Module
    source: str


def kernels_dir() -> Path:
    """The task suite folder: $PASSWISE_KERNELS or kernels/ next to diagnose/."""
    return Path(os.environ.get("PASSWISE_KERNELS", REPO_ROOT / "kernels"))


def find_task(arg: str) -> TaskSpec:
    """Resolve TASK (folder, task.py, KernelBench file or a name under kernels/) to a TaskSpec."""
    path = Path(arg)
    if not path.exists() and not arg.endswith(".py"):
        path = kernels_dir() / arg
    if path.is_dir():
        if not (path / "task.py").is_file():
            raise RunnerError(f"{path} has no task.py; a task folder needs task.py and baseline.py.")
        return _read_task_folder(path)
    if path.is_file():
        if path.name == "task.py":
            return _read_task_folder(path.parent)
        return _read_kernelbench(path)
    raise RunnerError(
        f"no task {arg!r}: pass a task folder, a KernelBench .py file or a name under {kernels_dir()}."
    )


def list_tasks(root: Path | None = None) -> list[str]:
    """Names of the task folders under kernels/ (those with a task.py), sorted."""
    root = root or kernels_dir()
    return sorted(p.parent.name for p in root.glob("*/task.py"))


def parse_file(path: Path, what: str) -> ast.Module:
    """Parse a Python file; a syntax error becomes one sentence with the line number."""
    try:
        return ast.parse(path.read_text(), filename=str(path))
    except SyntaxError as exc:
        raise RunnerError(
            f"{what} {path} has a syntax error at line {exc.lineno}: {exc.msg}; fix the file and rerun."
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RunnerError(f"cannot read {what} {path} ({exc}); check the path.") from None


def top_level_names(tree: ast.Module) -> set[str]:
    """Functions, classes and assigned names defined at module level."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _read_task_folder(folder: Path) -> TaskSpec:
    task_py = folder / "task.py"
    tree = parse_file(task_py, "task")
    names = top_level_names(tree)
    missing = [f for f in REQUIRED_FUNCTIONS if f not in names]
    if missing:
        raise RunnerError(f"task {task_py} does not define {', '.join(missing)}; see docs/task-format.md.")
    meta = _read_meta(tree, task_py)
    absent = [k for k in REQUIRED_META if k not in meta]
    if absent:
        raise RunnerError(f"task {task_py} META lacks {', '.join(absent)}; see docs/task-format.md.")
    sizes, dtypes = meta["sizes"], meta["dtypes"]
    if not isinstance(sizes, dict) or not sizes or not isinstance(dtypes, list) or not dtypes:
        raise RunnerError(f"task {task_py} META needs a non-empty sizes dict and dtypes list.")
    _check_gate_keys(meta, task_py)
    baseline = folder / "baseline.py"
    return TaskSpec(
        name=str(meta["name"]), path=task_py, kind="task", sizes=list(sizes), dtypes=list(dtypes),
        tolerance=dict(meta["tolerance"]), deterministic=bool(meta["deterministic"]),
        has_check="check" in names, baseline=baseline if baseline.is_file() else None, meta=meta,
    )


def _check_gate_keys(meta: dict, path: Path) -> None:
    """META["probes"] and META["inplace"] (optional) must be plain data of the documented shape."""
    probes = meta.get("probes", [])
    ok = isinstance(probes, list) and all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and p["name"]
        and isinstance(p.get("size", {}), dict) and isinstance(p.get("scale", 1.0), int | float)
        for p in probes)
    if not ok:
        raise RunnerError(f"task {path} META probes must be a list of {{'name': str, 'size': dict, 'scale': number}}; "
                          "see docs/task-format.md.")
    inplace = meta.get("inplace", [])
    if not (inplace is True or (isinstance(inplace, list) and all(isinstance(i, int) for i in inplace))):
        raise RunnerError(f"task {path} META inplace must be True or a list of input positions; see docs/task-format.md.")


def _read_kernelbench(path: Path) -> TaskSpec:
    tree = parse_file(path, "KernelBench file")
    names = top_level_names(tree)
    missing = [n for n in ("Model", "get_inputs", "get_init_inputs") if n not in names]
    if missing:
        raise RunnerError(
            f"{path} is neither a task folder nor a KernelBench file (it lacks {', '.join(missing)})."
        )
    return TaskSpec(
        name=path.stem, path=path, kind="kernelbench", sizes=["default"], dtypes=["float32"],
        tolerance={}, meta={"name": path.stem, "kernelbench": True},
    )


def read_candidate(path: str | Path, task: TaskSpec) -> CandidateSpec:
    """Parse a candidate and find its entry point: run(*inputs), or ModelNew for KernelBench."""
    path = Path(path)
    if not path.is_file():
        raise RunnerError(f"candidate {path} does not exist; pass the path of a .py file with run(*inputs).")
    tree = parse_file(path, "candidate")
    names = top_level_names(tree)
    if "run" in names:
        entry = "run"
    elif "ModelNew" in names and task.kind == "kernelbench":
        entry = "ModelNew"
    else:
        wanted = "run(*inputs) (or class ModelNew)" if task.kind == "kernelbench" else "run(*inputs)"
        raise RunnerError(
            f"candidate {path} defines no {wanted}; add one that launches your Triton kernels."
        )
    return CandidateSpec(path=path, entry=entry, tree=tree, source=path.read_text())


# META is data, but tasks may write sizes as 4096 * 4096 or 1 << 20: evaluate that much, no more.
_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.Div: operator.truediv, ast.Mod: operator.mod,
}


def _read_meta(tree: ast.Module, path: Path) -> dict:
    consts: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            try:
                consts[name] = _eval(node.value, consts)
            except ValueError as exc:
                if name == "META":
                    raise RunnerError(
                        f"task {path} META is not plain data ({exc}); write it as a literal dict."
                    ) from None
    meta = consts.get("META")
    if not isinstance(meta, dict):
        raise RunnerError(f"task {path} has no META dict at module level; see docs/task-format.md.")
    return meta


def _eval(node: ast.expr, consts: dict[str, object]) -> object:
    """Evaluate literals, arithmetic and earlier module constants; anything else is refused."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError(f"line {node.lineno} unpacks a dict with **")
        return {_eval(k, consts): _eval(v, consts) for k, v in zip(node.keys, node.values, strict=True)}
    if isinstance(node, ast.List | ast.Tuple):
        items = [_eval(e, consts) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, consts)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_eval(node.left, consts), _eval(node.right, consts))
    if isinstance(node, ast.Name) and node.id in consts:
        return consts[node.id]
    raise ValueError(f"line {node.lineno} uses {ast.unparse(node)!r}")
