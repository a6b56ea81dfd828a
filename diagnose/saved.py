"""Saved diagnoses under PASSWISE_HOME/diagnoses/: the JSON the CLI writes, the IR stages its
symptoms were seen in (`diagnoses/stages/<name>.json`), and reading them back by name."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from diagnose.report import Diagnosis

# A saved diagnosis is named by its file stem; nothing else may reach the filesystem.
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$")
# Stage texts kept per symptom: enough to read the change, small enough to keep beside the JSON.
MAX_STAGE_CHARS = 200_000


class SavedDiagnosisError(ValueError):
    """A name that is not a saved diagnosis (one sentence, for the user)."""


@dataclass
class SavedDiagnosis:
    """One file of PASSWISE_HOME/diagnoses/: its name and the headline fields."""

    name: str
    target: str
    backend: str
    verdict: str
    rewrite_family: str
    created: str

    def to_json(self) -> dict[str, str]:
        return dict(self.__dict__)


def diagnoses_dir(home: Path) -> Path:
    return Path(home) / "diagnoses"


def stages_path(home: Path, name: str) -> Path:
    return diagnoses_dir(home) / "stages" / f"{name}.json"


def save_diagnosis(diagnosis: Diagnosis, home: Path, stages: dict[str, Any] | None = None,
                   out: Path | None = None) -> list[Path]:
    """Write the JSON to `out` (if given) and to diagnoses/<target>-<UTC stamp>.json, and the
    stage sidecar beside the latter; OSError propagates for the caller to phrase."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", diagnosis.target).lstrip(".-") or "kernel"
    kept = diagnoses_dir(home) / f"{name}-{stamp}.json"
    paths = ([out] if out else []) + [kept]
    text = diagnosis.to_json()
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if stages:
        sidecar = stages_path(home, kept.stem)
        sidecar.parent.mkdir(parents=True, exist_ok=True)
        sidecar.write_text(json.dumps(stages), encoding="utf-8")
    return paths


def symptom_stages(capture: Any, diagnosis: Diagnosis) -> dict[str, Any]:
    """For each IR symptom: the stage it was seen in and the stage before, as text.

    Keyed "<kernel>:<stage index>"; each value is {"kernel", "before": {name, pass_arg, text},
    "after": {...}}. `capture` is the ladder's IRCapture (None when tier 3 did not run)."""
    if capture is None:
        return {}
    kernels = {k.kernel: k for k in capture.kernels}
    out: dict[str, Any] = {}
    for tier in diagnosis.tiers:
        for f in tier.findings:
            loc = f.location or {}
            kir = kernels.get(loc.get("function") or "")
            if f.kind != "ir-symptom" or kir is None or loc.get("stage") is None:
                continue
            pair = _stage_pair(kir.stages, int(loc["stage"]))
            if pair:
                out[f"{kir.kernel}:{loc['stage']}"] = {"kernel": kir.kernel, **pair}
    return out


def _stage_pair(stages: list, index: int) -> dict[str, Any] | None:
    at = next((n for n, st in enumerate(stages) if st.index == index), None)
    if at is None:
        return None
    before = stages[at - 1] if at > 0 else None
    return {"before": _stage_json(before) if before else None, "after": _stage_json(stages[at])}


def _stage_json(stage: Any) -> dict[str, Any]:
    return {"index": stage.index, "name": stage.name, "pass_arg": stage.pass_arg,
            "when": stage.when, "text": stage.text[:MAX_STAGE_CHARS]}


def list_saved(home: Path) -> list[SavedDiagnosis]:
    """Every readable saved diagnosis, newest first; unreadable files are left out."""
    rows = []
    for path in diagnoses_dir(home).glob("*.json"):
        if not NAME.match(path.stem):
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            conclusion = data.get("conclusion") or {}
            rows.append(SavedDiagnosis(path.stem, str(data["target"]), str(data["backend"]),
                                       str(data["verdict"]),
                                       str(conclusion.get("rewrite_family", "")),
                                       str(data.get("created", ""))))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return sorted(rows, key=lambda r: (r.created, r.name), reverse=True)


def load_saved(home: Path, name: str) -> tuple[Diagnosis, dict[str, Any]]:
    """The diagnosis called `name` and its stage sidecar ({} when there is none)."""
    if not NAME.match(name or ""):
        raise SavedDiagnosisError(f"{name!r} is not the name of a saved diagnosis.")
    path = diagnoses_dir(home) / f"{name}.json"
    try:
        diagnosis = Diagnosis.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise SavedDiagnosisError(f"No saved diagnosis is called {name!r}.") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SavedDiagnosisError(f"The saved diagnosis {name!r} cannot be read ({exc}).") from None
    sidecar = stages_path(home, name)
    try:
        stages = json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.exists() else {}
    except (OSError, ValueError):
        stages = {}
    return diagnosis, stages
