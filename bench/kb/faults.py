"""Fault injection at scale: how many faults the knowledge base takes, how many states heal, how fast.

Runs the CI suite's faults (tests/kbfaults.py) many more times, at random points (seeded):
kill -9 during `index` and during `refresh` after a compiler upgrade, a Chroma server killed
during `index` and frozen (SIGSTOP) during `refresh`, readers beside a writer, two writers,
tampered lexical caches. A state is healed when one `refresh` (or `index`, if the kill came
before any state) makes every chunk and search hit equal to a clean build's.

    python bench/kb/faults.py --trials 4 --seed 7 --home /path/to/a/copy/of/a/home
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.kbfaults import BATCH, ChromaServer, World, tampered_variants  # noqa: E402


def _one_sentence(job) -> bool:
    lines = [x for x in job.stderr.splitlines() if x.strip()]
    return (job.rc == 1 and "Traceback" not in job.stderr and len(lines) == 1
            and lines[0].startswith("passwise: ") and lines[0].endswith("."))


def _heal(world: World, home: Path, upstream: Path, want: dict, *url: str) -> dict:
    t0 = time.time()
    job = world.zygote.run(world.refresh_argv(home, upstream, *url), files_per_batch=BATCH,
                           timeout=300)
    if "Nothing is indexed yet" in job.stderr:
        job = world.zygote.run(world.index_argv(home, upstream, *url), files_per_batch=BATCH,
                               timeout=300)
    seconds = time.time() - t0
    got = world.fingerprint(home, url[1] if url else "") if job.rc == 0 else {}
    out = {"healed": job.rc == 0 and got == want, "heal_s": round(seconds, 2), "heal_rc": job.rc}
    if job.rc == 0 and got != want:  # what differs, for the next person to look
        out["differs"] = {k: {"extra": sorted(map(str, got[k]))[:8] if k not in want else
                              sorted(set(map(str, got[k])) - set(map(str, want[k])))[:8],
                              "missing": sorted(set(map(str, want[k])) - set(map(str, got.get(k, []))))[:8]}
                          for k in want if got.get(k) != want[k]}
    return out


def _statuses(world: World, home: Path, *url: str) -> list[str]:
    job = world.zygote.run(["sources", "--json", "--home", str(home), *url])
    return sorted(r["status"] for r in json.loads(job.stdout)) if job.rc == 0 else []


def kill_index(world: World, rng: random.Random, n: int) -> dict:
    home = world.root / f"b-kill-index-{n}"
    at = rng.uniform(0.2, world.seconds_a)
    job = world.zygote.start(world.index_argv(home, world.up_a), files_per_batch=BATCH)
    time.sleep(at)
    killed = world.zygote.kill(job) == -signal.SIGKILL
    shown = _statuses(world, home)
    truthful = set(shown) != {"complete"} or world.fingerprint(home) == world.fp_a
    return {"at_s": round(at, 2), "landed": killed, "shown": shown, "truthful": truthful,
            **_heal(world, home, world.up_a, world.fp_a)}


def kill_refresh(world: World, rng: random.Random, n: int) -> dict:
    home = world.copy_of_a(f"b-kill-refresh-{n}")
    at = rng.uniform(0.2, world.seconds_b)
    job = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
    time.sleep(at)
    killed = world.zygote.kill(job) == -signal.SIGKILL
    shown = _statuses(world, home)
    mid = world.zygote.run(["search", "faultProbe3Width", "--mode", "lexical", "--json",
                            "--home", str(home)])
    return {"at_s": round(at, 2), "landed": killed, "shown": shown,
            "answered_while_mixed": mid.rc == 0, **_heal(world, home, world.up_b, world.fp_b)}


def server_kill(world: World, rng: random.Random, n: int) -> dict:
    server = ChromaServer(world.root / f"b-server-{n}")
    home, url = world.root / f"b-server-home-{n}", ("--chroma-url", server.url)
    try:
        at = rng.uniform(0.5, world.seconds_a)
        job = world.zygote.start(world.index_argv(home, world.up_a, *url), files_per_batch=BATCH)
        time.sleep(at)
        server.kill()
        world.zygote.wait(job, timeout=120)
        server.start()
        return {"at_s": round(at, 2), "landed": job.rc != 0, "told": job.rc == 0 or _one_sentence(job),
                **_heal(world, home, world.up_a, world.fp_a, *url)}
    finally:
        server.stop()


def server_freeze(world: World, rng: random.Random, n: int) -> dict:
    server = ChromaServer(world.root / f"b-frozen-{n}")
    home, url = world.root / f"b-frozen-home-{n}", ("--chroma-url", server.url)
    env = {"PASSWISE_CHROMA_READ_TIMEOUT": "2", "PASSWISE_CHROMA_CONNECT_TIMEOUT": "2"}
    try:
        world.zygote.run(world.index_argv(home, world.up_a, *url), files_per_batch=BATCH, timeout=300)
        at = rng.uniform(0.3, world.seconds_b)
        job = world.zygote.start(world.refresh_argv(home, world.up_b, *url), env=env,
                                 files_per_batch=BATCH)
        time.sleep(at)
        server.signal(signal.SIGSTOP)
        t0 = time.time()
        ended = world.zygote.wait(job, timeout=120) is not None
        gave_up_s = time.time() - t0
        server.signal(signal.SIGCONT)
        if not ended:
            world.zygote.kill(job)
        return {"at_s": round(at, 2), "landed": job.rc != 0, "ended": ended,
                "gave_up_after_s": round(gave_up_s, 2),
                "told": job.rc == 0 or _one_sentence(job),
                **_heal(world, home, world.up_b, world.fp_b, *url)}
    finally:
        server.stop()


def readers(world: World, rng: random.Random, n: int) -> dict:
    home = world.copy_of_a(f"b-readers-{n}")
    writer = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
    jobs = []
    while world.zygote.wait(writer, timeout=0.01) is None and len(jobs) < 12:
        mode = ["--mode", "lexical"] if rng.random() < 0.5 else []
        jobs.append(world.zygote.start(["search", "faultUpgradeOnlySymbol upgradedLanes", "--json",
                                        "--home", str(home), *mode]))
        time.sleep(rng.uniform(0.1, 0.6))
    world.zygote.wait(writer, timeout=300)
    ok = sum(world.zygote.wait(j) == 0 and isinstance(json.loads(j.stdout or "null"), list)
             for j in jobs)
    return {"readers": len(jobs), "answered": ok, "writer_rc": writer.rc,
            "healed": world.fingerprint(home) == world.fp_b, "heal_s": 0.0}


def two_writers(world: World, rng: random.Random, n: int) -> dict:
    home = world.copy_of_a(f"b-writers-{n}")
    first = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
    time.sleep(rng.uniform(0.1, 1.5))
    second = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
    rcs = (world.zygote.wait(first, 300), world.zygote.wait(second, 300))
    return {"rcs": rcs, "waited": "waiting for `passwise refresh`" in second.stderr,
            "healed": rcs == (0, 0) and world.fingerprint(home) == world.fp_b, "heal_s": 0.0}


def tamper(world: World, rng: random.Random, n: int) -> dict:
    from passwise import cli

    home = world.copy_of_a(f"b-tamper-{n}")
    argv = ["search", "faultProbe3Width vectorizes loads", "--mode", "lexical", "--json",
            "--home", str(home)]
    want, _ = _run_cli(cli, argv)
    cache = next((home / "lexical").glob("*.npz"))
    marker = Path(tempfile.mkdtemp()) / "code-ran"
    rows = []
    for name, data in tampered_variants(cache, marker).items():
        cache.write_bytes(data)
        t0 = time.time()
        got, err = _run_cli(cli, argv)
        rows.append({"variant": name, "healed": got == want, "heal_s": round(time.time() - t0, 2),
                     "warnings": sum("warning" in x for x in err.splitlines()),
                     "code_ran": marker.exists()})
    return {"variants": rows, "healed": all(r["healed"] for r in rows),
            "code_ran": any(r["code_ran"] for r in rows),
            "heal_s": max(r["heal_s"] for r in rows)}


def _run_cli(cli, argv: list[str]) -> tuple[list, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    assert rc == 0, err.getvalue()
    return [h["id"] for h in json.loads(out.getvalue())], err.getvalue()


KINDS = {"kill -9 during index": kill_index, "kill -9 during refresh after an upgrade": kill_refresh,
         "server killed during index": server_kill, "server frozen during refresh": server_freeze,
         "readers beside a refresh": readers, "two writers": two_writers,
         "tampered lexical cache": tamper}


def persistence(home: Path) -> dict:
    """What the data-only cache costs on a real knowledge base (a copy: its cache is rewritten)."""
    from kb import lexical_cache
    from kb.search import open_kb

    kb = open_kb(home, corpus_set="main")
    kb.lexical_path.unlink(missing_ok=True)
    t0 = time.perf_counter()
    idx = kb.lexical()
    rebuild = time.perf_counter() - t0
    stamp = lexical_cache.make_stamp(*kb.store.content_stamp())
    loads = []
    for _ in range(5):
        t0 = time.perf_counter()
        lexical_cache.load(kb.lexical_path, stamp)
        loads.append(time.perf_counter() - t0)
    return {"home": str(home), "chunks": len(idx), "rebuild_s": round(rebuild, 2),
            "cache_mb": round(kb.lexical_path.stat().st_size / 2**20, 1),
            "load_s_median": round(statistics.median(loads), 3)}


def summarise(trials: list[dict]) -> dict:
    heal = [t["heal_s"] for t in trials if t.get("heal_s")]
    out = {"injected": len(trials), "healed": sum(bool(t["healed"]) for t in trials),
           "heal_s_median": round(statistics.median(heal), 2) if heal else "-",
           "heal_s_max": round(max(heal), 2) if heal else "-"}
    failed_after = [t["gave_up_after_s"] for t in trials if "gave_up_after_s" in t]
    if failed_after:
        out["failed_after_s_max"] = max(failed_after)
    for key in ("landed", "told", "truthful", "answered_while_mixed", "waited", "code_ran", "ended"):
        if any(key in t for t in trials):
            out[key] = sum(bool(t.get(key)) for t in trials)
    if any("variants" in t for t in trials):
        out["injected"] = sum(len(t["variants"]) for t in trials)
        out["healed"] = sum(v["healed"] for t in trials for v in t["variants"])
        out["one_warning"] = sum(v["warnings"] == 1 for t in trials for v in t["variants"])
    if any("readers" in t for t in trials):
        out["reader_commands"] = sum(t["readers"] for t in trials)
        out["readers_answered"] = sum(t["answered"] for t in trials)
    return out


def environment() -> dict:
    import chromadb
    import numpy

    sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                         text=True).stdout.strip()
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.node()} ({platform.machine()}, {os.cpu_count()} cores, "
                       f"load {os.getloadavg()[0]:.1f} at start)",
            "python": platform.python_version(), "chromadb": chromadb.__version__,
            "numpy": numpy.__version__, "passwise_commit": sha}


def write_results(out: Path, env: dict, summary: dict, trials: dict, seed: int, args,
                  cache: dict | None) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {**env, "seed": seed, "trials_per_kind": args.trials, "files_per_batch": BATCH,
           "summary": summary, "lexical_cache": cache, "trials": trials}
    out.with_suffix(".json").write_text(json.dumps(doc, indent=1) + "\n")
    lines = [f"# Knowledge base under faults ({env['date']})", "",
             f"Machine: {env['machine']}; Python {env['python']}, chromadb {env['chromadb']}, "
             f"numpy {env['numpy']}; passwise {env['passwise_commit']}; seed {seed}.", "",
             f"Produced by `python bench/kb/faults.py --trials {args.trials} --seed {seed}` on the "
             "fault corpus of tests/kbfaults.py (a compiler at 3.5.0 and 3.6.0 + a notes folder; "
             f"{BATCH} files per write batch). Healed = after one `refresh`, every chunk (id, "
             "commit, compiler version) and the top-5 hits of 5 queries in lexical and hybrid "
             "mode equal a clean build's. Heal time: the healing command, wall clock.", "",
             "| fault | injected | landed mid-command | healed | heal s (median / max) | other |",
             "|---|---|---|---|---|---|"]
    for kind, s in summary.items():
        other = ", ".join(f"{k} {v}" for k, v in s.items()
                          if k not in ("injected", "healed", "heal_s_median", "heal_s_max", "landed"))
        lines.append(f"| {kind} | {s['injected']} | {s.get('landed', '-')} | {s['healed']} | "
                     f"{s['heal_s_median']} / {s['heal_s_max']} | {other} |")
    lines += ["", "Column `other`: `told` = failed commands that ended in one `passwise:` sentence "
              "with exit 1 (or succeeded); `truthful` = after the kill, `sources` called every "
              "source complete only when it was; `code_ran` = tampered caches that executed code "
              "(must be 0); `one_warning` = tampered caches reported in exactly one warning line.",
              "", "Load on the shared 2-core machine inflates every time here; compare counts, "
              "not seconds, across runs."]
    if cache:
        lines += ["", f"Lexical cache on a real knowledge base ({cache['chunks']} chunks, a copy of "
                  f"`{cache['home']}`): rebuilt from the store in {cache['rebuild_s']} s, "
                  f"{cache['cache_mb']} MB as .npz (arrays + JSON, read with allow_pickle=False "
                  f"and checked), loaded in {cache['load_s_median']} s (median of 5)."]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=6, help="faults of each kind (default 6)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated subset of the kinds")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "kb-faults")
    ap.add_argument("--home", type=Path, help="also time the lexical cache on this knowledge "
                    "base (a COPY: its cache is deleted and rebuilt)")
    args = ap.parse_args()
    env = environment()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="passwise-faults-") as tmp:
        world = World(Path(tmp))
        trials: dict[str, list[dict]] = {}
        try:
            for kind in args.kinds.split(","):
                trials[kind] = []
                for n in range(args.trials):
                    trials[kind].append(KINDS[kind](world, rng, n))
                    print(f"{kind} #{n + 1}: {json.dumps(trials[kind][-1])[:300]}", flush=True)
        finally:
            world.zygote.close()
    summary = {k: summarise(v) for k, v in trials.items()}
    cache = persistence(args.home) if args.home else None
    write_results(args.out, env, summary, trials, args.seed, args, cache)
    print(args.out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
