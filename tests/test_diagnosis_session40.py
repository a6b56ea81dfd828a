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
