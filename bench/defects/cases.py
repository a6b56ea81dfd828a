"""The seeded-defect cases: read each bench/defects/<case>/case.toml into a `DefectCase`.

Standard library only, so gpu_timing.py can load this file by path on a host without passwise.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11 on a device host: fall back to the simple subset we write
    tomllib = None

DEFECTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = DEFECTS_DIR.parents[1]
REQUIRED = ("task", "defect", "expected_family", "expected_card", "expected_tier", "expected_passes",
            "expected_symptom", "needs_escalation", "size", "backend")


class CaseError(ValueError):
    """A case folder that cannot be used; the message names the file and the fix."""


@dataclass
class SourceRange:
    """Where in the compiler source a behaviour is decided (lines at HEAD of the mirror)."""

    repo: str
    path: str
    start_line: int
    end_line: int
    note: str = ""


@dataclass
class DefectCase:
    """One seeded defect: a slow kernel, its fixed twin and what a diagnosis should conclude."""

    name: str
    folder: Path
    task: str
    defect: str
    expected_family: str
    expected_card: str
    expected_tier: int
    expected_passes: list[str]
    expected_symptom: str
    needs_escalation: bool
    size: str
    backend: str
    acceptable_families: list[str] = field(default_factory=list)
    held_out: bool = False  # frozen held-out third (split.py's hash rule); never tuned on
    model: str = ""         # the real-world kernel the case is modelled on ("" for the first 29)
    spent: str = ""         # why a held-out case was opened for fixes and so moved to development
    deciding_source: SourceRange | None = None
    related_sources: list[SourceRange] = field(default_factory=list)

    @property
    def task_dir(self) -> Path:
        """kernels/<task>, or the case's own task folder for "./task"."""
        if self.task.startswith("."):
            return (self.folder / self.task).resolve()
        return REPO_ROOT / "kernels" / self.task

    @property
    def slow(self) -> Path:
        return self.folder / "slow.py"

    @property
    def fixed(self) -> Path:
        return self.folder / "fixed.py"


def _read_toml(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    if tomllib is not None:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CaseError(f"{path} is not valid TOML ({exc}); fix the file.") from None
    return _read_simple_toml(text)


def _read_simple_toml(text: str) -> dict:
    """The scalar `key = value` lines of a case.toml (enough for timing: task, size, backend)."""
    data: dict = {}
    for line in text.splitlines():
        m = re.match(r"^(\w+)\s*=\s*(.+)$", line.strip())
        if not m or m.group(2).startswith(("{", "[")) and not m.group(2).endswith(("}", "]")):
            continue
        value = m.group(2).replace("true", "True").replace("false", "False")
        try:
            data[m.group(1)] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            continue
    return data


def _source(raw: dict | None) -> SourceRange | None:
    if not raw:
        return None
    return SourceRange(raw["repo"], raw["path"], int(raw["start_line"]), int(raw["end_line"]),
                       raw.get("note", ""))


def load_case(folder: Path) -> DefectCase:
    """Read one case folder; raises CaseError naming what is missing."""
    path = folder / "case.toml"
    if not path.is_file():
        raise CaseError(f"{folder} has no case.toml; every case folder needs one.")
    data = _read_toml(path)
    missing = [k for k in REQUIRED if k not in data]
    if missing and tomllib is not None:
        raise CaseError(f"{path} lacks {', '.join(missing)}; add the fields.")
    return DefectCase(
        name=folder.name, folder=folder, task=data["task"], defect=data.get("defect", ""),
        expected_family=data.get("expected_family", ""), expected_card=data.get("expected_card", ""),
        expected_tier=int(data.get("expected_tier", 0)),
        expected_passes=list(data.get("expected_passes", [])),
        expected_symptom=data.get("expected_symptom", ""),
        needs_escalation=bool(data.get("needs_escalation", False)),
        size=data.get("size", "large"), backend=data.get("backend", "cuda"),
        acceptable_families=list(data.get("acceptable_families", [])),
        held_out=bool(data.get("held_out", False)), model=data.get("model", ""),
        spent=data.get("spent", ""),
        deciding_source=_source(data.get("deciding_source")),
        related_sources=[s for s in (_source(r) for r in data.get("related_sources", [])) if s],
    )


def load_cases(names: list[str] | None = None, root: Path | None = None) -> list[DefectCase]:
    """Every case under bench/defects (folders with a case.toml), or the named ones, sorted."""
    root = root or DEFECTS_DIR
    folders = sorted(p.parent for p in root.glob("*/case.toml"))
    if names:
        unknown = sorted(set(names) - {f.name for f in folders})
        if unknown:
            raise CaseError(f"no case {', '.join(unknown)} under {root}; run without names to list them.")
        folders = [f for f in folders if f.name in names]
    return [load_case(f) for f in folders]
