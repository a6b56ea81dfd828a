"""From the deciding condition to a source-level rewrite family (the families of the pattern
cards), and the chain symptom -> pass -> condition -> rewrite with the evidence of each link."""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field

from diagnose.triage import PatternCard, load_cards
from kb.passes import PassRecord

from .facts import KernelFacts, holds
from .ranking import DecidingLine, Passage
from .symptoms import KernelQuestion, RewriteRule, SymptomRoute

RULE_DEPTH = 3  # deciding passages a rule may be matched against


@dataclass
class Rewrite:
    """The rewrite family the condition calls for, and the card that describes it."""

    family: str
    hint: str = ""
    basis: str = ""  # "condition" (a rule matched the deciding line) | "table" | "none"
    matched_term: str = ""
    where: str = ""  # path:line of the deciding line that chose the family
    card_id: str = ""
    card_path: str = ""
    card_rewrite: str = ""
    kernel_check: str = ""  # the clause of the branch the kernel's facts fail, when known
    elsewhere: str = ""  # the family the deciding branch calls for, when it is another backend's

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class ChainLink:
    """One link of symptom -> pass -> condition -> rewrite, with what backs it."""

    step: str  # symptom | pass | condition | rewrite
    claim: str
    evidence: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


def deciding_passage(passages: list[Passage]) -> Passage | None:
    """The best passage whose deciding line reads one of the symptom's terms."""
    return next((p for p in passages if p.deciding and p.deciding.term), None)


def _card_for(family: str, backend: str, pass_arg: str,
              cards: list[PatternCard] | None) -> PatternCard | None:
    pool = [c for c in (cards if cards is not None else load_cards(backend))
            if c.rewrite_family == family and c.applies_to(backend)]
    return next((c for c in pool if pass_arg in c.passes), pool[0] if pool else None)


@functools.cache
def _family_backends() -> dict[str, frozenset[str]]:
    """The backends each rewrite family has a pattern card for ("common" for both)."""
    backends: dict[str, set[str]] = {}
    for card in load_cards():
        backends.setdefault(card.rewrite_family, set()).add(card.backend)
    return {family: frozenset(found) for family, found in backends.items()}


def foreign(family: str, backend: str) -> bool:
    """Whether `family` is another backend's rewrite: it has cards, none for `backend` or both
    (an Ascend gather-on-chip is no rewrite for a CUDA kernel, whatever a shared table says)."""
    backends = _family_backends().get(family)
    return bool(backends) and not backends & {backend, "common"}


def _fact_values(condition: str, facts: KernelFacts) -> str:
    names = sorted({n for n in facts if re.search(rf"\b{re.escape(n)}\b", condition)})
    return ", ".join(f"{n}={facts[n]}" for n in names)


def _by_kernel(kernel: list[KernelQuestion], deciding: list[Passage], facts: KernelFacts
               ) -> tuple[RewriteRule, str, Passage, DecidingLine, str] | None:
    """The first deciding passage that is the handler of a construct the kernel has (reached
    through the analysis' dispatch on the construct's ops) calls for that construct's rewrite."""
    for passage in deciding:
        for kq in kernel:
            handler = next((f.rsplit(":", 1)[-1] for f in passage.found_by
                            if f.startswith(f"handler:{kq.name}:")), "")
            if handler:
                line = passage.deciding
                why = (f"the kernel facts show {kq.says} ({_fact_values(kq.when, facts)}); "
                       f"{handler} handles {'/'.join(kq.ops)} and decides at {passage.path}:{line.line}")
                return RewriteRule([], kq.family, kq.hint), handler, passage, line, why  # type: ignore[return-value]
    return None


def _by_facts(route: SymptomRoute, deciding: list[Passage], facts: KernelFacts
              ) -> tuple[RewriteRule, str, Passage, DecidingLine, str] | None:
    """The first clause (a focused deciding line matched by a rule with `requires`) that this
    kernel fails, best passages and lines first."""
    for passage in deciding:
        for line in passage.focused or [passage.deciding]:
            for rule in route.rewrites:
                term = rule.matches(line.text) if rule.requires else None
                if term and holds(rule.requires, facts) is False:
                    why = f"the kernel fails `{rule.requires}` ({_fact_values(rule.requires, facts)})"
                    return rule, term, passage, line, why
    return None


def _by_terms(route: SymptomRoute, deciding: list[Passage], facts: KernelFacts | None
              ) -> tuple[RewriteRule, str, Passage, DecidingLine, str] | None:
    """The first rule whose terms the best deciding line mentions; a rule whose `requires` the
    kernel is known to satisfy is skipped (that clause passed, so it did not decide)."""
    for passage in deciding:
        line = passage.deciding
        for rule in route.rewrites:
            term = rule.matches(line.text)
            if term and holds(rule.requires, facts or {}) is not True:
                return rule, term, passage, line, ""
    return None


def choose_rewrite(route: SymptomRoute, passages: list[Passage], backend: str, pass_arg: str,
                   cards: list[PatternCard] | None = None,
                   facts: KernelFacts | None = None,
                   kernel: list[KernelQuestion] | None = None) -> Rewrite:
    """With kernel facts: the rewrite of the construct whose handler decides (kernel questions),
    else the rule for the clause the kernel fails; else the first rule whose terms a deciding
    line mentions (best deciding passages first, at most RULE_DEPTH of them); else the table's
    family."""
    rw = Rewrite(route.family, basis="table" if route.family else "none")
    deciding = [p for p in passages if p.deciding and p.deciding.term][:RULE_DEPTH]
    found = ((_by_kernel(kernel, deciding, facts or {}) if kernel else None)
             or (_by_facts(route, deciding, facts) if facts else None)
             or _by_terms(route, deciding, facts))
    if found is not None:
        rule, term, passage, line, why = found
        rw = Rewrite(rule.family, rule.hint, "condition", term,
                     where=f"{passage.path}:{line.line}", kernel_check=why)
    if foreign(rw.family, backend):
        # the branch that decides calls for a rewrite this backend has no form of: the answer
        # names the cause and no family, rather than a generic rule the condition did not choose
        check = f"the rewrite it calls for, {rw.family}, has no {backend} form"
        rw.elsewhere, rw.family, rw.hint = rw.family, "", ""
        rw.kernel_check = f"{rw.kernel_check}; {check}" if rw.kernel_check else check
    if not rw.hint:
        rw.hint = next((r.hint for r in route.rewrites if r.family == rw.family), "")
    card = _card_for(rw.family, backend, pass_arg, cards) if rw.family else None
    if card is not None:
        rw.card_id, rw.card_rewrite = card.id, card.rewrite
        rw.card_path = f"corpora/patterns/{card.source.name}" if card.source else ""
    return rw


def _pass_evidence(record: PassRecord) -> list[str]:
    ev = []
    if record.td_path:
        lines = "-".join(str(n) for n in record.td_lines)
        ev.append(f"registry: def {record.def_name} in {record.td_path}:{lines} "
                  f"(link {record.link_quality})")
    ev += [f"implemented in {a.path}:{a.start_line}-{a.end_line} {a.symbol}"
           for a in record.impl_anchors[:3] if a.kind != "binding"]
    ev += [f"pipeline {p.backend}/{p.stage} #{p.index}" + (f" if {p.condition}" if p.condition else "")
           for p in record.pipeline_positions[:2]]
    return ev


def build_chain(symptom: str, route: SymptomRoute, route_source: str, record: PassRecord | None,
                passage: Passage | None, rewrite: Rewrite) -> list[ChainLink]:
    """The four links, each with the evidence that backs it ('' claims are left out)."""
    chain = [ChainLink("symptom", f"{route.id}: {symptom}" if route.id != symptom else symptom,
                       [f"symptom table row '{route.id}' (matched by {route_source})",
                        *([route.note] if route.note else [])])]
    if record is not None:
        chain.append(ChainLink("pass", f"{record.argument} ({record.def_name or 'no TableGen def'}) "
                               "is the pass responsible", _pass_evidence(record)))
    else:
        chain.append(ChainLink("pass", f"no record in the pass registry for "
                               f"{', '.join(route.passes) or 'this symptom'}", []))
    if passage is not None and passage.deciding is not None:
        d = passage.deciding
        chain.append(ChainLink("condition", f"{passage.path}:{d.line} decides: {d.text}", [
            f"passage {passage.cite} {passage.symbol}".strip(),
            f"{'/'.join(d.kinds)} reading '{d.term}'",
            *([passage.permalink] if passage.permalink else [])]))
    else:
        chain.append(ChainLink("condition", "no retrieved passage holds a deciding branch on "
                               "the symptom's terms", []))
    if rewrite.family:
        ev = [f"card {rewrite.card_id} ({rewrite.card_path})" if rewrite.card_id
              else "no pattern card has this family"]
        ev.append(f"the deciding line {rewrite.where} mentions '{rewrite.matched_term}'"
                  if rewrite.basis == "condition" else "the symptom table's default family")
        if rewrite.kernel_check:
            ev.append(rewrite.kernel_check)
        chain.append(ChainLink("rewrite", f"{rewrite.family}: {rewrite.hint}".rstrip(": "), ev))
    return chain
