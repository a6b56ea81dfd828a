"""Tier 3 as the ladder sees it: an IRCapture and its symptoms turned into one TierResult.

Each symptom names the pass responsible; the table below says which pattern cards (tier-1
hypotheses) a symptom can confirm, which is how the ladder combines evidence across tiers.
"""

from __future__ import annotations

from itertools import combinations

from diagnose.evidence import Finding, TierResult
from diagnose.ir import IRCapture, KernelIR, Symptom
from diagnose.ir.estimate import Estimate

TIER, TIER_NAME = 3, "IR attribution"
SYMPTOM_CONFIDENCE = 0.9  # an IR symptom is an observed fact; what it is caused by is not

# Symptom id -> the pattern cards whose slow idiom produces it, most direct cause first.
# One card: the symptom alone names the rewrite family. Several: a tier-1 hypothesis (or
# tier 4) has to say which of them is at work in this kernel.
SYMPTOM_CARDS: dict[str, tuple[str, ...]] = {
    "scalar-global-loads": ("cuda-interleaved-fields", "cuda-strided-fast-axis", "cuda-runtime-stride-no-hints",
                            "common-item-recurrence", "common-linear-table-scan", "cuda-scalar-element-loop",
                            "common-serial-recurrence", "cuda-div-mod-index",
                            "cuda-int64-index", "cuda-data-dependent-mask", "cuda-clamped-index"),
    "convert-layout-survives": ("cuda-fp32-dot", "cuda-matvec-per-row", "cuda-layout-conversion-churn",
                                "cuda-reduce-strided-axis", "cuda-smem-bank-conflicts"),
    "dot-without-wgmma": ("cuda-fp32-dot", "cuda-num-warps-exceed-tile", "cuda-too-few-warps",
                          "common-block-size", "cuda-broadcast-matmul", "cuda-rank3-dot"),
    "no-async-copy-after-pipeline": ("cuda-kloop-unpipelined", "cuda-mask-in-kloop",
                                     "cuda-smem-limits-occupancy"),
    "register-spills": ("cuda-register-spills", "cuda-too-few-warps"),
    "int64-index-arith": ("cuda-int64-index", "ascend-int64-vector-arith"),
    "int64-runtime-divide": ("cuda-div-mod-index", "cuda-int64-index"),
    "fp64-arith": ("cuda-fp64-math",),
    "exact-erf": ("cuda-exact-erf-elementwise",),
    "precise-math": ("cuda-ieee-rounded-math",),
    "global-atomics": ("common-scatter-atomics", "cuda-split-k-atomics", "cuda-atomic-reduction",
                       "common-atomic-per-step"),
    "grid-underfill": ("cuda-small-grid-underfill",),
    "thin-k-dot": ("cuda-thin-k-tile",),
    "discrete-mask-to-select": ("ascend-data-dependent-mask", "ascend-reversed-mask",
                                "ascend-strided-fast-axis", "ascend-transposed-tile", "ascend-interleaved-fields",
                                "ascend-discrete-gather"),
    "strided-memref": ("ascend-transposed-tile", "ascend-interleaved-fields", "ascend-strided-fast-axis"),
    "int-compare-select": ("ascend-data-dependent-mask", "ascend-int-compare-where",
                           "ascend-reversed-mask"),
    "int64-compare-select": ("ascend-int64-vector-arith",),
    "upcast-dot": ("ascend-fp32-dot",),
    # an atomic at computed addresses is scalarised too: one element-by-element atomic per lane
    "unstructured-access-fallback": ("common-scatter-atomics", "ascend-atomic-reduction",
                                     "common-sorted-key-atomics", "ascend-scalar-element-loop",
                                     "ascend-discrete-gather", "ascend-repeated-address-load",
                                     "ascend-div-mod-unstructured",
                                     "ascend-strided-fast-axis", "ascend-transposed-tile",
                                     "ascend-interleaved-fields", "ascend-clamped-index"),
}

# When the IR shows *why* (a symptom's mechanism, per source line), only the idioms that
# produce that mechanism explain it. A strided fast axis comes before a missing hint: with a
# unit-stride axis, a hint widens the access; with a strided one, no hint can.
MECHANISM_CARDS: dict[str, tuple[str, ...]] = {
    # one scalar per step: an item's own non-affine chain (items belong on the lanes) before a
    # walk whose steps could be one tile
    "scalar-pointer": ("common-item-recurrence", "common-linear-table-scan", "cuda-scalar-element-loop"),
    "tile-within-threads": ("common-row-per-program", "common-block-size", "cuda-num-warps-exceed-tile"),
    "narrow-contiguity": ("cuda-interleaved-fields", "cuda-strided-fast-axis", "cuda-div-mod-index",
                          "cuda-int64-index"),
    "no-divisibility-hint": ("cuda-runtime-stride-no-hints",),
    "atomic-accumulate": ("common-scatter-atomics", "cuda-split-k-atomics",
                          "cuda-atomic-reduction", "common-atomic-per-step"),
    "wide-values": ("cuda-fp64-math",),
    "exact-math": ("cuda-exact-erf-elementwise",),
    "ieee-math": ("cuda-ieee-rounded-math",),
    "oversized-tile": ("cuda-register-spills",),
    "few-warps": ("cuda-too-few-warps",),
    "few-programs": ("cuda-small-grid-underfill",),
    "data-mask": ("cuda-data-dependent-mask",),
    # an address read from memory under a mask read from memory: lanes at addresses the data
    # chose (each walking its own segment) are narrow whatever the mask says
    "gathered-pointer": ("cuda-strided-fast-axis", "cuda-data-dependent-mask"),
    "thin-k-step": ("cuda-thin-k-tile",),
    # an fp32 dot with IEEE inputs: only FMA loops compute it, whatever the tile or the warps
    "ieee-fp32-inputs": ("cuda-fp32-dot",),
}
# Cards a mechanism lists that the IR alone cannot tell apart from the card after them (one
# scalar per step is an item's own chain only when the source says the chain is non-affine, a
# table's entries walked against a tile of elements only when the source compares them): they
# explain a line a tier-1 hypothesis names, but do not make the IR's family ambiguous.
CONFIRM_ONLY_CARDS = frozenset({"common-item-recurrence", "common-linear-table-scan"})
# Symptoms that are effects: a layout conversion or spills follow from how an operand was
# loaded or widened. When the same kernel shows a cause (a narrow access), the cause is what
# tier 4 is asked about and what a conclusion names.
EFFECT_SYMPTOMS = ("convert-layout-survives", "register-spills")
CAUSE_SYMPTOMS = ("scalar-global-loads", "int64-index-arith", "fp64-arith", "unstructured-access-fallback",
                  "discrete-mask-to-select", "int64-runtime-divide")
# Symptoms whose one idiom does not depend on the captured size: a single-card finding of
# these is enough on its own (spills of a huge tile, atomics on one address).
STANDALONE_SYMPTOMS = ("register-spills", "global-atomics", "grid-underfill", "thin-k-dot",
                       "int64-compare-select")
# Mechanisms the IR states outright, whatever the size: a dot asked for IEEE fp32 inputs
STANDALONE_MECHANISMS = frozenset({"ieee-fp32-inputs"})
# How much of a kernel's time a symptom usually costs, for choosing what to explain first:
# a confirmation that leaves a heavier symptom of the same kernel unexplained is not enough.
# A buffer handed between launches is written and read back through DRAM: for memory-bound
# steps that is as much traffic again as the work itself, so it weighs like the heavy symptoms.
INTERMEDIATE_WEIGHT = 3
INTERMEDIATE_CARD = "common-unfused-launches"
# A buffer handed between launches is also what a cast done by its own kernel looks like:
# the cast card, when tier 1 holds it, is the more direct cause.
INTERMEDIATE_CARDS = ("common-host-casts", INTERMEDIATE_CARD)
LAUNCH_LOOP_CARD = "common-launch-loop"
# One kernel launched this many times by one call: the loop, not any one launch, is the cost.
MANY_LAUNCHES, MANY_LAUNCHES_WEIGHT, LAUNCH_US = 32, 5, 4.0
HOST_CAST_CARD, HOST_COPY_CARD = "common-host-casts", "common-host-copies"
# Cards tier 3 can confirm from what the launcher does (launch chains, counts, host ops).
HOST_CARDS = (*INTERMEDIATE_CARDS, LAUNCH_LOOP_CARD, HOST_COPY_CARD)
SYMPTOM_WEIGHT: dict[str, int] = {
    "dot-without-wgmma": 4, "no-async-copy-after-pipeline": 3, "register-spills": 3,
    "global-atomics": 4, "unstructured-access-fallback": 3, "grid-underfill": 3, "scalar-global-loads": 2,
    "convert-layout-survives": 2, "discrete-mask-to-select": 2, "int64-index-arith": 1,
    "strided-memref": 2, "int-compare-select": 1, "int64-compare-select": 1, "thin-k-dot": 3,
    "fp64-arith": 3, "upcast-dot": 3,
    # a software division routine per element, as fp64 math is a slow pipe per element
    "int64-runtime-divide": 3,
    # an exact erf costs a memory-bound kernel at most its instruction overhead (1.23x on the H200 for
    # an fp16 GELU, bench/optimize/erf): weaker than any access or launch mechanism beside it
    "exact-erf": 1,
    # several instructions per element where the approximation is one: the cost of a kernel
    # bound by its arithmetic (a pair loop), not of one bound by memory (COMPUTE_SYMPTOMS)
    "precise-math": 3,
}


# Symptoms about the speed of arithmetic: in a task whose cost model is memory-bound they are
# real but not the cost, so they weigh like a cheap symptom.
COMPUTE_SYMPTOMS = ("dot-without-wgmma", "thin-k-dot", "upcast-dot", "precise-math")


def tier3_result(capture: IRCapture, symptoms: list[Symptom],
                 card_families: dict[str, str], elapsed_s: float = 0.0,
                 estimate: Estimate | None = None, value_steps: frozenset[str] = frozenset(),
                 partials: frozenset[tuple[str, str]] = frozenset(),
                 statistics: frozenset[tuple[str, str]] = frozenset()) -> TierResult:
    """Findings for `symptoms` of `capture`; `card_families` maps card id -> rewrite family;
    `estimate` (the task's roofline place from its cost model) discounts compute-side symptoms;
    `value_steps` are kernels whose result the host reads back (tier 1): they make a value;
    `partials` are (kernel, parameter) pairs that write a per-program partials table (tier 1);
    `statistics` are (earlier, later) kernels where the later reads whole what the earlier writes
    (tier 1): a statistic's two passes, whose hand-over and second read are the algorithm."""
    # a small grid per launch of a kernel launched many times is the launch loop's effect, and
    # a small grid of a step that makes one value for the host is that read-back's, not the cost
    # (so is the small grid of a finishing step that sums a partials table another launch wrote)
    finishing = {hop.get("consumer") for hop in capture.intermediates
                 if (hop.get("producer"), hop.get("producer_arg")) in partials}
    symptoms = [s for s in symptoms if not (s.id == "grid-underfill"
                                            and (capture.launch_counts.get(s.kernel, 1) > 1
                                                 or s.kernel in value_steps | finishing))]
    findings = [_finding(s, capture, card_families) for s in symptoms]
    if estimate is not None and estimate.memory_bound:
        for f in findings:
            if f.evidence.get("symptom") == "dot-without-wgmma" and f.evidence.get("mma_versions") == [] \
                    and estimate.fma_bound(capture.backend):
                continue  # no MMA at all: the dot runs as FMA loops, which this task's FLOPs outrun
            if f.evidence.get("symptom") in COMPUTE_SYMPTOMS:
                f.evidence["weight"] = 1
                f.evidence["memory_bound_estimate"] = estimate.sentence()
    findings += _intermediate_findings(capture, card_families, estimate, partials, statistics)
    findings += _host_findings(capture, card_families, value_steps, statistics)
    standalone = _standalone(findings)
    reason = (f"The IR shows {standalone.message}, an idiom that no captured size explains "
              "away." if standalone else _reason(capture, findings))
    return TierResult(TIER, TIER_NAME, findings, sufficient=standalone is not None,
                      reason=reason, elapsed_s=round(elapsed_s, 4))


def _standalone(findings: list[Finding]) -> Finding | None:
    """The one heaviest finding that names its family on its own, if it is the heaviest: a
    size-independent IR symptom, or whole-tensor copies the launcher was seen to run."""
    symptoms = [f for f in findings if f.kind in ("ir-symptom", "host-code")
                or f.evidence.get("weight", 0) >= INTERMEDIATE_WEIGHT]
    if not symptoms:
        return None
    top = max(symptoms, key=lambda f: f.evidence["weight"])
    alone = ((top.evidence["symptom"] in STANDALONE_SYMPTOMS + ("host-ops",)
              or set(top.evidence.get("mechanisms") or ()) & STANDALONE_MECHANISMS) and top.rewrite_family
             and sum(f.evidence["weight"] >= top.evidence["weight"] for f in symptoms) == 1)
    return top if alone else None


def _cards(symptom: Symptom, card_families: dict[str, str]) -> tuple[list[str], dict[str, list]]:
    """The cards that explain `symptom`, and per source line the cards that explain it there."""
    if not symptom.mechanisms:
        return [c for c in SYMPTOM_CARDS.get(symptom.id, ()) if c in card_families], {}
    by_line: dict[str, list[str]] = {}
    for mechanism, lines in symptom.mechanisms.items():
        for line in lines:
            by_line.setdefault(str(line), []).extend(
                c for c in MECHANISM_CARDS.get(mechanism, ()) if c in card_families)
    order = [c for m in MECHANISM_CARDS.values() for c in m]
    cards = sorted({c for cs in by_line.values() for c in cs}, key=order.index)
    return cards, {line: sorted(set(cs), key=order.index) for line, cs in by_line.items()}


# Idioms of a tl.dot (its operands' precision, split-K atomics around it, how its tiles are fed):
# a symptom or a reading of a kernel whose IR holds no dot at any stage is not theirs, however
# often they produce it elsewhere.
DOT_CARDS = ("cuda-fp32-dot", "cuda-split-k-atomics", "cuda-no-tma-descriptors")


def without_dot(kernel: KernelIR) -> bool:
    return bool(kernel.signatures) and not any(s.dots or s.warp_group_dots for s in kernel.signatures)


def _finding(symptom: Symptom, capture: IRCapture, card_families: dict[str, str]) -> Finding:
    if symptom.id in ("compile-failure", "frontend-abort"):
        return _failure_finding(symptom, capture)
    kernel = next((k for k in capture.kernels if k.kernel == symptom.kernel), None)
    cards, line_cards = _cards(symptom, card_families)
    if kernel is not None and without_dot(kernel):
        cards = [c for c in cards if c not in DOT_CARDS]
        line_cards = {line: [c for c in cs if c not in DOT_CARDS] for line, cs in line_cards.items()}
    # a card only a tier-1 reading can tell is at work does not split the family the IR names
    lead = [c for c in cards if c not in CONFIRM_ONLY_CARDS] or cards
    families = list(dict.fromkeys(card_families[c] for c in lead))
    only = families[0] if len(families) == 1 else ""
    lines = sorted({int(n) for ns in symptom.mechanisms.values() for n in ns})
    return Finding(
        tier=TIER, kind="ir-symptom", card_id=lead[0] if only else "", rewrite_family=only,
        message=f"{symptom.summary} (pass {symptom.pass_arg})", confidence=SYMPTOM_CONFIDENCE,
        location={"path": kernel.file if kernel else capture.source, "function": symptom.kernel,
                  "line": lines[0] if lines else (kernel.line if kernel else None),
                  "stage": symptom.stage_index},
        evidence={"symptom": symptom.id, "summary": symptom.summary, "ir": symptom.evidence,
                  "survived": symptom.survived, "explains_cards": cards,
                  "mechanisms": symptom.mechanisms, "line_cards": line_cards,
                  "lines_in_loops": symptom.lines_in_loops,
                  **{k: symptom.facts[k] for k in ("mma_versions", "fp64_ops") if k in symptom.facts},
                  "weight": _weight(symptom),
                  "explains_families": families, "target": capture.target,
                  "compiler": capture.compiler_version,
                  "reproduce": capture.commands[:1]},
        evidence_needed=[] if only else [
            f"which of {', '.join(families) or 'the known idioms'} causes it in this kernel: "
            "a tier-1 hypothesis or the pass's source (tier 4)"],
        passes=[symptom.pass_arg] if symptom.pass_arg else [])


# A grid of at least half the SMs leaves few SMs idle: its cost is occupancy (one program's
# warps per SM), which other symptoms of the same kernel can outweigh.
UNDERFILL_HEAVY_SHARE = 0.5


def _weight(symptom: Symptom) -> int:
    """How much of the time the symptom usually costs (SYMPTOM_WEIGHT), by its own numbers."""
    weight = SYMPTOM_WEIGHT.get(symptom.id, 1)
    programs, sms = symptom.facts.get("programs"), symptom.facts.get("sms")
    if symptom.id == "grid-underfill" and programs and sms and programs >= UNDERFILL_HEAVY_SHARE * sms:
        return weight - 1
    return weight


def _intermediate_findings(capture: IRCapture, card_families: dict[str, str],
                           estimate: Estimate | None = None,
                           partials: frozenset[tuple[str, str]] = frozenset(),
                           statistics: frozenset[tuple[str, str]] = frozenset()) -> list[Finding]:
    """One finding per buffer the launcher hands from one kernel to the next: what the
    captured launches show, not a guess from the source (tier 1 only sees the calls). A
    per-program partials table handed to its finishing reduction is the algorithm: skipped."""
    card = INTERMEDIATE_CARD if INTERMEDIATE_CARD in card_families else ""
    family = card_families.get(card, "")
    out = []
    for hop in capture.intermediates:
        if (hop.get("producer"), hop.get("producer_arg")) in partials \
                or (hop.get("producer"), hop.get("consumer")) in statistics:
            continue
        # a buffer made once and read by a loop of launches (an iteration's state set up by an
        # init kernel): the hand-over is one pass against every iteration's work
        looped = capture.launch_counts.get(hop.get("consumer"), 1) >= \
            MANY_CONSUMER_LAUNCHES * capture.launch_counts.get(hop.get("producer"), 1)
        # a task whose cost model does far more arithmetic per byte than the ridge (a hash
        # chain, an iterated solve) spends its time computing: a hand-over of bytes is a sliver
        looped = looped or (estimate is not None and estimate.intensity >= ARITHMETIC_BOUND * estimate.ridge)
        out.append(Finding(
            tier=TIER, kind="launch-chain", card_id=card, rewrite_family=family,
            message=(f"the launcher hands a buffer it allocated from {hop['producer']} "
                     f"({hop['producer_arg']}) to {hop['consumer']} ({hop['consumer_arg']}) and "
                     "never returns it: an intermediate written to and read back from global "
                     "memory between launches"),
            confidence=0.8 if _sizeable(hop) and not looped else 0.5,
            # the launcher's file, no kernel: the hand-over is between kernels, not inside one
            location={"path": capture.source, "function": None, "line": None, "stage": None},
            evidence={"symptom": "intermediate-buffer", "hop": hop,
                      "explains_cards": [c for c in INTERMEDIATE_CARDS if c in card_families],
                      "weight": 1 if looped else _handover_weight(hop, estimate),
                      "compiler": capture.compiler_version, "reproduce": capture.commands[:1]},
            passes=[]))
    return out


ARITHMETIC_BOUND = 10  # times the ridge: a task this far above it is bound by its arithmetic
MANY_CONSUMER_LAUNCHES = 8  # consumer launches per producer launch in the real call (the capture's
# counts): the hand-over is a sliver of it
SMALL_HANDOVER = 0.05  # a buffer below this share of the call's input bytes costs little
# An input read again by a second launch costs one more pass over it: a heavy symptom only when
# that input is a large share of what the launches move; otherwise it weighs like a cheap one.
HEAVY_REREAD, REREAD_WEIGHT = 0.3, 2


def _handover_weight(hop: dict, estimate: Estimate | None) -> int:
    """A sizeable hand-over weighs like the heavy symptoms; in a task its cost model calls
    memory-bound, a buffer at least as large as the inputs doubles the traffic the time is made
    of (written and read back), which outweighs anything about arithmetic or occupancy."""
    if not _sizeable(hop):
        return 1
    size, inputs = hop.get("bytes"), hop.get("input_bytes")
    if estimate is not None and estimate.memory_bound and size and inputs and size >= inputs:
        return INTERMEDIATE_WEIGHT + 1
    return INTERMEDIATE_WEIGHT


def _sizeable(hop: dict) -> bool:
    """Whether a hand-over moves enough bytes to matter (unknown sizes: assume it does); a
    per-program partials table between two stages of one algorithm is not the cost."""
    size, inputs = hop.get("bytes"), hop.get("input_bytes")
    return not (size and inputs) or size >= SMALL_HANDOVER * inputs


def _host_findings(capture: IRCapture, card_families: dict[str, str],
                   value_steps: frozenset[str] = frozenset(),
                   statistics: frozenset[tuple[str, str]] = frozenset()) -> list[Finding]:
    """What the launcher's host code does around the launches, as the capture saw it: kernels
    launched more than once per call (a Python loop of launches) and whole-tensor casts or
    copies run by torch between them."""
    out = []
    repeated = {k: n for k, n in capture.launch_counts.items() if n > 1}
    if repeated and LAUNCH_LOOP_CARD in card_families:
        named = ", ".join(f"{k} {n} times" for k, n in sorted(repeated.items()))
        finding = _host_finding(
            capture, LAUNCH_LOOP_CARD, card_families, "launch-count",
            f"one call of the launcher launches {named}: each launch pays the launch cost "
            "and reads its inputs again for a slice of the work", {"launches": repeated})
        # a loop of launches or separate launches of one kernel: tier 1 says which (of that
        # kernel: the count says nothing of how the other kernels hand data to each other)
        finding.card_id, finding.rewrite_family = "", ""
        if len(repeated) == 1:
            finding.location["function"] = next(iter(repeated))
        finding.evidence["explains_cards"] = [c for c in (LAUNCH_LOOP_CARD, INTERMEDIATE_CARD)
                                              if c in card_families]
        if max(repeated.values()) >= MANY_LAUNCHES:
            # launch overhead alone (a few us each) outweighs what one IR symptom costs a launch
            finding.evidence["weight"] = MANY_LAUNCHES_WEIGHT
            finding.message += (f"; {max(repeated.values())} launches of one kernel cost about "
                                f"{max(repeated.values()) * LAUNCH_US:.0f} us in launch overhead alone")
        out.append(finding)
    casts = [op for op in capture.host_ops if op.get("from_dtype") and
             op.get("dtype") != op.get("from_dtype")]
    copies = [op for op in capture.host_ops if op not in casts]
    for card, ops, what in ((HOST_CAST_CARD, casts, "dtype casts"),
                            (HOST_COPY_CARD, copies, "layout copies")):
        if ops and card in card_families:
            total = sum(op["bytes"] for op in ops)
            inputs = ops[0].get("input_bytes")
            if inputs and total < SMALL_HANDOVER * inputs:
                continue  # a copy of a bias or a scale: not where the time goes
            kinds = ", ".join(dict.fromkeys(f"{op['op']} {op.get('from_dtype')}->{op['dtype']}"
                                            for op in ops))
            out.append(_host_finding(
                capture, card, card_families, "host-ops",
                f"the launcher's host code runs {len(ops)} whole-tensor {what} ({kinds}; "
                f"{total / 1e6:.1f} MB written) around the launches: extra passes through "
                "memory the kernels could fold into their loads and stores", {"ops": ops[:8]}))
    for reread in capture.rereads:
        if set(reread["kernels"]) & value_steps:
            continue  # one reader only makes a value for the host: the read-back is the idiom
        if any(pair in statistics for pair in combinations(reread["kernels"], 2)):
            continue  # the second pass needs the first's statistic whole: it reads the input again
        size, moved = reread.get("bytes"), reread.get("call_bytes")
        share = size / moved if size and moved else None
        if share is not None and share < SMALL_HANDOVER:
            continue  # a small table (centroids, a bias) read twice: not where the time goes
        if INTERMEDIATE_CARD in card_families:
            finding = _host_finding(
                capture, INTERMEDIATE_CARD, card_families, "input-reread",
                f"the same input ({', '.join(reread['args'][:2])}) is passed to "
                f"{' and '.join(reread['kernels'])}: each launch reads it from global memory "
                "again, where one fused kernel reads it once"
                + (f" ({size / 1e6:.1f} MB read again, {share:.0%} of the {moved / 1e6:.1f} MB the "
                   "launches touch)" if share is not None else ""), {"reread": reread})
            if share is not None and share < HEAVY_REREAD:
                finding.evidence["weight"] = REREAD_WEIGHT  # one more pass over a minor input
            out.append(finding)
    return out


def _host_finding(capture: IRCapture, card: str, card_families: dict[str, str], symptom: str,
                  message: str, facts: dict) -> Finding:
    return Finding(
        tier=TIER, kind="host-code", card_id=card, rewrite_family=card_families[card],
        message=message, confidence=0.8,
        location={"path": capture.source, "function": None, "line": None, "stage": None},
        evidence={"symptom": symptom, **facts, "explains_cards": [card],
                  "weight": INTERMEDIATE_WEIGHT, "compiler": capture.compiler_version,
                  "reproduce": capture.commands[:1]},
        passes=[])


def _failure_finding(symptom: Symptom, capture: IRCapture) -> Finding:
    """A kernel that does not compile: the compiler's own message is the evidence."""
    last = next((ln for ln in reversed(symptom.evidence) if ln.strip()), "no message")
    if symptom.id == "frontend-abort":
        # not a broken kernel: the CPU front end's own limit, after the access passes ran
        message = (f"{symptom.kernel}: {capture.compiler_version or 'the Ascend front end'} "
                   f"stopped in {symptom.pass_arg} ({last.strip()}); the stages before it are "
                   "analysed. Whether the NPU toolchain builds this kernel is not verified here.")
    else:
        message = f"{symptom.kernel} does not compile ({symptom.pass_arg}): {last.strip()}"
    return Finding(
        tier=TIER, kind=symptom.id, card_id="", rewrite_family="",
        message=message,
        confidence=1.0, location={"path": capture.source, "function": symptom.kernel,
                                  "line": None, "stage": None},
        evidence={"phase": symptom.pass_arg, "message": symptom.evidence,
                  "compiler": capture.compiler_version, "reproduce": capture.commands[:1]},
        passes=[])


def _reason(capture: IRCapture, findings: list[Finding]) -> str:
    if any(f.kind == "compile-failure" for f in findings):
        return f"The kernel does not compile for {capture.target}; the failure is the evidence."
    aborted = [f for f in findings if f.kind == "frontend-abort"]
    findings = [f for f in findings if f.kind != "frontend-abort"]
    if aborted and not findings:
        return (f"The front end stopped early ({aborted[0].message}) and the stages before it "
                "show none of the known IR symptoms.")
    if not findings:
        launched = len(capture.kernels)
        return (f"{launched} kernel launch(es) compiled for {capture.target} show none of the "
                "known IR symptoms.")
    hops = [f for f in findings if f.kind in ("launch-chain", "host-code")]
    handed = (f"The host code around the launches costs extra passes through memory ({len(hops)} finding(s)). "
              if hops else "")
    symptoms = ", ".join(f"{f.evidence['symptom']} at {f.passes[0] if f.passes else '?'}"
                         for f in findings if f.kind == "ir-symptom")
    if not symptoms:
        return handed.strip()
    return (f"{handed}The IR locates the stage ({symptoms}); why the source causes it needs a "
            "tier-1 hypothesis that it confirms, or the pass's source.")
