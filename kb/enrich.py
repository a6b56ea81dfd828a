"""Lexical documents enriched from store metadata and the pass registry (no re-embedding).

A pass's implementation rarely says in words what the pass is for; its TableGen def does. The
lexical document of every chunk in a file that implements a pass (a class, create function or
GEN_PASS_DEF anchor of the registry) gets the pass's argument, def name, summary and the start
of its description appended, and every chunk gets its enclosing scope and symbol split into
words. The dense vectors are untouched: only the BM25 side reads these documents.
"""

from __future__ import annotations

from collections import defaultdict

from kb.passes import PassRegistry

# Anchors that say "this file implements that pass"; bindings (passes.cc) name every pass.
IMPL_KINDS = ("class", "create_function", "gen_pass_def")
# A file with more passes than this (a registry of builders) gets notes only on the lines of
# each pass's own anchors, not file-wide.
MAX_FILE_PASSES = 3
DESCRIPTION_CHARS = 300

Notes = dict[tuple[str, str], list[tuple[int, int, str]]]


def pass_notes(registry: PassRegistry | None) -> Notes:
    """(source, path) -> [(start, end, note)] for the files that define or implement passes."""
    notes: Notes = defaultdict(list)
    if registry is None:
        return notes
    for r in registry:
        note = " ".join(x for x in (r.argument, r.def_name, r.summary,
                                    r.description[:DESCRIPTION_CHARS]) if x)
        for a in r.impl_anchors:
            if a.kind in IMPL_KINDS:
                notes[(a.source or r.source, a.path)].append((a.start_line, a.end_line, note))
        if r.td_path and len(r.td_lines) == 2:
            notes[(r.source, r.td_path)].append((r.td_lines[0], r.td_lines[1], note))
    return dict(notes)


def enrich(text: str, meta: dict, notes: Notes) -> str:
    """The chunk's text plus its scope, symbol and the notes of the passes its file implements."""
    extra = [meta.get("scope", ""), meta.get("symbol", "")]
    file_notes = notes.get((meta.get("source", ""), meta.get("path", "")), [])
    distinct = {n for _, _, n in file_notes}
    lo, hi = int(meta.get("start_line", 0) or 0), int(meta.get("end_line", 0) or 0)
    for start, end, note in file_notes:
        if len(distinct) <= MAX_FILE_PASSES or (start <= hi and end >= lo):
            if note not in extra:
                extra.append(note)
    return text + "\n" + "\n".join(x for x in extra if x)
