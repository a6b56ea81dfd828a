"""One function per subcommand: turn Settings and flags into calls on kb/, indexer/, diagnose/."""

from __future__ import annotations

import argparse
import json

from indexer.index import IndexReport, Progress, index_sources, indexed_sources, refresh
from indexer.manifest import list_corpora, load_corpus
from indexer.registry import load_registry, save_source_registry
from indexer.sources import parse_mirrors
from kb.errors import KBError
from kb.search import Filters, KnowledgeBase, open_kb
from passwise.settings import Settings


def open_settings_kb(s: Settings) -> KnowledgeBase:
    return open_kb(s.home, chroma_url=s.chroma_url, corpus_set=s.corpus_set, model=s.model)


def _registry_hook(kb: KnowledgeBase, progress: Progress):
    def hook(snap, version: str) -> None:
        n = save_source_registry(kb, snap)
        if n:
            progress.log(f"{snap.source.name}: {n} passes in the registry")
    return hook


def _print_report(report: IndexReport, s: Settings) -> None:
    if s.json:
        print(json.dumps(report.to_json(), indent=2))
        return
    for r in report.sources:
        line = f"{r.name:24} {r.status:9} {r.version[:12]:12} files {r.files_indexed}/{r.files_seen}"
        line += f"  chunks +{r.chunks_written} -{r.chunks_deleted}"
        if r.fallback_files:
            line += f"  line-split {r.fallback_files}"
        if r.skipped_files:
            line += f"  skipped files {r.skipped_files}"
        print(line)
        if r.reason:
            print(f"  skipped: {r.reason}")
    print(f"{report.total_chunks} chunks in the knowledge base ({report.seconds:.1f}s)")


def cmd_index(args: argparse.Namespace, s: Settings) -> int:
    mirrors = parse_mirrors(s.mirrors)
    names = [c.name for c in list_corpora()] if args.all else (args.corpus or ["default"])
    corpora = [load_corpus(n) for n in names]
    kb = open_settings_kb(s)
    progress = Progress(s.quiet)
    specs, seen = [], set()
    for corpus in corpora:
        for spec in corpus.sources:
            if spec.name not in seen:
                seen.add(spec.name)
                specs.append((corpus.name, spec))
    report = IndexReport()
    for corpus_name, spec in specs:
        part = index_sources(kb, [spec], corpus_name=corpus_name, mirrors=mirrors,
                             progress=progress, on_snapshot=_registry_hook(kb, progress),
                             rebuild_lexical=False)
        report.sources += part.sources
        report.seconds += part.seconds
    if any(r.status == "indexed" for r in report.sources):
        kb.lexical(progress=not progress.quiet)
    report.total_chunks = kb.store.count()
    _print_report(report, s)
    return 0 if any(r.status != "skipped" for r in report.sources) else 1


def cmd_refresh(args: argparse.Namespace, s: Settings) -> int:
    kb = open_settings_kb(s)
    if not indexed_sources(kb):
        raise KBError("Nothing is indexed yet; run `passwise index` first.")
    moves = dict(pair.split("=", 1) for pair in args.ref if "=" in pair)
    for src in indexed_sources(kb):
        if src["name"] in moves and src.get("spec"):
            key = f"source:{src['name']}"
            st = kb.store.get_state(key) or {}
            st["spec"] = {**st["spec"], "ref": moves[src["name"]]}
            kb.store.put_state(key, st)
    progress = Progress(s.quiet)
    report = refresh(kb, mirrors=parse_mirrors(s.mirrors), progress=progress,
                     on_snapshot=_registry_hook(kb, progress))
    _print_report(report, s)
    return 0


def cmd_search(args: argparse.Namespace, s: Settings) -> int:
    query = " ".join(args.query)
    kb = open_settings_kb(s)
    flt = Filters(backend=args.backend, kind=args.kind, language=args.language, repo=args.repo,
                  pass_=args.pass_, path_glob=args.path_glob,
                  compiler_version=args.compiler_version)
    hits = kb.search(query, k=args.k, filters=flt, mode=args.mode)
    if s.json:
        print(json.dumps([h.to_json() for h in hits], indent=2))
        return 0
    if not hits:
        print("No passage matches; loosen the filters or rephrase.")
        return 0
    for n, h in enumerate(hits, 1):
        c = h.chunk
        print(f"[{n}] {c.source}:{c.path}:{c.start_line}-{c.end_line}  {c.symbol or '-'}  "
              f"({c.kind}, {c.backend}, score {h.score:.4f})")
        if c.permalink:
            print(f"    {c.permalink}")
        body = c.text.split("\n", 1)[-1].strip().splitlines()
        for line in body[:4]:
            print(f"    | {line[:110]}")
    return 0


def cmd_passes(args: argparse.Namespace, s: Settings) -> int:
    kb = open_settings_kb(s)
    reg = load_registry(kb)
    if args.name:
        rec = reg.lookup(args.name)
        if rec is None:
            raise KBError(f"No pass matches {args.name!r}; list them with `passwise passes`.")
        print(json.dumps(rec.to_json(), indent=2) if s.json else _describe(rec))
        return 0
    backends = [args.backend] if args.backend else reg.backends()
    out = reg.pipeline_json(backends)
    if s.json:
        print(json.dumps(out, indent=2))
        return 0
    for b in backends:
        print(f"== {b}")
        for e in out[b]:
            cond = f"   if {e['condition']}" if e["condition"] else ""
            print(f"  {e['stage']:>14} {e['index']:3}  {e['argument']:44} {e['summary'][:60]}{cond}")
    return 0


def _describe(rec) -> str:
    named = f" ({rec.def_name})" if rec.def_name else ""
    lines = [f"{rec.argument}{named}  backend {rec.backend}, link {rec.link_quality}"]
    if rec.summary:
        lines.append(f"  {rec.summary}")
    lines.append(f"  defined in {rec.td_path}" if rec.td_path else
                 "  no TableGen definition indexed (index the compiler source for it)")
    for a in rec.impl_anchors[:6]:
        lines.append(f"  implemented in {a.path}:{a.start_line}-{a.end_line} {a.symbol}")
    for p in rec.pipeline_positions:
        cond = f" if {p.condition}" if p.condition else ""
        lines.append(f"  pipeline {p.backend}/{p.stage} #{p.index}{cond}")
    return "\n".join(lines)


def cmd_sources(args: argparse.Namespace, s: Settings) -> int:
    kb = open_settings_kb(s)
    rows = indexed_sources(kb)
    if s.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("Nothing is indexed yet; run `passwise index`.")
    for r in rows:
        print(f"{r['name']:24} {str(r['version'])[:12]:12} {r['compiler_version'] or '-':16} "
              f"{r['files']} files  (corpus {r['corpus']})")
    print(f"{kb.store.count()} chunks in collection {kb.store.name}")
    return 0


def cmd_corpora(args: argparse.Namespace, s: Settings) -> int:
    rows = [{"name": c.name, "description": c.description, "offline": c.offline,
             "sources": [{"name": x.name, "type": x.type, "url": x.url or x.path or x.package}
                         for x in c.sources]} for c in list_corpora()]
    if s.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        print(f"{r['name']:16} {r['description']}")
        for x in r["sources"]:
            print(f"    {x['name']:24} {x['type']:8} {x['url']}")
    return 0
