"""Whether a diagnosis report agrees with itself: the checks a reader makes without the kernel.

`problems(report)` takes the JSON form of a Diagnosis (docs/diagnosis.md) and returns one
sentence per inconsistency: a concluded report names a family and a card, its explanation and
its reason come from the findings it cites, its family heads its ranking, the expected-effect
sentence belongs to the concluded card, and a store defect is not confirmed by a load fact.
The ladder is built to pass these; bench/defects/run_diagnosis.py counts the failures.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

EFFECT_MARK = "Expected effect: "


@cache
def _effects(backend: str) -> dict[str, str]:
    from diagnose.triage import load_cards

    return {c.id: c.expected_effect for c in load_cards(backend)}


def problems(report: dict[str, Any]) -> list[str]:
    """One sentence per inconsistency of `report`; [] for a consistent one."""
    out = _verdict_problems(report)
    conclusion = report.get("conclusion")
    if report.get("verdict") != "concluded" or not conclusion:
        return out
    for check in (_names_problems, _ranking_problems, _supporting_problems, _effect_problems,
                  _reason_problems, _store_problems):
        out += check(report, conclusion)
    return out


def _verdict_problems(report: dict[str, Any]) -> list[str]:
    verdict, conclusion = report.get("verdict"), report.get("conclusion")
    if verdict not in ("concluded", "inconclusive"):
        return [f"verdict is {verdict!r}, neither concluded nor inconclusive"]
    if verdict == "concluded" and not conclusion:
        return ["the verdict is concluded but there is no conclusion"]
    if verdict == "inconclusive" and conclusion:
        return ["the verdict is inconclusive but a conclusion is given"]
    if verdict == "concluded" and report.get("concluded_tier") not in (1, 2, 3, 4):
        return ["the verdict is concluded but concluded_tier is not a tier"]
    return []


def _names_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    out = []
    if not c.get("rewrite_family"):
        out.append("the conclusion names no rewrite family")
    if not c.get("card_id"):
        out.append("the conclusion names no pattern card")
    if not (c.get("hotspot") or {}).get("kernel") and not (c.get("hotspot") or {}).get("path"):
        out.append("the conclusion's hotspot names neither a kernel nor a file")
    return out


def _ranking_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    ranking = report.get("ranking") or []
    if ranking and ranking[0].get("rewrite_family") != c.get("rewrite_family"):
        return [f"the conclusion names {c.get('rewrite_family')} but the ranking puts "
                f"{ranking[0].get('rewrite_family')} first"]
    return []


def _finding(report: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any] | None:
    tier = next((t for t in report.get("tiers", []) if t.get("tier") == ref.get("tier")), None)
    findings = (tier or {}).get("findings") or []
    index = ref.get("index", -1)
    return findings[index] if 0 <= index < len(findings) else None


def _supporting_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    refs = c.get("supporting") or []
    if not refs:
        return ["the conclusion cites no supporting finding"]
    out = []
    for ref in refs:
        found = _finding(report, ref)
        if found is None:
            out.append(f"supporting finding tier {ref.get('tier')} #{ref.get('index')} does not exist")
        elif found.get("kind") != ref.get("kind") or found.get("card_id") != ref.get("card_id"):
            out.append(f"supporting finding tier {ref.get('tier')} #{ref.get('index')} is a "
                       f"{found.get('kind')} {found.get('card_id')!r}, not the "
                       f"{ref.get('kind')} {ref.get('card_id')!r} the conclusion names")
    first = _finding(report, refs[0])
    if first is not None and first.get("rewrite_family") and \
            first["rewrite_family"] != c.get("rewrite_family"):
        out.append(f"the first supporting finding is about {first['rewrite_family']}, the "
                   f"conclusion about {c.get('rewrite_family')}")
    if first is not None and _head(first.get("message", "")) not in c.get("explanation", ""):
        out.append("the explanation does not come from the first supporting finding")
    return out


def _head(message: str) -> str:
    """The first words of a finding's message, as they appear once it is made a sentence."""
    return " ".join(message.split()[:8])


def _effect_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    explanation = c.get("explanation", "")
    if EFFECT_MARK not in explanation:
        return []
    effect = explanation.split(EFFECT_MARK, 1)[1].strip()
    expected = _effects(report.get("backend", "cuda")).get(c.get("card_id", ""))
    if expected is None or effect != expected.strip():
        return [f"the expected-effect sentence is not the one of card {c.get('card_id')!r}"]
    return []


def _reason_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    """The reason names what concluded: the card, or the words of the first supporting
    finding (the one the explanation comes from), not some other finding."""
    reason = report.get("reason", "")
    if c.get("card_id") and c["card_id"] in reason:
        return []
    refs = c.get("supporting") or []
    first = _finding(report, refs[0]) if refs else None
    head = _head(first.get("message", "")) if first is not None else ""
    if head and head in reason:
        return []
    return ["the reason names neither the concluded card nor the finding the explanation "
            "comes from"]


_STORE = re.compile(r"\b(tl\.store|store|stores|written|writes)\b")
_LOAD = re.compile(r"\b(tl\.load|load|loads|read|reads)\b")


def stores_only(text: str) -> bool:
    """The text speaks of stores and not of loads (a `tl.store` snippet, "global stores are ...")."""
    return bool(_STORE.search(text)) and not _LOAD.search(text)


def loads_only(text: str) -> bool:
    """The text speaks of loads and not of stores."""
    return bool(_LOAD.search(text)) and not _STORE.search(text)


def _store_problems(report: dict[str, Any], c: dict[str, Any]) -> list[str]:
    """A hypothesis about a store is not confirmed by a fact that speaks only of loads."""
    refs = c.get("supporting") or []
    found = [f for ref in refs if (f := _finding(report, ref)) is not None]
    hypothesis = next((f for f in found if f.get("kind") == "pattern"), None)
    if hypothesis is None:
        return []
    if not stores_only((hypothesis.get("evidence") or {}).get("snippet", "")):
        return []
    facts = [f for f in found if f.get("tier", 1) > 1]
    only_loads = [f for f in facts if loads_only(f.get("message", ""))]
    if facts and len(only_loads) == len(facts):
        return ["a store defect is confirmed only by evidence about loads"]
    return []


def shape(report: dict[str, Any]) -> dict[str, Any]:
    """`report` reduced to the fields `problems` reads (a small fixture of a real report)."""
    def finding(f: dict[str, Any]) -> dict[str, Any]:
        return {k: f.get(k) for k in ("tier", "kind", "card_id", "rewrite_family", "message")} | {
            "evidence": {"snippet": (f.get("evidence") or {}).get("snippet", "")}}

    return {"verdict": report.get("verdict"), "reason": report.get("reason", ""),
            "backend": report.get("backend", "cuda"), "concluded_tier": report.get("concluded_tier"),
            "conclusion": report.get("conclusion"),
            "ranking": [{"rewrite_family": r.get("rewrite_family")} for r in
                        (report.get("ranking") or [])[:3]],
            "tiers": [{"tier": t.get("tier"), "findings": [finding(f) for f in t.get("findings", [])]}
                      for t in report.get("tiers", [])]}
