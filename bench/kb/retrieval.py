"""Retrieval quality per step on question set v2: development and held-out side by side.

Usage: python bench/kb/retrieval.py --home KB_COPY [--steps main,all,...] [--filter backend]
Reads bench/kb/questions-v2.toml and an existing knowledge base (a copy: the lexical cache is
written beside it), runs every named search configuration over both parts of the frozen split
and writes results/retrieval-v2.json and .md: Recall@1/5/10, MRR@10 and p50/p95 latency per
configuration. Per-question ranks are kept for development questions only, so nobody tunes on
held-out ones by accident; held-out appears only as aggregates.

The dense list of a question does not depend on the step, so quality runs compute it once per
question and filter and reuse it; latency is measured apart (--latency STEP), with every search
complete (query embedding, Chroma query, lexical side, ranking), on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.crossenc import load_stage  # noqa: E402
from kb.search import Filters, KnowledgeBase, open_kb  # noqa: E402

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"
PARTS = ("dev", "held-out")


@dataclass
class Step:
    """One search configuration: its name, what it changes, and the search() keywords it passes."""

    name: str
    doc: str
    options: dict


def steps() -> dict[str, Step]:
    """The configurations the bench knows, in report order."""
    from kb.search import step_configs  # the search module names its own ablations

    return {name: Step(name, doc, opts) for name, (doc, opts) in step_configs().items()}


def is_hit(chunk, truths: list[dict]) -> bool:
    """Same repository and path, and the chunk's lines overlap the truth range."""
    return any(chunk.source == t["repo"] and chunk.path == t["path"]
               and chunk.start_line <= t["end_line"] and chunk.end_line >= t["start_line"]
               for t in truths)


def metrics(ranks: list[int | None]) -> dict:
    n = len(ranks) or 1
    out = {f"recall@{k}": round(sum(1 for r in ranks if r and r <= k) / n, 3) for k in (1, 5, 10)}
    out["mrr@10"] = round(sum(1 / r for r in ranks if r) / n, 3)
    out["n"] = len(ranks)
    return out


def memoize_dense(kb: KnowledgeBase) -> None:
    """Reuse each (question, depth, filter)'s dense list across steps: it does not depend on them."""
    real, memo = kb._dense, {}

    def dense(query: str, depth: int, flt: Filters, *rest):
        key = (query, depth, repr(flt))
        if key not in memo:
            memo[key] = real(query, depth, flt, *rest)
        return memo[key]

    kb._dense = dense


def run_step(kb: KnowledgeBase, step: Step, questions: list[dict], backend_filter: bool) -> dict:
    """Search every question once under `step`; ranks and aggregates per part."""
    ranks: dict[str, list[int | None]] = {p: [] for p in PARTS}
    dev_ranks: dict[str, int | None] = {}
    kb.search("warm up the caches", k=10, **step.options)
    for q in questions:
        flt = Filters(backend=q["backend"]) if backend_filter else None
        hits = kb.search(q["question"], k=10, filters=flt, **step.options)
        rank = next((i + 1 for i, h in enumerate(hits) if is_hit(h.chunk, q["truth"])), None)
        ranks[q["part"]].append(rank)
        if q["part"] == "dev":
            dev_ranks[q["id"]] = rank
    return {"doc": step.doc, **{p: metrics(ranks[p]) for p in PARTS}, "dev_ranks": dev_ranks}


def latency(kb: KnowledgeBase, step: Step, questions: list[dict], reps: int) -> dict:
    """Complete searches (backend filter on), timed one by one, after one warm-up search."""
    kb.search("warm up the caches", k=10, **step.options)
    times = []
    for _ in range(reps):
        for q in questions:
            t0 = time.perf_counter()
            kb.search(q["question"], k=10, filters=Filters(backend=q["backend"]), **step.options)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {"step": step.name, "p50": round(statistics.median(times), 1),
            "p95": round(times[int(0.95 * (len(times) - 1))], 1), "max": round(times[-1], 1),
            "queries": len(times), "load_avg_1min": round(os.getloadavg()[0], 2)}


def provenance(kb: KnowledgeBase, home: Path) -> dict:
    import chromadb
    import sentence_transformers
    import torch

    # BENCH_COMMIT names the code measured when it runs from an exported tree (no .git).
    commit = os.environ.get("BENCH_COMMIT") or subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True).stdout.strip()
    return {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit,
            "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(),
                        "python": platform.python_version()},
            "software": {"chromadb": chromadb.__version__, "torch": torch.__version__,
                         "sentence_transformers": sentence_transformers.__version__,
                         "embedding_model": kb.embedder.model_name},
            "index": {"home": str(home), "collection": kb.store.name, "chunks": kb.store.count()},
            "command": "python " + " ".join(sys.argv)}


def markdown(res: dict) -> str:
    """The committed, readable form of the results."""
    m, sw, ix = res["machine"], res["software"], res["index"]
    lines = [
        "# Retrieval on question set v2 (bench/kb/questions-v2.toml)", "",
        f"{res['date']}, commit {res['commit']}; {m['cpu_count']} cores, {m['platform']}, "
        f"Python {m['python']}; chromadb {sw['chromadb']}, torch {sw['torch']}, "
        f"sentence-transformers {sw['sentence_transformers']}, model {sw['embedding_model']}; "
        f"index {ix['chunks']} chunks ({ix['collection']}).", "",
        f"Command: `{res['command']}`", "",
    ]
    for flt, table in res["results"].items():
        lines += [f"## Filter: {flt}", "",
                  "| step | dev R@1 | dev R@5 | dev R@10 | dev MRR@10 | held-out R@1 | held-out R@5 "
                  "| held-out R@10 | held-out MRR@10 | commit |", "|---|---|---|---|---|---|---|---|---|---|"]
        for name, r in table.items():
            d, h = r["dev"], r["held-out"]
            lines.append(f"| {name} | {d['recall@1']} | {d['recall@5']} | {d['recall@10']} | "
                         f"{d['mrr@10']} | {h['recall@1']} | {h['recall@5']} | {h['recall@10']} | "
                         f"{h['mrr@10']} | {r.get('commit', '')} |")
        lines += [""] + [f"- **{n}**: {r['doc']}" for n, r in table.items()] + [""]
    if res.get("latency"):
        lines += ["## Latency (complete searches, backend filter)", "",
                  "| step | p50 ms | p95 ms | max ms | queries | 1-min load average | commit |",
                  "|---|---|---|---|---|---|---|"]
        lines += [f"| {x['step']} | {x['p50']} | {x['p95']} | {x['max']} | {x['queries']} | "
                  f"{x['load_avg_1min']} | {x.get('commit', '')} |" for x in res["latency"].values()] + [""]
    if res.get("latency_without_query_embedding"):
        x = res["latency_without_query_embedding"]
        lines += ["Without the query embedding (" + x["note"] + "): "
                  + "; ".join(f"{k} p50 {v['p50']} ms, p95 {v['p95']} ms (load {v['load_avg_1min']})"
                              for k, v in x.items() if k != "note") + ".", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, help="knowledge base home (use a copy)")
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--steps", default="", help="comma-separated step names (default: all)")
    ap.add_argument("--filter", choices=("backend", "none", "both"), default="both")
    ap.add_argument("--latency", default="", help="comma-separated steps to time instead")
    ap.add_argument("--reps", type=int, default=2, help="latency: passes over the questions")
    ap.add_argument("--model", help="embedding model (folder) of the index to search; rows are "
                    "named `STEP @SLUG`")
    ap.add_argument("--out", default=str(ROOT / "results" / "retrieval-v2.json"))
    args = ap.parse_args()
    questions = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"]
    kb = open_kb(Path(args.home), corpus_set=args.corpus_set, model=args.model)
    # rows name the model, the comment views (kb/views.py) and the cross-encoder's second stage
    # when they are present
    tag = (f" @{kb.embedder.slug}" if args.model else "") + (" +views" if kb.comment_views() else "")
    tag += " +cross" if load_stage(Path(args.home), kb.embedder.slug) else ""  # kb/crossenc.py
    known = steps()
    timed = [s for s in args.latency.split(",") if s]
    names = [s for s in args.steps.split(",") if s] or ([] if timed else list(known))
    unknown = [s for s in names + timed if s not in known]
    if unknown:
        sys.exit(f"Unknown step(s) {', '.join(unknown)}; known: {', '.join(known)}.")
    filters = {"backend": [True], "none": [False], "both": [True, False]}[args.filter]
    out = Path(args.out)
    res = json.loads(out.read_text()) if out.exists() else {"results": {}}
    res.update(provenance(kb, Path(args.home)))
    for name in timed:
        row = res.setdefault("latency", {})[name + tag] = latency(kb, known[name], questions, args.reps)
        row.update(step=name + tag, commit=res["commit"], date=res["date"])
        print(row, flush=True)
    memoize_dense(kb)
    for backend_filter in filters if names else []:
        table = res["results"].setdefault("backend" if backend_filter else "none", {})
        for name in names:
            r = table[name + tag] = run_step(kb, known[name], questions, backend_filter)
            r.update(commit=res["commit"], date=res["date"], chunks=res["index"]["chunks"],
                     model=kb.embedder.model_name)
            # development figures only: held-out is read in the written report, at checkpoints
            print(f"[{'backend' if backend_filter else 'none'}] {name}{tag}: dev {r['dev']}", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, sort_keys=False) + "\n")
    out.with_suffix(".md").write_text(markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
