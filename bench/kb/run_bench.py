"""Knowledge-base benchmark on the real repositories (issue: index time, refresh, latency, recall).

Usage: python bench/kb/run_bench.py --triton-ascend MIRROR --ascendnpu-ir MIRROR [--home DIR]
Writes results/kb-bench.json and prints a table. Steps:
1. full index of triton-ascend (at an older commit) + AscendNPU-IR (HEAD): time, chunks/s, peak RSS;
2. refresh triton-ascend to HEAD (a ~50-file upgrade between two real commits): time;
3. retrieval quality on bench/kb/questions.toml: Recall@1/5/10 and MRR, dense / lexical / hybrid;
4. query latency p50/p95 with the collection grown past 100k chunks (copies of the real chunks
   under other source names, as several compiler versions side by side would be).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
import tomllib
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from indexer.index import Progress, index_sources, refresh  # noqa: E402
from indexer.manifest import load_corpus  # noqa: E402
from kb.search import Filters, KnowledgeBase, open_kb  # noqa: E402

OLD_TRITON_ASCEND = "e84ca3861a6da3c515bf4dbaeafc501fd3790b44"  # ~50 indexed files from HEAD


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def full_index(kb: KnowledgeBase, mirrors: dict[str, str]) -> dict:
    ta = load_corpus("triton-ascend").sources[0]
    ta.ref = OLD_TRITON_ASCEND
    air = load_corpus("ascendnpu-ir").sources[0]
    t0 = time.perf_counter()
    rep = index_sources(kb, [ta, air], corpus_name="bench", mirrors=mirrors, progress=Progress(False))
    secs = time.perf_counter() - t0
    chunks = sum(s.chunks_written for s in rep.sources)
    return {"seconds": round(secs, 1), "chunks": chunks, "chunks_per_s": round(chunks / secs, 1),
            "files": sum(s.files_indexed for s in rep.sources),
            "fallback_files": sum(s.fallback_files for s in rep.sources),
            "peak_rss_mb": round(peak_rss_mb(), 0),
            "sources": [s.__dict__ for s in rep.sources]}


def refresh_step(kb: KnowledgeBase, mirrors: dict[str, str]) -> dict:
    st = kb.store.get_state("source:triton-ascend")
    st["spec"]["ref"] = "HEAD"
    kb.store.put_state("source:triton-ascend", st)
    t0 = time.perf_counter()
    rep = refresh(kb, mirrors=mirrors, progress=Progress(False))
    secs = time.perf_counter() - t0
    ta = next(s for s in rep.sources if s.name == "triton-ascend")
    return {"seconds": round(secs, 1), "from": OLD_TRITON_ASCEND, "to": ta.version,
            "files_reindexed": ta.files_indexed, "files_removed": ta.files_removed,
            "chunks_written": ta.chunks_written, "chunks_deleted": ta.chunks_deleted}


def _hit(chunk, truths: list[dict]) -> bool:
    return any(chunk.source == t["repo"] and chunk.path == t["path"]
               and chunk.start_line <= t["end_line"] and chunk.end_line >= t["start_line"]
               for t in truths)


def quality(kb: KnowledgeBase, questions: list[dict], backend_filter: bool) -> dict:
    out = {}
    for mode in ("dense", "lexical", "hybrid"):
        ranks = []
        for q in questions:
            flt = Filters(backend=q["backend"]) if backend_filter else None
            hits = kb.search(q["question"], k=10, filters=flt, mode=mode)
            rank = next((i + 1 for i, h in enumerate(hits) if _hit(h.chunk, q["truth"])), None)
            ranks.append(rank)
        n = len(ranks)
        out[mode] = {f"recall@{k}": round(sum(1 for r in ranks if r and r <= k) / n, 3)
                     for k in (1, 5, 10)}
        out[mode]["mrr"] = round(sum(1 / r for r in ranks if r) / n, 3)
        out[mode]["misses@10"] = [q["id"] for q, r in zip(questions, ranks, strict=True) if not r]
    return out


def grow_to(kb: KnowledgeBase, target: int) -> int:
    """Copy real chunks (with their vectors) under other source names until `target` chunks."""
    store = kb.store
    n_base = store.count()
    copy = 0
    while store.count() < target:
        copy += 1
        kb.store.bump_generation()
        for lo in range(0, n_base, 2000):
            page = store.chunks.get(include=["embeddings", "documents", "metadatas"],
                                    limit=2000, offset=lo)
            page_ids = [i for i in page["ids"] if "-c" not in i]
            keep = [j for j, i in enumerate(page["ids"]) if "-c" not in i]
            if not keep:
                continue
            metas = [{**page["metadatas"][j], "source": f"{page['metadatas'][j]['source']}@copy{copy}",
                      "compiler_version": f"copy{copy}"} for j in keep]
            store.chunks.upsert(ids=[f"{i}-c{copy}" for i in page_ids],
                                embeddings=[page["embeddings"][j] for j in keep],
                                documents=[page["documents"][j] for j in keep], metadatas=metas)
    return store.count()


def latency(kb: KnowledgeBase, questions: list[dict], reps: int = 3) -> dict:
    kb.lexical()  # build once; queries then run against the cached index
    kb.search("warm up the caches", k=10)
    times = []
    for _ in range(reps):
        for q in questions:
            t0 = time.perf_counter()
            kb.search(q["question"], k=10)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {"queries": len(times), "p50_ms": round(statistics.median(times), 1),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
            "max_ms": round(times[-1], 1)}


def markdown(res: dict) -> str:
    """The committed, readable form of the results."""
    fi, rf, lat = res.get("full_index", {}), res.get("refresh", {}), res.get("latency_hybrid", {})
    m, sw = res["machine"], res["software"]
    lines = [
        "# Knowledge-base benchmark (real triton-ascend + AscendNPU-IR)", "",
        f"Date {res['date']}; {m['cpu_count']} cores, {m['platform']}, Python {m['python']}; "
        f"chromadb {sw['chromadb']}, torch {sw['torch']}, sentence-transformers "
        f"{sw['sentence_transformers']}, model {sw['embedding_model']} ({sw['max_tokens']} tokens).",
        "", "| measure | value | target |", "|---|---|---|",
        f"| full index, both repos | {fi.get('seconds')} s, {fi.get('chunks')} chunks, "
        f"{fi.get('chunks_per_s')} chunks/s, {fi.get('files')} files | < 600 s |",
        f"| peak memory (RSS) during the index | {fi.get('peak_rss_mb')} MB | |",
        f"| refresh, triton-ascend {str(rf.get('from'))[:10]} -> {str(rf.get('to'))[:10]} | "
        f"{rf.get('seconds')} s ({rf.get('files_reindexed')} files re-indexed, "
        f"{rf.get('files_removed')} removed) | < 30 s |",
        f"| hybrid query latency at {res.get('chunks_for_latency')} chunks | p50 "
        f"{lat.get('p50_ms')} ms, p95 {lat.get('p95_ms')} ms ({lat.get('queries')} queries) | "
        "p95 < 100 ms |", "",
        "## Retrieval quality (bench/kb/questions.toml)", "",
        "| filter | mode | R@1 | R@5 | R@10 | MRR |", "|---|---|---|---|---|---|",
    ]
    for key, label in (("quality", "none"), ("quality_backend_filter", "backend")):
        for mode, q in res.get(key, {}).items():
            lines.append(f"| {label} | {mode} | {q['recall@1']} | {q['recall@5']} | "
                         f"{q['recall@10']} | {q['mrr']} |")
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triton-ascend", required=True, help="local clone or bare mirror")
    ap.add_argument("--ascendnpu-ir", required=True, help="local clone or bare mirror")
    ap.add_argument("--home", default="/tmp/passwise-kb-bench")
    ap.add_argument("--out", default=str(ROOT / "results" / "kb-bench.json"))
    ap.add_argument("--grow-to", type=int, default=100_000)
    ap.add_argument("--steps", default="index,refresh,quality,latency",
                    help="which steps to run; without `index` the existing --home is reused")
    args = ap.parse_args()
    steps = set(args.steps.split(","))
    mirrors = {"https://github.com/triton-lang/triton-ascend": args.triton_ascend,
               "https://github.com/Ascend/AscendNPU-IR": args.ascendnpu_ir}
    home = Path(args.home)
    if home.exists() and "index" in steps:
        import shutil
        shutil.rmtree(home)
    kb = open_kb(home, corpus_set="bench")
    questions = tomllib.loads((ROOT / "bench/kb/questions.toml").read_text())["q"]
    res: dict = {"date": date.today().isoformat(), "machine": {
        "cpu_count": __import__("os").cpu_count(), "platform": platform.platform(),
        "python": platform.python_version(), "processor": platform.processor()}}
    import chromadb
    import sentence_transformers
    import torch
    res["software"] = {"chromadb": chromadb.__version__, "torch": torch.__version__,
                       "sentence_transformers": sentence_transformers.__version__,
                       "embedding_model": kb.embedder.model_name,
                       "max_tokens": kb.embedder.max_tokens}
    out = Path(args.out)
    if out.exists():  # keep the figures of steps not run this time
        res = {**json.loads(out.read_text()), **res}
    if "index" in steps:
        res["full_index"] = full_index(kb, mirrors)
        print(json.dumps(res["full_index"], default=str)[:400], flush=True)
    if "refresh" in steps:
        res["refresh"] = refresh_step(kb, mirrors)
        print(res["refresh"], flush=True)
    if "quality" in steps:
        res["quality"] = quality(kb, questions, backend_filter=False)
        res["quality_backend_filter"] = quality(kb, questions, backend_filter=True)
        print(json.dumps({k: {m: {x: y for x, y in v.items() if x != "misses@10"} for m, v in
                              res[k].items()} for k in ("quality", "quality_backend_filter")}),
              flush=True)
    if "latency" in steps:
        res["chunks_before_growth"] = kb.store.count()
        res["chunks_for_latency"] = grow_to(kb, args.grow_to)
        res["latency_hybrid"] = latency(kb, questions)
        print(res["latency_hybrid"], flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2, default=str))
    out.with_suffix(".md").write_text(markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
