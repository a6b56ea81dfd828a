"""One function per subcommand: turn Settings and flags into calls on kb/, indexer/, diagnose/."""

from __future__ import annotations

import argparse
import json
import sys

from indexer.index import IndexReport, Progress, index_plan, indexed_sources, refresh
from indexer.manifest import list_corpora, load_corpus
from indexer.registry import load_registry, save_source_registry
from indexer.sources import parse_mirrors
from indexer.state import all_states, save_state
from kb.errors import KBError
from kb.search import Filters, KnowledgeBase, open_kb
from passwise.settings import Settings


def open_settings_kb(s: Settings) -> KnowledgeBase:
    return open_kb(s.home, chroma_url=s.chroma_url, corpus_set=s.corpus_set, model=s.model,
                   server=s.server_options())


def _registry_hook(kb: KnowledgeBase, progress: Progress):
    def hook(snap, version: str) -> None:
        n = save_source_registry(kb, snap)
        if n:
            progress.log(f"{snap.source.name}: {n} passes in the registry")
    return hook


def _print_report(report: IndexReport, s: Settings, problem: str = "") -> None:
    if s.json:
        out = report.to_json()
        if problem:
            out["error"] = problem
        print(json.dumps(out, indent=2))
        return
    for r in report.sources:
        line = f"{r.name:24} {r.status:9} {r.version[:12]:12} files {r.files_indexed}/{r.files_seen}"
        line += f"  chunks +{r.chunks_written} -{r.chunks_deleted}"
        if r.fallback_files:
            line += f"  line-split {r.fallback_files}"
        if r.skipped_files:
            line += f"  skipped files {r.skipped_files}"
        if r.status == "indexed" and r.previous_status in ("pending", "indexing"):
            line += "  (finished what an interrupted run left)"
        print(line)
        if r.reason:
            print(f"  skipped: {r.reason}")
    print(f"{report.total_chunks} chunks in the knowledge base ({report.seconds:.1f}s)")


def _not_done(report: IndexReport) -> str:
    """One sentence on the sources a run could not bring up to date, or ""."""
    left = [r for r in report.sources if r.status == "skipped"]
    if not left:
        return ""
    if len(left) == len(report.sources):
        head = "Nothing could be done: every source was skipped"
    else:
        head = f"{len(left)} of {len(report.sources)} sources were left as they were"
    mixed = [r.name for r in left if r.previous_status == "indexing"]
    tail = (f"; {', '.join(mixed)} still hold a mix of two versions (interrupted) until a run "
            "completes them" if mixed else "")
    return f"{head} ({'; '.join(f'{r.name}: {r.reason}' for r in left)}){tail}."


def _plan(args: argparse.Namespace) -> list:
    names = [c.name for c in list_corpora()] if args.all else (args.corpus or ["default"])
    plan, seen = [], set()
    for corpus in (load_corpus(n) for n in names):
        for spec in corpus.sources:
            if spec.name not in seen:
                seen.add(spec.name)
                plan.append((corpus.name, spec))
    return plan


def cmd_index(args: argparse.Namespace, s: Settings) -> int:
    mirrors = parse_mirrors(s.mirrors)
    plan = _plan(args)
    kb = open_settings_kb(s)
    progress = Progress(s.quiet)
    report = index_plan(kb, plan, mirrors=mirrors, progress=progress,
                        on_snapshot=_registry_hook(kb, progress))
    return _finish(report, s)


def _finish(report: IndexReport, s: Settings) -> int:
    """Print the report; exit 1 when nothing was done or a source is left interrupted."""
    problem = _not_done(report)
    failed = all(r.status == "skipped" for r in report.sources) or any(
        r.status == "skipped" and r.previous_status == "indexing" for r in report.sources)
    _print_report(report, s, problem if failed else "")
    if problem:
        print(f"passwise: {problem}", file=sys.stderr)
    return 1 if failed else 0


def cmd_refresh(args: argparse.Namespace, s: Settings) -> int:
    kb = open_settings_kb(s)
    moves = dict(pair.split("=", 1) for pair in args.ref if "=" in pair)
    progress = Progress(s.quiet)
    with kb.write_lock("refresh"):
        states = all_states(kb.store)
        if not states:
            raise KBError("Nothing is indexed yet; run `passwise index` first.")
        unknown = sorted(set(moves) - {st.name for st in states})
        if unknown:
            raise KBError(f"No indexed source is named {unknown[0]!r}; see `passwise sources`.")
        for st in states:
            if st.name in moves and st.spec:
                st.spec = {**st.spec, "ref": moves[st.name]}
                save_state(kb.store, st)
        report = refresh(kb, mirrors=parse_mirrors(s.mirrors), progress=progress,
                         on_snapshot=_registry_hook(kb, progress))
    return _finish(report, s)


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
        line = (f"{r['name']:24} {r['status']:11} {str(r['version'] or '-')[:12]:12} "
                f"{r['compiler_version'] or '-':16} {r['files']} files  (corpus {r['corpus']})")
        if r["target"]:
            line += f"\n{'':24} -> {r['target'][:12]}: {r['files_left']} files left to index"
        print(line)
    if any(r["status"] in ("interrupted", "pending") for r in rows):
        print("An index or refresh was interrupted; `passwise refresh` finishes it.")
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
