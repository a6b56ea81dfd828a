"""From a symptom to one narrow question: the responsible pass (through the pass registry), the
question text, and the searches that answer it (pass filter, implementation files, analyses)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from kb.errors import KBError
from kb.passes import PassRecord, PassRegistry
from kb.search import Filters

from .facts import KernelFacts, holds
from .symptoms import (
    KernelQuestion,
    SymptomRoute,
    construct_questions,
    generic_route,
    match_route,
    named_passes,
    route_by_id,
)

MAX_IMPL_FILES = 4
SEARCH_WEIGHTS = {"pass": 1.0, "impl": 1.0, "analysis": 0.8, "pipeline": 0.8, "open": 0.4,
                  "kernel": 0.8, "handler": 0.8}


class EscalationError(KBError):
    """A request tier 4 cannot answer as given; str(e) is one sentence with the fix."""


class UnknownPassError(EscalationError):
    """The pass name given matches nothing in the registry."""


@dataclass
class SearchSpec:
    """One search of the plan: its query, its filters and what a hit from it proves."""

    name: str
    query: str
    filters: Filters
    provenance: str  # pass | impl | analysis | pipeline | kernel | handler | open

    @property
    def weight(self) -> float:
        return SEARCH_WEIGHTS[self.provenance]

    def to_json(self) -> dict:
        return {"name": self.name, "query": self.query, "provenance": self.provenance,
                "filters": {k: v for k, v in self.filters.as_dict().items() if v}}


@dataclass
class Question:
    """The narrow question asked of the compiler's source, and how it will be searched."""

    text: str
    symptom: str
    route: SymptomRoute
    route_source: str  # "id" | "free-text" | "generic"
    record: PassRecord | None
    searches: list[SearchSpec] = field(default_factory=list)
    kernel: list[KernelQuestion] = field(default_factory=list)  # asked because of the facts

    @property
    def pass_arg(self) -> str:
        return self.record.argument if self.record else ""

    @property
    def focus(self) -> list[str]:
        """The row's focus terms and those of the kernel questions asked."""
        return list(dict.fromkeys([*self.route.focus, *(t for k in self.kernel for t in k.focus)]))

    @property
    def marks(self) -> list[str]:
        return list(dict.fromkeys(m for k in self.kernel for m in k.marks))


def kernel_questions(route: SymptomRoute, facts: KernelFacts | None,
                     backend: str = "") -> list[KernelQuestion]:
    """The row's kernel questions whose construct the kernel's facts show (`when` holds): its
    own [[symptom.kernel]] ones, then one per offset construct (symptoms.construct_questions)."""
    asked = [k for k in route.kernel if facts and holds(k.when, facts) is True]
    return asked + [k for k in construct_questions(route, facts, backend or route.backend)
                    if holds(k.when, facts or {}) is True]


def _all_names(registry: PassRegistry) -> list[str]:
    return sorted({n for r in registry for n in r.names()})


def close_matches(registry: PassRegistry, name: str, n: int = 5) -> list[str]:
    """Registry names spelled like `name` (arguments first), for an error message."""
    names = _all_names(registry)
    near = difflib.get_close_matches(name, names, n=n, cutoff=0.6)
    low = name.lower()
    near += [x for x in names if low and low in x.lower() and x not in near]
    args = {r.argument for r in registry}
    return sorted(near, key=lambda x: (x not in args, near.index(x)))[:n]


def unknown_pass(registry: PassRegistry, name: str) -> UnknownPassError:
    near = close_matches(registry, name)
    hint = f"close matches: {', '.join(near)}" if near else "no pass has a similar name"
    return UnknownPassError(f"No pass named {name!r} is in the pass registry ({hint}); "
                            "list the passes with `passwise passes`.")


def resolve_pass(registry: PassRegistry, symptom: str, pass_name: str | None,
                 route: SymptomRoute | None) -> PassRecord | None:
    """The record of the pass to question: the one given, else one the symptom names, else
    the table's; None when the registry knows none of them."""
    if pass_name:
        record = registry.lookup(pass_name)
        if record is None:
            raise unknown_pass(registry, pass_name)
        return record
    candidates = named_passes(symptom) + (route.passes if route else [])
    return next((r for n in candidates if (r := registry.lookup(n)) is not None), None)


def pick_route(symptom: str, backend: str, record: PassRecord | None) -> tuple[SymptomRoute, str]:
    """The table row for the symptom; a generic one built around the pass when none fits."""
    if not symptom.strip():
        raise EscalationError("The symptom is empty; give a symptom id such as "
                              "scalar-global-loads or a sentence describing what the IR shows.")
    if route_by_id(symptom):
        return route_by_id(symptom), "id"  # type: ignore[return-value]
    route = match_route(symptom, backend)
    if route is not None:
        return route, "free-text"
    if record is None:
        raise EscalationError(
            f"The symptom {symptom!r} matches no row of the symptom table and names no pass; "
            "give a symptom id (see docs/escalation.md) or the pass with --pass.")
    return generic_route(symptom, backend, record.argument), "generic"


def _impl_paths(record: PassRecord) -> list[str]:
    paths = [a.path for a in record.impl_anchors if a.kind != "binding"]
    return list(dict.fromkeys(paths))[:MAX_IMPL_FILES]


def plan_searches(question: str, route: SymptomRoute, record: PassRecord | None,
                  backend: str, kernel: list[KernelQuestion] | None = None) -> list[SearchSpec]:
    """The searches that answer the question, most specific first."""
    terms = " ".join(route.focus[:10])
    query = f"{question} {terms}".strip()
    plan = []
    if record is not None:
        plan.append(SearchSpec(f"pass:{record.argument}", query,
                               Filters(backend=backend, pass_=record.argument), "pass"))
        for path in _impl_paths(record):
            plan.append(SearchSpec(f"impl:{path}", query, Filters(
                backend=backend, path_glob=path, repo=record.source or None), "impl"))
        # Where the backend adds the pass: its guard (e.g. num_stages > 1) can decide too.
        for path in dict.fromkeys(p.path for p in record.pipeline_positions if p.path):
            plan.append(SearchSpec(f"pipeline:{path}", f"{query} {record.argument}",
                                   Filters(backend=backend, path_glob=path), "pipeline"))
    for analysis in route.analyses:
        for glob in analysis.paths:
            plan.append(SearchSpec(f"analysis:{analysis.name}:{glob}",
                                   f"{analysis.query} {terms}".strip(),
                                   Filters(backend=backend, path_glob=glob), "analysis"))
    # where the analysis dispatches on the kernel's construct (its handler is followed later)
    for kq in kernel or []:
        for glob in kq.paths:
            plan.append(SearchSpec(f"kernel:{kq.name}:{glob}", f"{kq.query} {' '.join(kq.ops)}",
                                   Filters(backend=backend, path_glob=glob), "kernel"))
    plan.append(SearchSpec("open", query, Filters(backend=backend), "open"))
    return plan


def build_question(registry: PassRegistry, *, symptom: str, pass_name: str | None,
                   backend: str, facts: KernelFacts | None = None) -> Question:
    """Resolve the symptom to a pass and a table row, and plan the searches (with the kernel
    questions the facts call for)."""
    early = route_by_id(symptom) or match_route(symptom, backend)
    record = resolve_pass(registry, symptom, pass_name, early)
    route, how = pick_route(symptom, backend, record)
    text = route.ask(record.argument if record else (route.passes[:1] or [""])[0])
    kernel = kernel_questions(route, facts, backend)
    plan = plan_searches(text, route, record, backend, kernel)
    text += "".join(f" The kernel facts show {k.says}: {k.question}" for k in kernel)
    return Question(text, symptom, route, how, record, plan, kernel)
