"""Validate bench/kb/questions.toml against the mirrored repositories.

Checks that the TOML parses, ids are unique, every truth path exists at the
recorded commit and every line range lies inside its file. Run from the repo root:

    python bench/kb/check_questions.py [--v2] [--mirror NAME=GIT_DIR ...] [--show]

With --v2 it checks bench/kb/questions-v2.toml instead, including that each
question's `part` agrees with the frozen hash split (or is listed as moved to dev).
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

QUESTIONS = Path(__file__).with_name("questions.toml")
QUESTIONS_V2 = Path(__file__).with_name("questions-v2.toml")
DEFAULT_MIRRORS = {
    "triton-ascend": "/work/.mirror/triton-lang+triton-ascend/repo",
    "ascendnpu-ir": "/work/.mirror/Ascend+AscendNPU-IR/repo",
    "msopprof": "/work/.mirror/Ascend+msopprof/repo",
    "oam-tools": "/work/.mirror/hicann+oam-tools/repo",
}
COMMIT_KEYS = {"triton-ascend": "triton_ascend_commit", "ascendnpu-ir": "ascendnpu_ir_commit",
               "msopprof": "msopprof_commit", "oam-tools": "oam_tools_commit"}
PARTS = ("dev", "held-out")
REQUIRED_Q = ("id", "backend", "question", "truth")
REQUIRED_T = ("repo", "path", "start_line", "end_line", "why")


@dataclass(frozen=True)
class Problem:
    """One failed check, named by question id."""

    qid: str
    message: str


def file_lines(git_dir: str, commit: str, path: str) -> list[str] | None:
    """Return the file's lines at `commit`, or None if it does not exist there."""
    result = subprocess.run(
        ["git", "-C", git_dir, "show", f"{commit}:{path}"],
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", errors="replace").splitlines()


def hashed_part(qid: str) -> str:
    """The frozen split of set v2: a third of the ids, chosen by hash, is held out."""
    return "held-out" if int(hashlib.sha256(qid.encode()).hexdigest(), 16) % 3 == 0 else "dev"


def check_part(q: dict, moved: set[str]) -> list[Problem]:
    """A v2 question's part must be its hashed part, unless it was moved to dev and listed."""
    qid, part = q.get("id", "?"), q.get("part")
    if part not in PARTS:
        return [Problem(qid, f"bad part {part!r}")]
    want = "dev" if qid in moved else hashed_part(qid)
    return [] if part == want else [Problem(qid, f"part {part!r} but the split says {want!r}")]


def check(data: dict, mirrors: dict[str, str], show: bool) -> list[Problem]:
    """Run every check over the parsed question set."""
    problems: list[Problem] = []
    meta = data.get("meta", {})
    cache: dict[tuple[str, str], list[str] | None] = {}
    seen: set[str] = set()
    for q in data.get("q", []):
        qid = q.get("id", "?")
        for key in REQUIRED_Q:
            if key not in q:
                problems.append(Problem(qid, f"missing key {key!r}"))
        if qid in seen:
            problems.append(Problem(qid, "duplicate id"))
        seen.add(qid)
        if q.get("backend") not in ("cuda", "ascend"):
            problems.append(Problem(qid, f"bad backend {q.get('backend')!r}"))
        for t in q.get("truth", []):
            problems.extend(check_truth(qid, t, meta, mirrors, cache, show))
        problems.extend(check_vendored(q, meta, cache))
        if "split_rule" in meta:
            problems.extend(check_part(q, set(meta.get("moved_to_dev", []))))
    return problems


def range_text(t: dict, meta: dict, cache: dict) -> list[str] | None:
    """The lines a truth entry points at, from the cache filled by check_truth."""
    lines = cache.get((t["repo"], t["path"]))
    if lines is None:
        return None
    return lines[t["start_line"] - 1 : t["end_line"]]


def check_vendored(q: dict, meta: dict, cache: dict) -> list[Problem]:
    """A truth marked vendored must repeat, line for line, a primary truth of the question."""
    truths = q.get("truth", [])
    primary = [t for t in truths if not t.get("vendored")]
    problems = []
    for t in truths:
        if not t.get("vendored"):
            continue
        copy = range_text(t, meta, cache)
        if not any(copy is not None and copy == range_text(o, meta, cache) for o in primary):
            problems.append(Problem(q.get("id", "?"), f"vendored {t['path']} matches no primary truth"))
    return problems


def check_truth(qid, t, meta, mirrors, cache, show) -> list[Problem]:
    """Check one truth entry: keys, repo, path at commit, range bounds."""
    missing = [k for k in REQUIRED_T if k not in t]
    if missing:
        return [Problem(qid, f"truth missing {missing}")]
    repo = t["repo"]
    if repo not in mirrors or COMMIT_KEYS.get(repo) not in meta:
        return [Problem(qid, f"unknown repo {repo!r}")]
    key = (repo, t["path"])
    if key not in cache:
        cache[key] = file_lines(mirrors[repo], meta[COMMIT_KEYS[repo]], t["path"])
    lines = cache[key]
    if lines is None:
        return [Problem(qid, f"{repo}:{t['path']} not found at commit")]
    start, end = t["start_line"], t["end_line"]
    if not (1 <= start <= end <= len(lines)):
        return [Problem(qid, f"{t['path']} range {start}-{end} outside 1-{len(lines)}")]
    if show:
        print(f"--- {qid}  {repo}:{t['path']}:{start}-{end}")
        print(f"    {start}: {lines[start - 1].strip()[:100]}")
        print(f"    {end}: {lines[end - 1].strip()[:100]}")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", action="append", default=[], help="NAME=GIT_DIR")
    parser.add_argument("--show", action="store_true", help="print first/last line of each range")
    parser.add_argument("--v2", action="store_true", help="check questions-v2.toml")
    args = parser.parse_args(argv)
    mirrors = dict(DEFAULT_MIRRORS)
    for item in args.mirror:
        name, _, path = item.partition("=")
        mirrors[name] = path
    data = tomllib.loads((QUESTIONS_V2 if args.v2 else QUESTIONS).read_text(encoding="utf-8"))
    problems = check(data, mirrors, args.show)
    questions = data.get("q", [])
    by_backend = {b: sum(q.get("backend") == b for q in questions) for b in ("cuda", "ascend")}
    by_part = {p: sum(q.get("part") == p for q in questions) for p in PARTS}
    print(f"{len(questions)} questions ({by_backend}, {by_part}), {len(problems)} problems")
    for p in problems:
        print(f"  {p.qid}: {p.message}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
