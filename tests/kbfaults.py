"""Fault injection for the knowledge base: real commands, real kills, a real Chroma server.

`Zygote` is one process that has imported passwise and loaded the embedding model; each job is
a fork of it running `passwise.cli.main(argv)`, so a kill -9 can land anywhere in a real
`index` or `refresh` without paying the model load per run. `ChromaServer` is `chroma run` on
loopback that can be killed, frozen (SIGSTOP) and thawed. Used by tests/test_kb_faults.py and,
with more faults, by bench/kb/faults.py.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import git
import numpy as np

from tests.kbfixtures import make_compiler_repo, manifest, write

ROOT = Path(__file__).resolve().parent.parent
URL = "https://example.invalid/org/fault-compiler"

_ZYGOTE = r'''
import json, os, sys, traceback
import torch
torch.set_num_threads(1)  # no OpenMP pool in the parent: forks stay safe
import tqdm
tqdm.tqdm.monitor_interval = 0  # nor tqdm's monitor thread, whose lock a fork could inherit held
from kb.embed import Embedder
Embedder().embed(["warm up"])
import chromadb, indexer.index, passwise.cli, passwise.commands  # imported, no client opened
import kb.store, threading
assert threading.active_count() == 1, threading.enumerate()
print("ready", flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job["op"] == "wait":
        deadline = job["timeout"]
        import time
        end = time.time() + deadline
        while True:
            pid, status = os.waitpid(job["pid"], os.WNOHANG)
            if pid:
                print(json.dumps({"rc": os.waitstatus_to_exitcode(status)}), flush=True)
                break
            if time.time() > end:
                print(json.dumps({"rc": None}), flush=True)
                break
            time.sleep(0.05)
        continue
    pid = os.fork()
    if pid == 0:
        out = os.open(job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        err = os.open(job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1); os.dup2(err, 2)
        import faulthandler, signal
        faulthandler.register(signal.SIGUSR1)  # where a hung child is stuck, on request
        os.environ.update(job["env"])
        if job.get("files_per_batch"):
            indexer.index.FILES_PER_BATCH = job["files_per_batch"]
        try:
            if job.get("call"):
                import importlib
                mod, fn = job["call"].split(":")
                print(json.dumps(getattr(importlib.import_module(mod), fn)(*job["argv"])))
                rc = 0
            else:
                rc = passwise.cli.main(job["argv"])
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 2
        except BaseException:
            traceback.print_exc()
            rc = 99
        sys.stdout.flush(); sys.stderr.flush()
        os._exit(rc or 0)
    print(json.dumps({"pid": pid}), flush=True)
'''


@dataclass
class Job:
    pid: int
    out: Path
    err: Path
    started: float
    rc: int | None = None

    @property
    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    @property
    def stderr(self) -> str:
        return self.err.read_text(errors="replace")


class Zygote:
    """A warm passwise process that forks one child per command."""

    def __init__(self, workdir: Path):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false",
               "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-c", _ZYGOTE], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the zygote did not start: {line!r}")
        self.n = 0

    def _ask(self, msg: dict) -> dict:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def start(self, argv: list[str], env: dict[str, str] | None = None,
              files_per_batch: int | None = None, call: str = "") -> Job:
        """Fork a child running `passwise ARGV` (or, with `call="module:function"`, that
        function on ARGV, its result printed as JSON)."""
        self.n += 1
        out, err = self.workdir / f"{self.n}.out", self.workdir / f"{self.n}.err"
        pid = self._ask({"op": "run", "argv": argv, "env": env or {}, "out": str(out),
                         "err": str(err), "files_per_batch": files_per_batch,
                         "call": call})["pid"]
        return Job(pid, out, err, time.time())

    def wait(self, job: Job, timeout: float = 120) -> int | None:
        """The exit code (negative: killed by that signal), or None if still running."""
        if job.rc is None:
            job.rc = self._ask({"op": "wait", "pid": job.pid, "timeout": timeout})["rc"]
        return job.rc

    def run(self, argv: list[str], timeout: float = 120, **kw) -> Job:
        job = self.start(argv, **kw)
        if self.wait(job, timeout) is None:
            stacks = self.dump(job)
            self.kill(job)
            raise AssertionError(f"`passwise {' '.join(argv)}` ran over {timeout}s:\n{stacks}")
        return job

    def dump(self, job: Job) -> str:
        """The Python stacks of a running child (its stderr after SIGUSR1)."""
        try:
            os.kill(job.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return ""
        time.sleep(0.5)
        return job.stderr

    def kill(self, job: Job) -> int | None:
        try:
            os.kill(job.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return self.wait(job, 30)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    """`chroma run` on loopback, which a test can kill, freeze and bring back."""

    def __init__(self, path: Path, port: int | None = None):
        self.path, self.port = Path(path), port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        exe = Path(sys.executable).parent / "chroma"
        log = open(self.path.parent / f"chroma-{self.port}.log", "a")
        self.proc = subprocess.Popen([str(exe), "run", "--path", str(self.path), "--host",
                                      "127.0.0.1", "--port", str(self.port)],
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError("chroma run did not start")

    def signal(self, sig: int) -> None:
        os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.signal(signal.SIGCONT)
            self.signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class TokenProxy:
    """A bearer-token gate in front of `chroma run`, as a team puts nginx or Caddy there."""

    def __init__(self, upstream_port: int, token: str):
        import http.client
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        outer = self
        self.fail_next = 0  # answer this many requests with 503 first

        class Gate(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if outer.fail_next > 0:  # a restarting upstream, as a proxy reports it
                    outer.fail_next -= 1
                    return self.answer(503, [("Content-Type", "text/plain")], b"unavailable")
                if self.headers.get("Authorization") != f"Bearer {token}":
                    return self.answer(401, [("Content-Type", "application/json")],
                                       b'{"error": "unauthorized"}')
                conn = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=600)
                skip = {"host", "authorization", "connection", "content-length"}
                conn.request(self.command, self.path, body=body,
                             headers={k: v for k, v in self.headers.items() if k.lower() not in skip})
                resp = conn.getresponse()
                self.answer(resp.status, resp.getheaders(), resp.read())
                conn.close()

            def answer(self, status: int, headers, data: bytes) -> None:
                self.send_response(status)
                for k, v in headers:
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = forward

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Gate)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


BATCH = 3  # files per write batch: many batches, so kills land between and inside them


class World:
    """The fault corpus in two compiler versions, clean builds of both, a warm zygote."""

    def __init__(self, root: Path):
        self.root = root
        self.up_a = root / "upstream-a"
        repo = make_fault_repo(self.up_a, n_probes=15)
        self.up_b = root / "upstream-b"
        shutil.copytree(self.up_a, self.up_b)
        upgrade_fault_repo(git.Repo(self.up_b), n_probes=15)
        self.manifest = fault_manifest(root / "fault.toml", make_notes(root / "notes"))
        self.zygote = Zygote(root / "jobs")
        self.clean_a, self.seconds_a = self._build(root / "clean-a", self.up_a)
        self.clean_b, self.seconds_b = self._build(root / "clean-b", self.up_b)
        self.fp_a, self.fp_b = self.fingerprint(self.clean_a), self.fingerprint(self.clean_b)
        assert self.fp_a != self.fp_b and repo is not None

    def _build(self, home: Path, upstream: Path) -> tuple[Path, float]:
        t0 = time.time()
        job = self.zygote.run(self.index_argv(home, upstream, "--json"), files_per_batch=BATCH)
        assert job.rc == 0, job.stderr
        seconds = time.time() - t0
        (self.root / f"{home.name}-report.json").write_text(job.stdout)
        return home, seconds

    def index_argv(self, home: Path, upstream: Path, *extra: str) -> list[str]:
        return ["index", "--corpus", str(self.manifest), "--mirror", mirror_arg(upstream),
                "--home", str(home), "--quiet", *extra]

    def refresh_argv(self, home: Path, upstream: Path, *extra: str) -> list[str]:
        return ["refresh", "--mirror", mirror_arg(upstream), "--home", str(home), "--quiet", *extra]

    def fingerprint(self, home: Path, url: str = "", env: dict | None = None) -> dict:
        job = self.zygote.run([str(home), url], call="tests.kbfaults:fingerprint_home", env=env)
        assert job.rc == 0, job.stderr
        return json.loads(job.stdout)

    def copy_of_a(self, name: str) -> Path:
        home = self.root / name
        shutil.copytree(self.clean_a, home)
        return home




# -- tampered cache files ----------------------------------------------------------------------
class Marker:
    """A pickle that creates a file when loaded: proof of code execution."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def tampered_variants(cache: Path, marker: Path) -> dict[str, bytes]:
    good = cache.read_bytes()
    evil = pickle.dumps(Marker(marker))
    with np.load(cache, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(bytes(arrays["meta"]).decode())

    def npz(**changes) -> bytes:
        buf = io.BytesIO()
        np.savez(buf, **{**arrays, **changes})
        return buf.getvalue()

    foreign = {**meta, "stamp": {**meta["stamp"], "collection": "someone-elses-collection"}}
    return {
        "malicious pickle": evil,
        "pickle inside an npz": npz(docs=np.array([Marker(marker)], dtype=object)),
        "garbage": os.urandom(4096),
        "torn write": good[: len(good) // 2],
        "foreign collection": npz(meta=np.frombuffer(json.dumps(foreign).encode(), np.uint8)),
        "arrays that do not fit": npz(indptr=arrays["indptr"][:-3]),
        "empty file": b"",
        "not finite": npz(tfs=np.full_like(arrays["tfs"], np.nan)),
        "ids that do not fit": npz(meta=np.frombuffer(json.dumps(
            {**meta, "json": {**meta["json"], "ids": meta["json"]["ids"][:-1]}}).encode(), np.uint8)),
    }



# -- the corpus: a compiler in two versions, enough files for many write batches ------------
def _probe_file(i: int, version: str) -> str:
    return (f"namespace mlir::fault {{\n// probe {i} of compiler {version}\n"
            f"int faultProbe{i}Width(int lanes) {{\n  // vectorizes loads of probe {i}\n"
            f"  return lanes * {i + 1};\n}}\n"
            f"bool faultProbe{i}Legal(int stages) {{\n  return stages > {i % 5};\n}}\n}}\n")


def make_fault_repo(root: Path, n_probes: int = 24) -> git.Repo:
    """Version 3.5.0 of a compiler: the fixture compiler plus `n_probes` small C++ files."""
    repo, _ = make_compiler_repo(root)
    write(root, {"VERSION": "3.5.0\n"})
    write(root, {f"lib/probes/Probe{i}.cpp": _probe_file(i, "3.5.0") for i in range(n_probes)})
    repo.git.add(A=True)
    repo.index.commit("compiler 3.5.0")
    return repo


def upgrade_fault_repo(repo: git.Repo, n_probes: int = 24) -> str:
    """Compiler 3.6.0: every chunk re-tagged, a third of the probes changed, some gone, one new."""
    root = Path(repo.working_tree_dir)
    write(root, {"VERSION": "3.6.0\n"})
    write(root, {f"lib/probes/Probe{i}.cpp": _probe_file(i, "3.6.0").replace(
        "return lanes", "return upgradedLanes(lanes)") for i in range(0, n_probes, 3)})
    for i in range(1, n_probes, 6):
        (root / f"lib/probes/Probe{i}.cpp").unlink()
    write(root, {"lib/probes/NewPass.cpp": "int faultUpgradeOnlySymbol() { return 36; }\n"})
    repo.git.add(A=True)
    repo.index.commit("compiler 3.6.0")
    return repo.head.commit.hexsha


def make_notes(root: Path) -> Path:
    """A directory source: a few notes and a symbolic link that must never be followed."""
    write(root, {f"note{i}.md": f"# Note {i}\n\nThe notesOnlyTerm{i} explains tile size {i}.\n"
                 for i in range(4)})
    (root / "passwd.md").symlink_to("/etc/passwd")
    return root


def fault_manifest(path: Path, notes: Path) -> Path:
    """Two sources: the fault compiler (git, read through a --mirror) and the notes folder."""
    return manifest(path, URL, extra=f'version_file = "VERSION"\n\n[[sources]]\nname = "notes"\n'
                                     f'type = "dir"\npath = "{notes}"\n')


def mirror_arg(upstream: Path) -> str:
    return f"{URL}={upstream}"


QUERIES = ("faultProbe3Width vectorizes loads", "upgradedLanes", "faultUpgradeOnlySymbol",
           "getVectorWidth contiguity divisibility", "canPipelineLoop stages")


def fingerprint(kb) -> dict:
    """What a user would see: every chunk (id, commit, compiler version) and the hits of a few
    searches in both modes."""
    chunks = sorted(f"{i} {m.get('commit', '')[:12]} {m.get('compiler_version')}"
                    for page, _, metas in kb.store.iter_all() for i, m in zip(page, metas, strict=True))
    out: dict = {"chunks": chunks}
    for q in QUERIES:  # hits with their scores; the order among exact ties is arbitrary
        for mode in ("lexical", "hybrid"):
            hits = kb.search(q, k=5, mode=mode)
            out[f"{mode}:{q}"] = sorted((-round(h.score, 4), h.id) for h in hits)
    return out


def fingerprint_home(home: str, chroma_url: str = "") -> dict:
    """`fingerprint` of the knowledge base at `home` (a zygote `call`)."""
    from passwise.commands import open_settings_kb
    from passwise.settings import Settings

    s = Settings(home=Path(home), chroma_url=chroma_url or None, corpus_set="main")
    return fingerprint(open_settings_kb(s))


def index_with_a_reader_between_batches(home: str, upstream: str, notes: str) -> dict:
    """Index the fault corpus two files a batch while another view of the store rebuilds its
    lexical index after every batch (a zygote `call`); then what a later process sees."""
    import indexer.index as ix
    from indexer.manifest import load_corpus_file
    from kb.search import open_kb

    class ReaderBetweenBatches(ix.Progress):
        def bar(self, total: int, desc: str, unit: str = "it"):
            reader = open_kb(Path(home), corpus_set="main")

            class Bar:
                def update(self, n: int) -> None:
                    reader.lexical()

                def close(self) -> None:
                    pass

            return Bar()

    ix.FILES_PER_BATCH = 2
    corpus = load_corpus_file(fault_manifest(Path(home).parent / "between.toml", Path(notes)))
    writer = open_kb(Path(home), corpus_set="main")
    ix.index_corpus(writer, corpus, mirrors={URL: upstream}, progress=ReaderBetweenBatches(True))
    later = open_kb(Path(home), corpus_set="main")
    return {"lexical_docs": len(later.lexical()), "stored": later.store.count(),
            "hit": [h.chunk.path for h in later.search("faultProbe5Legal", k=1, mode="lexical")]}
