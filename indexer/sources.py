"""Materialise a source as a snapshot: its version and the files it has, readable on demand.

Git sources go through gitpython into a bare-clone cache under PASSWISE_HOME; a mirror map
points a URL at a local clone or bare repository for air-gapped machines.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from indexer.manifest import SourceSpec
from kb.errors import KBError

MIRRORS_ENV = "PASSWISE_MIRRORS"


@dataclass
class FileEntry:
    """A file of a snapshot; `digest` changes exactly when its content does."""

    path: str
    digest: str
    size: int
    read: Callable[[], bytes]


@dataclass
class Snapshot:
    source: SourceSpec
    version: str  # commit sha, package version, or directory content hash
    files: dict[str, FileEntry]
    repo_url: str = ""
    root: str = ""  # local folder for dir/package sources
    skipped: dict[str, str] = field(default_factory=dict)  # path -> why it is not indexed

    def permalink(self, path: str, start: int, end: int) -> str:
        if self.source.type == "git" and self.repo_url.startswith("https://github.com/"):
            return f"{self.repo_url}/blob/{self.version}/{path}#L{start}-L{end}"
        if self.source.type == "git":
            return f"{self.repo_url}@{self.version[:12]}:{path}#L{start}-L{end}"
        return f"file://{Path(self.root, path)}#L{start}-L{end}"


class SourceUnavailable(KBError):
    """The source cannot be had now (no network, no mirror, missing package)."""


def parse_mirrors(pairs: list[str] | None = None, env: str | None = None) -> dict[str, str]:
    """URL=PATH pairs from --mirror flags and the PASSWISE_MIRRORS variable (';'-separated)."""
    raw = [p for p in (env if env is not None else os.environ.get(MIRRORS_ENV, "")).split(";") if p]
    raw += pairs or []
    out = {}
    for pair in raw:
        url, sep, path = pair.partition("=")
        if not sep or not url or not path:
            raise KBError(f"Mirror {pair!r} is not URL=PATH; write e.g. "
                          "--mirror https://github.com/org/repo=/srv/mirrors/repo.git.")
        out[_norm_url(url)] = path
    return out


def _norm_url(url: str) -> str:
    return url.rstrip("/").removesuffix(".git")


def cache_dir(home: Path, url: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", _norm_url(url).split("://")[-1]).strip("-")
    return home / "git" / f"{slug[:80]}-{hashlib.sha1(url.encode()).hexdigest()[:8]}.git"


def snapshot(spec: SourceSpec, home: Path, mirrors: dict[str, str],
             log: Callable[[str], None] = lambda s: None, git_progress=None) -> Snapshot:
    """`git_progress` is a gitpython RemoteProgress (the indexer passes a progress bar)."""
    if spec.type == "git":
        return _git_snapshot(spec, home, mirrors, log, git_progress)
    if spec.type == "dir":
        return _dir_snapshot(spec, Path(spec.path))
    return _package_snapshot(spec)


# -- git -----------------------------------------------------------------------------------
def _git_snapshot(spec: SourceSpec, home: Path, mirrors: dict[str, str],
                  log: Callable[[str], None], progress=None) -> Snapshot:
    import git

    # Never wait on a credential prompt; give up on a transfer that stalls for a minute.
    for key, value in (("GIT_TERMINAL_PROMPT", "0"), ("GIT_HTTP_LOW_SPEED_LIMIT", "1000"),
                       ("GIT_HTTP_LOW_SPEED_TIME", "60")):
        os.environ.setdefault(key, value)
    origin = mirrors.get(_norm_url(spec.url), spec.url)
    if origin != spec.url and not Path(origin).exists():
        raise SourceUnavailable(f"the mirror {origin} given for {spec.url} does not exist; "
                                "fix the --mirror path")
    dest = cache_dir(home, spec.url)
    try:
        if dest.exists():
            repo = git.Repo(dest)
            repo.git.remote("set-url", "origin", origin)
            log(f"fetching {spec.name} from {origin}")
            repo.remotes.origin.fetch("+refs/heads/*:refs/heads/*", tags=True, prune=True,
                                      progress=progress)
        else:
            log(f"cloning {spec.name} from {origin}")
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_suffix(".partial")
            if tmp.exists():
                _rmtree(tmp)
            git.Repo.clone_from(origin, tmp, bare=True, progress=progress)
            tmp.rename(dest)  # a killed clone never leaves a half cache behind
            repo = git.Repo(dest)
        commit = repo.commit(spec.ref)
    except git.GitCommandError as e:
        why = (e.stderr or str(e)).strip().splitlines()[-1:] or ["git failed"]
        raise SourceUnavailable(
            f"cannot get {spec.url} ({why[0].strip()}); with no network, pass "
            f"--mirror {spec.url}=/path/to/local/clone") from e
    except (git.BadName, ValueError) as e:
        raise SourceUnavailable(f"{spec.url} has no ref {spec.ref!r}; fix `ref` in the manifest") from e
    files: dict[str, FileEntry] = {}
    skipped: dict[str, str] = {}
    for blob in commit.tree.traverse():
        if blob.type != "blob" or not spec.wants(blob.path):
            continue
        if blob.mode == 0o120000:
            skipped[blob.path] = "symbolic link, not followed"
            continue
        files[blob.path] = FileEntry(blob.path, blob.hexsha, blob.size,
                                     (lambda b=blob: b.data_stream.read()))
    return Snapshot(spec, commit.hexsha, files, repo_url=_norm_url(spec.url), skipped=skipped)


def _rmtree(p: Path) -> None:
    import shutil

    shutil.rmtree(p, ignore_errors=True)


# -- local directories and installed packages ------------------------------------------------
def _walk(spec: SourceSpec, root: Path, skipped: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """Regular files under root; symbolic links are never followed (they could point anywhere,
    /etc/passwd included) and each one wanted is recorded in `skipped` with the reason."""
    for dirpath, dirnames, filenames in os.walk(root):
        links = [d for d in dirnames if (Path(dirpath) / d).is_symlink()]
        dirnames[:] = sorted(d for d in dirnames
                             if d not in (".git", "__pycache__") and d not in links)
        for name in sorted(links):
            rel = (Path(dirpath) / name).relative_to(root).as_posix()
            skipped[rel + "/"] = "symbolic link to a directory, not followed"
        for name in sorted(filenames):
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            if not spec.wants(rel):
                continue
            if full.is_symlink():
                skipped[rel] = "symbolic link, not followed"
            elif full.is_file():
                yield rel, full
            else:
                skipped[rel] = "not a regular file"


def _file_entry(rel: str, full: Path) -> FileEntry:
    data = full.read_bytes()
    return FileEntry(rel, hashlib.sha1(data).hexdigest(), len(data), full.read_bytes)


def _entries(found: Iterator[tuple[str, Path]], skipped: dict[str, str]) -> dict[str, FileEntry]:
    files = {}
    for rel, full in found:
        try:
            files[rel] = _file_entry(rel, full)
        except OSError as e:  # no permission, or gone since listed
            skipped[rel] = f"unreadable ({e.strerror or type(e).__name__})"
    return files


def _dir_snapshot(spec: SourceSpec, root: Path) -> Snapshot:
    if not root.is_dir():
        raise SourceUnavailable(f"the directory {root} does not exist; fix `path` in the manifest")
    skipped: dict[str, str] = {}
    files = _entries(_walk(spec, root, skipped), skipped)
    digest = hashlib.sha1("".join(f"{p}:{f.digest}\n" for p, f in sorted(files.items())).encode())
    return Snapshot(spec, digest.hexdigest()[:16], files, root=str(root), skipped=skipped)


def _package_snapshot(spec: SourceSpec) -> Snapshot:
    found = importlib.util.find_spec(spec.package)
    if found is None or not found.submodule_search_locations:
        raise SourceUnavailable(f"the Python package {spec.package!r} is not installed here; "
                                f"install it (e.g. `pip install {spec.package}`)")
    root = Path(list(found.submodule_search_locations)[0])
    try:
        version = importlib.metadata.version(spec.package)
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    skipped: dict[str, str] = {}
    files = _entries(_walk(spec, root, skipped), skipped)
    return Snapshot(spec, version, files, root=str(root), skipped=skipped)


def compiler_version(snap: Snapshot) -> str:
    """The version tag chunks carry, so several compiler versions can live side by side."""
    spec = snap.source
    if spec.compiler_version:
        return spec.compiler_version
    if spec.type == "package":
        return f"{spec.package}-{snap.version}"
    if spec.type == "git" and spec.version_file in snap.files:
        text = snap.files[spec.version_file].read().decode("utf-8", "replace")
        m = re.search(r"(\d+\.\d+\.\d+[\w.+-]*)", text)
        if m:
            return m.group(1)
    # Not the commit: a new commit must not re-tag (and so re-embed) every unchanged chunk.
    return "" if spec.ref in ("HEAD", "") or re.fullmatch(r"[0-9a-f]{7,40}", spec.ref) else spec.ref
