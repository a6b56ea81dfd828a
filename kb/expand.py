"""Query expansion for the lexical side: the question's tokens, plus lower-weight tokens from the
symptom lexicon (kb/symptoms.toml) and from the pass registry.

The question's own tokens weigh 1. A lexicon rule fires when every token of one of its `when`
phrases is in the question; its `add` words join at LEXICON_WEIGHT. The registry contributes
in two ways: a pass named in the question (argument, def, class, flag, dump header) adds its
classes and create functions; and the passes whose summary shares the most words with the
question add their names at REGISTRY_WEIGHT, so a question in words reaches code in names.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kb.passes import PassRecord, PassRegistry
from kb.tokens import tokenize

LEXICON = Path(__file__).with_name("symptoms.toml")
LEXICON_WEIGHT = 0.3
REGISTRY_WEIGHT = 0.4
# A pass's summary must share this many distinct question tokens to count as "about" the question.
MIN_SUMMARY_OVERLAP = 2
MAX_SUMMARY_PASSES = 2


@dataclass(frozen=True)
class Rule:
    """Symptom words -> cause words."""

    when: tuple[frozenset[str], ...]
    add: tuple[str, ...]


@dataclass
class Expansion:
    """Weighted query tokens and where the added ones came from (for `--json` and tests)."""

    terms: dict[str, float]
    rules: list[str] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)

    def add(self, tokens: list[str], weight: float) -> None:
        for t in tokens:
            self.terms[t] = max(self.terms.get(t, 0.0), weight)


@lru_cache(maxsize=4)
def load_lexicon(path: Path = LEXICON) -> tuple[Rule, ...]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(Rule(tuple(frozenset(tokenize(w)) for w in r["when"] if tokenize(w)),
                      tuple(tokenize(r["add"]))) for r in data.get("rule", []))


def expand(question: str, *, lexicon: tuple[Rule, ...] = (),
           registry: PassRegistry | None = None) -> Expansion:
    """The question's weighted tokens after lexicon and registry expansion."""
    base = tokenize(question)
    exp = Expansion(dict.fromkeys(base, 1.0))
    words = set(base)
    for rule in lexicon:
        hit = next((w for w in rule.when if w <= words), None)
        if hit:
            exp.add(list(rule.add), LEXICON_WEIGHT)
            exp.rules.append(" ".join(sorted(hit)))
    if registry is not None:
        for rec in _named_passes(question, registry) + _summary_passes(words, registry):
            if rec.argument not in exp.passes:
                exp.passes.append(rec.argument)
                exp.add(tokenize(" ".join(_names(rec))), REGISTRY_WEIGHT)
    return exp


def _names(rec: PassRecord) -> list[str]:
    return [rec.argument, rec.def_name, *rec.classes, *rec.create_functions]


def _named_passes(question: str, registry: PassRegistry) -> list[PassRecord]:
    """Passes the question names outright (`tritongpu-coalesce`, `TritonGPUCoalesce`, a header)."""
    found = []
    for word in question.replace("`", " ").replace(",", " ").split():
        word = word.strip("()[]{}'\".:;?")
        if len(word) > 3 and ("-" in word or any(c.isupper() for c in word[1:])):
            rec = registry.lookup(word)
            if rec is not None and rec not in found:
                found.append(rec)
    return found


@lru_cache(maxsize=8)
def _summary_index(registry: PassRegistry) -> tuple[tuple[PassRecord, frozenset[str]], ...]:
    return tuple((r, frozenset(tokenize(f"{r.argument} {r.summary}"))) for r in registry
                 if r.summary)


def _summary_passes(words: set[str], registry: PassRegistry) -> list[PassRecord]:
    """The passes whose argument and one-line summary share the most words with the question."""
    scored = sorted(((len(words & toks), r.argument, r) for r, toks in _summary_index(registry)),
                    key=lambda x: (-x[0], x[1]))
    return [r for n, _, r in scored[:MAX_SUMMARY_PASSES] if n >= MIN_SUMMARY_OVERLAP]
