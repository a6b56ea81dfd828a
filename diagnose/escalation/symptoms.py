"""The symptom table (symptoms.toml) as dataclasses, and matching a symptom id or a free-text
description of one to its row."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("symptoms.toml")
_PASS_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")  # a dashed pass argument
MIN_MATCH = 2  # a named pass alone, or two phrases: one common word is not enough
_STOP = frozenset("a an the of to in on for and or is are be by with as at it this that from "
                  "after before still not no was were has have its into".split())


@dataclass
class Analysis:
    """Source a pass consults to decide (e.g. axis info): path globs and what to search for."""

    name: str
    paths: list[str]
    query: str


@dataclass
class RewriteRule:
    """When a deciding line mentions one of `terms`, the rewrite family that satisfies it."""

    terms: list[str]
    family: str
    hint: str = ""
    # what the kernel must satisfy for this clause of the branch to pass, over kernel facts
    # (diagnose/escalation/facts.py), e.g. "num_warps % 4 == 0"; '' when no fact decides it
    requires: str = ""

    def matches(self, line: str) -> str | None:
        """The first term the line contains, or None."""
        return next((t for t in self.terms if t in line), None)


@dataclass
class KernelQuestion:
    """A narrower question, asked only when the kernel's facts show a construct the pass is known
    to treat pessimistically (offsets built with // or %, a mask against an unaligned bound):
    how does the analysis handle the IR ops of that construct? The analysis' dispatch on `ops`
    (`dyn_cast<arith::RemSIOp>` -> `parseBinaryOp(...)`, `visitors.append<Visitor<CmpIOp>>`)
    leads to the handler that decides; `family` is the rewrite that removes the construct."""

    name: str
    when: str  # condition over kernel facts (diagnose/escalation/facts.py); asked when it holds
    says: str  # what the facts show, for the evidence ("pointer offsets computed with // or %")
    question: str
    ops: list[str]  # C++ op classes of the construct, as the analysis names them
    paths: list[str]  # where the analysis dispatches on them (path globs)
    query: str
    family: str
    hint: str = ""
    focus: list[str] = field(default_factory=list)  # extra terms a deciding line may read
    marks: list[str] = field(default_factory=list)  # calls that set the outcome (setUnstructured)


@dataclass
class Construct:
    """A construct of pointer offsets (tensor ops only) an offset analysis may classify
    pessimistically: its TTIR ops (as facts.py records them), the C++ op classes an analysis
    dispatches on, and the rewrite that removes it (`family`: backend -> family, `default`)."""

    name: str
    ir_ops: list[str]
    ops: list[str]
    says: str
    family: dict[str, str]
    hint: str = ""

    def family_for(self, backend: str) -> str:
        return self.family.get(backend, self.family.get("default", ""))


@dataclass
class OffsetAnalysis:
    """The analysis that classifies a row's pointer offsets, op by op: one kernel question is
    asked per construct whose TTIR ops the accesses' offsets (facts[`facts`]) hold."""

    name: str
    facts: str  # load_offset_ops | store_offset_ops | offset_ops
    constructs: list[str]
    paths: list[str]
    query: str
    focus: list[str] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)


@dataclass
class SymptomRoute:
    """One row of the table: symptom -> passes, analyses, question, deciding terms, rewrite."""

    id: str
    backend: str
    passes: list[str]
    question: str
    family: str
    focus: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    analyses: list[Analysis] = field(default_factory=list)
    rewrites: list[RewriteRule] = field(default_factory=list)
    kernel: list[KernelQuestion] = field(default_factory=list)
    offsets: list[OffsetAnalysis] = field(default_factory=list)
    note: str = ""

    def ask(self, pass_arg: str) -> str:
        return self.question.replace("{pass}", pass_arg or "the compiler")


def _route(raw: dict) -> SymptomRoute:
    raw = dict(raw)
    raw["analyses"] = [Analysis(**a) for a in raw.get("analyses", [])]
    raw["rewrites"] = [RewriteRule(**r) for r in raw.get("rewrites", [])]
    raw["kernel"] = [KernelQuestion(**k) for k in raw.get("kernel", [])]
    raw["offsets"] = [OffsetAnalysis(**o) for o in raw.get("offsets", [])]
    return SymptomRoute(**raw)


@lru_cache(maxsize=4)
def load_constructs(path: Path = TABLE) -> dict[str, Construct]:
    """The [[construct]] table: name -> Construct."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {c["name"]: Construct(**c) for c in data.get("construct", [])}


def construct_questions(route: SymptomRoute, facts: dict | None, backend: str,
                        constructs: dict[str, Construct] | None = None) -> list[KernelQuestion]:
    """One kernel question per construct of the row's offset analyses whose TTIR ops the
    kernel's offsets hold: the analysis' dispatch on the construct's op classes leads to the
    handler that classifies exactly this kernel's offsets."""
    table = constructs if constructs is not None else load_constructs()
    out = []
    for oa in route.offsets:
        present = (facts or {}).get(oa.facts)
        if not isinstance(present, dict):
            continue
        for name in oa.constructs:
            c = table[name]
            ir = [op for op in c.ir_ops if present.get(op)]
            if not ir:
                continue
            when = " or ".join(f"{op!r} in {oa.facts}" for op in ir)
            out.append(KernelQuestion(
                name=f"{oa.name}-{c.name}", when=when, says=c.says,
                question=f"How does the {oa.name} analysis classify pointer offsets computed "
                         f"with {' / '.join(ir)} ({'/'.join(c.ops)})?",
                ops=list(c.ops), paths=list(oa.paths), query=f"{oa.query} {' '.join(c.ops)}",
                family=c.family_for(backend), hint=c.hint, focus=list(oa.focus),
                marks=list(oa.marks)))
    return out


@lru_cache(maxsize=4)
def load_routes(path: Path = TABLE) -> tuple[SymptomRoute, ...]:
    """Every row of the symptom table, in file order."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(_route(r) for r in data.get("symptom", []))


def route_by_id(symptom_id: str) -> SymptomRoute | None:
    return next((r for r in load_routes() if r.id == symptom_id.strip()), None)


def _normal(text: str) -> str:
    return " " + re.sub(r"[\s_\-]+", " ", text.lower()).strip() + " "


def match_score(route: SymptomRoute, text: str) -> int:
    """How strongly a free-text symptom points at a route: a named pass counts 3, a phrase 1."""
    low = text.lower()
    named = set(_PASS_WORD.findall(low))
    score = 3 * sum(1 for p in route.passes if p in named)
    norm = _normal(text)
    return score + sum(1 for ph in route.phrases if _normal(ph).strip() in norm)


def match_route(symptom: str, backend: str) -> SymptomRoute | None:
    """The row for a symptom id, else the best-matching row for a sentence (own backend first);
    None when nothing in the sentence points at any row."""
    exact = route_by_id(symptom)
    if exact is not None:
        return exact
    for pool in ([r for r in load_routes() if r.backend in (backend, "common")], list(load_routes())):
        scored = [(match_score(r, symptom), -i, r) for i, r in enumerate(pool)]
        best = max(scored, default=(0, 0, None), key=lambda t: (t[0], t[1]))
        if best[0] >= MIN_MATCH:
            return best[2]
    return None


def named_passes(text: str) -> list[str]:
    """Dashed words of a sentence that may be pass arguments ('after tritongpu-coalesce')."""
    return list(dict.fromkeys(_PASS_WORD.findall(text.lower())))


def content_words(text: str) -> list[str]:
    """The words of a free-text symptom worth searching for (no stop words, no short words)."""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_.]+", text)
    return list(dict.fromkeys(w for w in words if w.lower() not in _STOP and len(w) > 2))


def generic_route(symptom: str, backend: str, pass_arg: str) -> SymptomRoute:
    """A row made up for a symptom the table does not know: ask about the pass directly."""
    words = content_words(symptom)
    return SymptomRoute(
        id="free-text", backend=backend, passes=[pass_arg] if pass_arg else [],
        question=f"Which condition in {{pass}} decides this outcome: {symptom.strip()}?",
        family="", focus=[w for w in words if not _PASS_WORD.fullmatch(w.lower())],
        note="The symptom is not in the table; the deciding line is judged by the symptom's own words.")
