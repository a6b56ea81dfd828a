"""Session 40: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

from tests.test_escalate import _handler_first


def test_a_deciding_handler_that_calls_for_another_backends_rewrite_names_no_family_on_cuda():
    """Offsets read from memory (a gather at loaded indices): AxisInfo's load visitor decides,
    and the construct's rewrite (load contiguously, gather on chip) is an Ascend card. On CUDA
    the answer keeps the deciding branch and names no family, so it cannot conclude, rather than
    naming a rewrite the target has no form of or a generic rule the branch did not choose."""
    from diagnose.escalation.rewrite import foreign

    facts = {"load_offset_ops": {"tt.load": 1, "tt.addptr": 2}, "load_mask_bounds": [],
             "unaligned_mask_bounds": [], "unaligned_strides": []}
    text = ("// lib/H.cpp :: LoadOpAxisInfoVisitor::getAxisInfo\n"
            "        contiguity.push_back(gcd(lhsInfo.getContiguity(d), rhsInfo.getContiguity(d)));")
    passages, rw = _handler_first("scalar-global-loads", "axis-info-loaded", text,
                                  "handler:axis-info-loaded:LoadOpAxisInfoVisitor", facts)
    assert passages[0].id == "h"
    assert rw.family == "" and rw.card_id == ""
    assert rw.where.startswith("lib/H.cpp:") and "LoadOpAxisInfoVisitor handles" in rw.kernel_check
    assert "has no cuda form" in rw.kernel_check and "contiguous-load-gather" in rw.kernel_check
    assert foreign("contiguous-load-gather", "cuda") and not foreign("contiguous-load-gather", "ascend")
    assert not foreign("multi-row-programs", "cuda") and not foreign("no-such-family", "cuda")


def test_the_same_handler_on_ascend_keeps_its_gather_family():
    facts = {"load_offset_ops": {"tt.load": 1, "tt.addptr": 2}, "offset_ops": {"tt.load": 1}}
    text = ("// lib/H.cpp :: parseLoad\n"
            "    return failure(); // the offset is not structured: getContiguity")
    _, rw = _handler_first("unstructured-access-fallback", "offset-analysis-loaded", text,
                           "handler:offset-analysis-loaded:parseLoad", facts, backend="ascend")
    assert rw.family == "contiguous-load-gather"


def test_an_answer_that_misses_the_cost_ranks_below_the_evidence_that_explains_it():
    """Three weak looks at a cheap symptom (source idiom, IR fact, tier-4 answer) add up to more
    confidence than one trace measurement of where the traffic goes; once the ladder found the
    answer does not explain the cost, the ranking keeps it below the measured family."""
    from diagnose.evidence import Finding, TierResult
    from diagnose.weigh import rank

    def finding(tier, family, confidence, kind="pattern", **evidence):
        return Finding(tier=tier, kind=kind, card_id=f"card-{family}", rewrite_family=family,
                       message=family, confidence=confidence, evidence=evidence)

    tiers = [TierResult(1, "pattern triage", [finding(1, "int32-indexing", 0.35),
                                              finding(1, "skip-masked-tiles", 0.47, kind="trace",
                                                      share=0.4)]),
             TierResult(3, "IR attribution", [finding(3, "int32-indexing", 0.9, kind="ir-symptom",
                                                      weight=1)]),
             TierResult(4, "compiler source", [finding(4, "int32-indexing", 0.35, kind="pass-source")])]
    assert [c.rewrite_family for c in rank(tiers)][:2] == ["int32-indexing", "skip-masked-tiles"]
    tiers[2].findings[0].evidence["outweighed_by"] = "skip-masked-tiles"
    assert [c.rewrite_family for c in rank(tiers)][:2] == ["skip-masked-tiles", "int32-indexing"]
    # a rival no finding names leaves the order as it is
    tiers[2].findings[0].evidence["outweighed_by"] = "fuse-launches"
    assert rank(tiers)[0].rewrite_family == "int32-indexing"


def test_the_program_overhead_time_model_tells_latency_bound_grids_from_bandwidth_bound_ones():
    from diagnose.profiling.trace import program_overhead_share

    # 917,504 one-warp programs of 388 bytes: ~28 waves of 4,224 programs... far more time in
    # the programs' own latency than in 356 MB at full bandwidth
    assert program_overhead_share(917_504, 1, 917_504 * 388.0) >= 0.75
    # the same bytes in 4,096 programs that loop: the bytes are the time
    assert program_overhead_share(4_096, 4, 917_504 * 388.0) == 0.0
    # more warps per program: fewer programs resident at once, more waves
    assert program_overhead_share(131_072, 8, 131_072 * 512.0) > program_overhead_share(131_072, 1, 131_072 * 512.0)


def _answered_context(short_programs: Finding | None, elsewhere: Finding | None = None):
    from diagnose.evidence import TierResult
    from diagnose.ladder import Options, make_context
    from diagnose.target import resolve_target
    from diagnose.triage import triage
    from tests.test_diagnosis_session23 import KERNEL, _narrow_loads

    first = triage(KERNEL.read_text(), str(KERNEL), "cuda")
    first.findings = [short_programs] if short_programs else []
    ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
    answer = Finding(4, "pass-source", "cuda-runtime-stride-no-hints", "add-divisibility-hints",
                     "AxisInfo decides the alignment", 0.85, evidence={"symptom_asked": "scalar-global-loads"})
    answers = [answer] + ([elsewhere] if elsewhere else [])
    ctx.evidence = [first, TierResult(2, "profiling", []), TierResult(3, "IR attribution", [_narrow_loads(10)]),
                    TierResult(4, "compiler-source escalation", answers, sufficient=True)]
    return ctx, answer


def _short_programs(overhead: float) -> Finding:
    return Finding(1, "trace", "common-row-per-program", "multi-row-programs",
                   "each of the 917,504 programs moves about 388 bytes in one pass", 0.65,
                   {"path": "k.py"}, {"traced": True, "share": 1.0, "ranks_only": True,
                                      "facts": {"programs": 917_504, "overhead_share": overhead}})


Finding = __import__("diagnose.evidence", fromlist=["Finding"]).Finding


def test_a_tier4_answer_about_the_accesses_does_not_conclude_when_the_programs_latency_is_the_time():
    from diagnose.ladder import MEASURED_WASTE, answer_misses_the_cost

    ctx, answer = _answered_context(_short_programs(MEASURED_WASTE + 0.1))
    decision = answer_misses_the_cost(ctx)
    assert decision is not None and decision.verdict == "concluded"
    assert decision.conclusion.rewrite_family == "multi-row-programs"
    assert answer.confidence == 0.425 and answer.evidence["outweighed_by"] == "multi-row-programs"
    # the same grid where the bytes take most of the time: the answer stands
    ctx, answer = _answered_context(_short_programs(MEASURED_WASTE - 0.2))
    assert answer_misses_the_cost(ctx) is None and answer.confidence == 0.85


def test_an_answer_for_another_backends_rewrite_about_a_costlier_symptom_leads_the_cheaper_answers():
    """The lead answer is the one about the costliest symptom asked, even when its branch calls
    for a rewrite this backend has no form of: a cheap symptom's answer is then measured
    against it, not made the lead because it alone names a family."""
    from diagnose.ladder import answer_misses_the_cost

    def context(with_gather: bool):
        gather = Finding(4, "pass-source", "", "", "AxisInfo decides the loaded offsets", 0.85,
                         evidence={"symptom_asked": "scalar-global-loads", "elsewhere": "contiguous-load-gather"})
        ctx, _ = _answered_context(None, gather if with_gather else None)
        cheap = Finding(4, "pass-source", "cuda-int64-index", "int32-indexing", "core.py decides", 0.7,
                        evidence={"symptom_asked": "int64-index-arith"})
        ctx.evidence[3].findings = [cheap] + ctx.evidence[3].findings[1:]
        # an IR symptom of another family, heavier than int64 arithmetic, as heavy as narrow loads
        ctx.evidence[2].findings.append(Finding(3, "ir-symptom", "cuda-strided-fast-axis", "coalesce-contiguous-axis",
                                                "a transposed tile", 0.9, evidence={"weight": 2}))
        return ctx, cheap

    ctx, cheap = context(with_gather=False)
    assert answer_misses_the_cost(ctx) is not None and cheap.confidence == 0.35  # outweighed
    ctx, cheap = context(with_gather=True)
    assert answer_misses_the_cost(ctx) is None and cheap.confidence == 0.7  # the gather answer leads


PROBE = '''import triton, triton.language as tl


@triton.jit
def probe(keys, bits, out, n, k_hash, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    h = tl.load(keys + offs, mask=ok, other=0) * 2654435761
    maybe = ok
    for i in range(k_hash):
        byte = tl.load(bits + ((h >> 3) & 65535){mask})
        maybe = maybe & (((byte >> (h & 7)) & 1) != 0)
        h = h + 40503
    tl.store(out + offs, maybe, mask=ok)
'''


def _probe_cards(mask: str) -> list[str]:
    from diagnose.triage import triage
    return [f.card_id for f in triage(PROBE.replace("{mask}", mask), "k.py", "cuda").findings]


def test_a_predicate_narrowed_by_gathers_it_does_not_mask_is_named_mask_loads_not_results():
    assert "common-mask-after-load" in _probe_cards("")
    # the fix: the gather skips lanes whose answer is known
    assert "common-mask-after-load" not in _probe_cards(", mask=maybe, other=0")
    # through a name computed from the predicate
    assert "common-mask-after-load" not in _probe_cards(", mask=maybe & ok, other=0")


def test_a_predicate_that_gates_the_steps_work_or_is_fed_by_contiguous_loads_is_not_this_idiom():
    from diagnose.triage import triage
    gated = PROBE.replace("{mask}", "").replace(
        "        h = h + 40503\n", "        h = tl.where(maybe, h + 40503, h)\n")
    assert "common-mask-after-load" not in [f.card_id for f in triage(gated, "k.py", "cuda").findings]
    streamed = PROBE.replace("{mask}", "").replace("bits + ((h >> 3) & 65535)", "bits + i * n + offs")
    assert "common-mask-after-load" not in [f.card_id for f in triage(streamed, "k.py", "cuda").findings]


def test_a_running_sum_stored_at_every_step_is_a_serial_prefix_sum():
    from diagnose.triage import triage
    from tests.test_diagnosis_session39 import WALK

    def cards(source):
        return {f.card_id: f.rewrite_family for f in triage(source, "k.py", "cuda").findings}

    assert cards(WALK).get("common-serial-recurrence") == "use-associative-scan"
    # the sum stored once, after the loop, is a reduction, not a scan
    reduced = WALK.replace("        tl.store(out + i, acc)\n", "    tl.store(out, acc)\n")
    assert reduced != WALK
    assert "common-serial-recurrence" not in cards(reduced)
    # a second kernel of the module is read on its own: a first kernel's recurrence does not hide it
    product = WALK.replace("def running(", "def decay(").replace("acc += tl.load(x + i)", "acc = 0.9 * acc + tl.load(x + i)")
    both = product + WALK.split("\n\n\ndef run(")[0].split("@triton.jit", 1)[1].join(["\n@triton.jit", ""])
    lines = {f.location.get("function") for f in triage(both, "k.py", "cuda").findings
             if f.card_id == "common-serial-recurrence"}
    assert lines == {"decay", "running"}


def test_a_walks_share_of_the_time_is_measured_against_every_launchs_traffic(tmp_path):
    from diagnose.profiling.trace import dominant_walks, run_trace, walk_shares
    from tests.test_diagnosis_session26 import _task
    from tests.test_diagnosis_session39 import WALK, WALK_TASK

    task = _task(tmp_path, "walk", WALK_TASK, WALK)
    report = run_trace(task, task / "baseline.py", size="small")
    line = next(i for i, text in enumerate(WALK.splitlines(), 1) if "acc += tl.load" in text)
    shares = walk_shares(report)
    assert set(shares) == {line} and 0.9 <= shares[line] <= 1.0
    assert dominant_walks(report) == {line}


def test_a_walk_claim_outweighs_a_fusion_whose_saved_bytes_are_a_small_part_of_the_time():
    """Weighed in time: a walk measured at 80% of it (a floor, the tracer cut the walk short)
    against a fusion that saves a third of the bytes, which are the other 20%."""
    from diagnose.evidence import TierResult
    from diagnose.ladder import Options, _dominant_walk_claim, make_context
    from diagnose.target import resolve_target
    from tests.test_diagnosis_session23 import KERNEL

    fuse = Finding(1, "pattern", "common-unfused-launches", "fuse-launches", "writes and reads back", 0.75,
                   {"path": str(KERNEL), "line": 40})
    walk = Finding(1, "pattern", "common-serial-recurrence", "use-associative-scan", "a prefix sum", 0.9,
                   {"path": str(KERNEL), "line": 34}, {"walk_share": 0.8, "measured_by_trace": "a walk"})
    loop = Finding(1, "pattern", "cuda-scalar-element-loop", "vectorize-loads", "a scalar loop", 0.9,
                   {"path": str(KERNEL), "line": 31, "end_line": 34}, {"walk_share": 0.8})
    ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
    ctx.evidence = [TierResult(1, "pattern triage", [fuse, loop, walk])]
    ctx.trace = {"launches": [{"kernel": "k", "grid": [1, 1, 1]}], "launch_count": {},
                 "accesses": [{"launch": 0, "active": 1000, "elem_bytes": 4, "execs": [1],
                               "ideal_sectors": 1, "sectors": 1}]}
    fact = Finding(3, "host-code", "common-unfused-launches", "fuse-launches", "the same input twice", 0.8,
                   evidence={"reread": {"bytes": 1320}})
    # the narrower claim (the statement the walk carries) wins the tie with the loop around it
    assert _dominant_walk_claim(ctx, fuse, fact) is walk
    # a fusion that saves nearly all the bytes of a kernel the walk does not dominate stands
    fact.evidence["reread"]["bytes"] = 4000
    walk.evidence["walk_share"] = loop.evidence["walk_share"] = 0.3
    assert _dominant_walk_claim(ctx, fuse, fact) is None
    # without a byte count of the fact, only a walk of nearly all the time (dominant_walk) answers
    assert _dominant_walk_claim(ctx, fuse, None) is None


def test_a_cheap_ir_fact_does_not_answer_alone_when_the_programs_latency_is_the_time():
    from diagnose.evidence import TierResult
    from diagnose.ladder import MEASURED_WASTE, Options, make_context, sufficient_alone
    from diagnose.target import resolve_target
    from tests.test_diagnosis_session23 import KERNEL

    def decide(overhead: float):
        ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
        narrow = Finding(3, "ir-symptom", "cuda-data-dependent-mask", "select-instead-of-data-mask",
                         "4 of 4 global loads are <= 32-bit", 0.9, {"path": str(KERNEL), "line": 17},
                         {"symptom": "scalar-global-loads", "weight": 2})
        ctx.evidence = [TierResult(1, "pattern triage", [_short_programs(overhead)]),
                        TierResult(2, "profiling", []),
                        TierResult(3, "IR attribution", [narrow], sufficient=True, reason="narrow loads")]
        return sufficient_alone(ctx)

    assert decide(MEASURED_WASTE + 0.1).conclusion.rewrite_family == "multi-row-programs"
    assert decide(MEASURED_WASTE - 0.3).conclusion.rewrite_family == "select-instead-of-data-mask"
