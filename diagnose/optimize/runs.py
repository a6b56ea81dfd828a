"""Run records: one folder per run, one folder per round, files written once (temp + rename).

Resume is reading the folder back: a round is complete when its verdict.json exists, and an
incomplete round carries on at its first missing file (docs/runs.md)."""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1


class RunError(ValueError):
    """A mistake a user can fix (unknown run, unreadable record): one sentence."""


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_once(path: Path, content: str | dict | list) -> Path:
    """Write a whole file atomically: a reader (or a resume after kill -9) sees all or nothing."""
    text = content if isinstance(content, str) else json.dumps(content, indent=2, default=str)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def _sweep_dead_writes(folder: Path) -> None:
    """Remove the temporary files of `write_once` calls whose process is gone (a run killed
    mid-write): never read, they would only sit beside the whole files of the run."""
    for tmp in folder.rglob(".*.tmp"):
        pid = tmp.name.rsplit(".", 2)[-2]
        if pid.isdigit() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def unified_diff(before: str, after: str, a: str, b: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), a, b))


@dataclass
class RoundDir:
    """One round's folder; every accessor reads what is on disk, nothing is cached."""

    path: Path

    @property
    def number(self) -> int:
        return int(self.path.name)

    def has(self, name: str) -> bool:
        return (self.path / name).is_file()

    def read(self, name: str) -> Any:
        return read_json(self.path / name)

    def text(self, name: str) -> str:
        return (self.path / name).read_text(encoding="utf-8")

    def write(self, name: str, content: str | dict | list) -> Path:
        return write_once(self.path / name, content)

    @property
    def complete(self) -> bool:
        return self.has("verdict.json")

    @property
    def verdict(self) -> str | None:
        return self.read("verdict.json")["verdict"] if self.complete else None

    def runner_answer(self, key: str) -> dict | None:
        path = self.path / "runner" / f"{key}.json"
        return read_json(path) if path.is_file() else None


class RunRecord:
    """A run folder under PASSWISE_HOME/runs/."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, home: Path, target: str, input_text: str, settings: dict) -> RunRecord:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", target) or "kernel"
        run_id = f"{name}-{stamp}-{secrets.token_hex(2)}"
        rec = cls(home / "runs" / run_id)
        rec.path.mkdir(parents=True)
        write_once(rec.path / "input.py", input_text)
        write_once(rec.path / "run.json", {"schema_version": SCHEMA_VERSION, "run_id": run_id,
                                           "target": target, **settings,
                                           "input_sha256": sha256(input_text), "created": now()})
        return rec

    @classmethod
    def open(cls, home: Path, run: str) -> RunRecord:
        """A run by id (under home/runs) or by path."""
        for path in (Path(run).expanduser(), home / "runs" / run):
            if (path / "run.json").is_file():
                _sweep_dead_writes(path)
                return cls(path.resolve())
        raise RunError(f"No run {run!r}: pass a run id under {home / 'runs'} or the path of a "
                       "run folder (it holds run.json).")

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def settings(self) -> dict:
        return read_json(self.path / "run.json")

    @property
    def input_text(self) -> str:
        return (self.path / "input.py").read_text(encoding="utf-8")

    def rounds(self) -> list[RoundDir]:
        folder = self.path / "rounds"
        if not folder.is_dir():
            return []
        return sorted((RoundDir(p) for p in folder.iterdir() if p.is_dir() and p.name.isdigit()),
                      key=lambda r: r.number)

    def new_round(self, number: int) -> RoundDir:
        rd = RoundDir(self.path / "rounds" / f"{number:02d}")
        rd.path.mkdir(parents=True, exist_ok=True)
        return rd

    def best(self) -> RoundDir | None:
        """The last round whose kernel became a parent (baseline or accepted)."""
        good = [r for r in self.rounds() if r.verdict in ("baseline", "accepted")]
        return good[-1] if good else None

    def write_derived(self, summary: dict) -> None:
        """best.py, best.diff and summary.json: re-derived at the end of every invocation."""
        best = self.best()
        text = best.text("kernel.py") if best else self.input_text
        write_once(self.path / "best.py", text)
        write_once(self.path / "best.diff", unified_diff(self.input_text, text, "input.py", "best.py"))
        write_once(self.path / "summary.json", summary)
