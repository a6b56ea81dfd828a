"""Tier 4, compiler-source escalation, end to end over a real indexed fixture compiler: symptom
-> pass mapping, deciding-branch ranking against decoys, the evidence chain, citation checks
against a real local OpenAI-style HTTP server, and the bad-input sentences."""

from __future__ import annotations

import fnmatch
import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from diagnose.escalation.escalate import (
    Escalation,
    LLMConfig,
    escalate,
    escalation_to_tier_result,
    render_text,
)
from diagnose.escalation.question import EscalationError, UnknownPassError, build_question
from diagnose.escalation.ranking import deciding_lines, focus_term
from diagnose.escalation.symptoms import load_routes
from diagnose.evidence import TierResult
from diagnose.triage import load_cards
from kb.chunk import Chunk
from kb.errors import KBError
from kb.search import KnowledgeBase
from kb.store import Store
from tests.escalate_fixtures.repo import VERSION, index_fixture, line_of

COALESCE = "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp"
AXIS_INFO = "lib/Analysis/AxisInfo.cpp"
MIRROR = Path("/work/.mirror/triton-lang+triton-ascend/repo")


@pytest.fixture(scope="module")
def compiler(tmp_path_factory, embedder):
    """The fixture compiler, indexed once for the module with the real embedder."""
    return index_fixture(tmp_path_factory.mktemp("escalate"), embedder)


def _esc(compiler, symptom: str, **kw) -> Escalation:
    kw.setdefault("backend", "cuda")
    kw.setdefault("kernel_compiler_version", VERSION)
    return escalate(compiler.kb, compiler.registry, symptom=symptom, **kw)


# ------------------------------------------------------------------ symptom -> pass

@pytest.mark.parametrize("symptom, backend, row, pass_arg", [
    ("scalar-global-loads", "cuda", "scalar-global-loads", "tritongpu-coalesce"),
    ("loads still scalar after tritongpu-coalesce", "cuda", "scalar-global-loads",
     "tritongpu-coalesce"),
    ("convert-layout-survives", "cuda", "convert-layout-survives",
     "tritongpu-remove-layout-conversions"),
    ("convert_layout survives tritongpu-remove-layout-conversions", "cuda",
     "convert-layout-survives", "tritongpu-remove-layout-conversions"),
    ("dot-without-wgmma", "cuda", "dot-without-wgmma", "tritongpu-accelerate-matmul"),
    ("tl.dot lowered without warp-group MMA", "cuda", "dot-without-wgmma",
     "tritongpu-accelerate-matmul"),
    ("no-async-copy-after-pipeline", "cuda", "no-async-copy-after-pipeline", "tritongpu-pipeline"),
    ("no async copies after tritongpu-pipeline", "cuda", "no-async-copy-after-pipeline",
     "tritongpu-pipeline"),
    ("discrete-mask-to-select", "ascend", "discrete-mask-to-select",
     "discrete-mask-access-conversion"),
    ("discrete-mask-access-conversion produced scalar loads", "ascend", "discrete-mask-to-select",
     "discrete-mask-access-conversion"),
    ("unstructured-access-fallback", "ascend", "unstructured-access-fallback",
     "triton-to-unstructure"),
    ("triton-to-unstructure fell back to unstructured access", "ascend",
     "unstructured-access-fallback", "triton-to-unstructure"),
])
def test_symptom_maps_to_table_row_and_registry_pass(compiler, symptom, backend, row, pass_arg):
    q = build_question(compiler.registry, symptom=symptom, pass_name=None, backend=backend)
    assert (q.route.id, q.pass_arg) == (row, pass_arg)
    assert pass_arg in q.text  # the question names the pass it questions


@pytest.mark.parametrize("name", [
    "CoalescePass",  # C++ class
    "TritonGPUCoalesce",  # TableGen def
    "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' "
    "operation) //----- //",
    "--tritongpu-coalesce",
])
def test_pass_given_by_class_def_dump_header_or_flag_resolves(compiler, name):
    q = build_question(compiler.registry, symptom="scalar-global-loads", pass_name=name,
                       backend="cuda")
    assert q.pass_arg == "tritongpu-coalesce"


def test_unlisted_symptom_with_pass_gets_a_generic_question_on_that_pass(compiler):
    q = build_question(compiler.registry, symptom="blocked layout has sizePerThread 1",
                       pass_name="tritongpu-coalesce", backend="cuda")
    assert q.route_source == "generic" and q.pass_arg == "tritongpu-coalesce"
    assert "sizePerThread" in q.route.focus


def test_table_passes_and_analysis_paths_exist_in_the_real_compiler():
    """Every pass of the table is defined in a real Passes.td, and every analysis glob matches
    a real file, so the table cannot drift into invented names."""
    if not MIRROR.exists():
        pytest.skip(f"no triton-ascend mirror at {MIRROR}")
    names = subprocess.run(["git", "-C", str(MIRROR), "ls-tree", "-r", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for route in load_routes():
        for arg in route.passes:
            found = subprocess.run(["git", "-C", str(MIRROR), "grep", "-l", f'Pass<"{arg}"',
                                    "HEAD", "--", "*.td"], capture_output=True, text=True)
            assert found.stdout.strip(), f"{route.id}: no Passes.td defines {arg}"
        for analysis in route.analyses:
            for glob in analysis.paths:
                assert any(fnmatch.fnmatch(n, glob) for n in names), f"{route.id}: {glob}"


def test_table_rewrite_families_are_pattern_card_families():
    families = {c.rewrite_family for c in load_cards()}
    used = {r.family for r in load_routes()} | {w.family for r in load_routes() for w in r.rewrites}
    assert not used - families  # a family no card carries would conclude with no card to show


# ------------------------------------------------------------------ ranking

def test_deciding_condition_ranks_first_and_decoys_below(compiler):
    esc = _esc(compiler, "scalar-global-loads", k=10)
    top = esc.passages[0]
    assert (top.path, top.symbol) == (COALESCE, "perThreadVectorWidth")
    assert top.deciding.line == line_of("Coalesce.cpp", "if (divisibilityBytes < elemBytes)")
    assert top.deciding.term and "divisib" in top.deciding.term.lower()
    assert top.permalink.endswith(f"{COALESCE}#L{top.start_line}-L{top.end_line}")
    assert compiler.commit[:12] in top.permalink
    order = [(p.path, p.symbol) for p in esc.passages]
    # Decoys share the words but decide nothing: the logging helper of the same pass and
    # the analysis' printer are retrieved, and ranked below every deciding passage.
    for decoy in [(COALESCE, "traceAccess"), (AXIS_INFO, "AxisInfo::print")]:
        assert decoy in order, f"{decoy} was not retrieved, so ranking was not tested"
        assert order.index(decoy) >= 3
        deciding = [i for i, p in enumerate(esc.passages) if p.deciding and p.deciding.term]
        assert len(deciding) >= 3 and max(deciding) < order.index(decoy)
    # The other pass with a similar name and its own contiguity branch is not an answer.
    assert not any("CoalesceAsyncCopy" in p.path for p in esc.passages)
    assert not any(p.kind == "doc_section" for p in esc.passages[:3])


def test_analysis_passages_are_found_through_the_analysis_globs(compiler):
    esc = _esc(compiler, "scalar-global-loads", k=5)
    axis = [p for p in esc.passages if p.path == AXIS_INFO]
    assert axis and all(p.provenance == "analysis" for p in axis)
    assert any(p.deciding and "getDivisibility" in p.deciding.text for p in axis)


def test_comments_and_logging_never_count_as_deciding_lines():
    text = "\n".join([
        "// lib/X.cpp :: f",
        "// if (contiguity < 4) return failure();",
        '  LDBG("contiguity " << contiguity << " < " << 4);',
        "  unsigned contig = info.getContiguity(0);",
        "  if (contig < 4)",
        "    return failure();",
        "  if (ready) return failure();",
    ])
    chunk = Chunk(text=text, path="lib/X.cpp", start_line=10, end_line=15, kind="function",
                  language="cpp")
    found = deciding_lines(chunk, ["contiguity", "contig"])
    assert found[0].line == 13 and found[0].term == "contig"
    assert "early-return" in found[0].kinds and "comparison" in found[0].kinds
    assert {d.line for d in found} <= {13, 14, 15}  # never the comment (10) or the log (11)
    unfocused = next(d for d in found if d.line == 15)
    assert unfocused.term == "" and unfocused.weight < found[0].weight


@pytest.mark.parametrize("code, term", [
    ("if (info.getContiguity(0) < 4)", "contiguity"),  # a camelCase part counts
    ("if (isConversionLegal(op))", ""),  # 'version' inside 'conversion' does not
    ("if (canRemove(op)) return failure();", ""),  # 'rem' inside 'Remove' does not
    ("unsigned v = std::min(vec, 4u);", "vec"),
])
def test_focus_terms_match_whole_word_parts_only(code, term):
    assert focus_term(code, ["contiguity", "version", "rem", "vec"]) == term


# ------------------------------------------------------------------ chain and rewrite

def test_chain_links_symptom_pass_condition_rewrite_with_evidence(compiler):
    esc = _esc(compiler, "loads still scalar after tritongpu-coalesce")
    assert esc.verdict == "answered"
    steps = {c.step: c for c in esc.chain}
    assert list(steps) == ["symptom", "pass", "condition", "rewrite"]
    assert any("Passes.td:3-11" in e for e in steps["pass"].evidence)
    line = line_of("Coalesce.cpp", "if (divisibilityBytes < elemBytes)")
    assert steps["condition"].claim.startswith(f"{COALESCE}:{line} decides")
    assert esc.rewrite.family == "add-divisibility-hints" and esc.rewrite.basis == "condition"
    assert esc.rewrite.card_id == "cuda-runtime-stride-no-hints"
    assert "tl.multiple_of" in esc.rewrite.hint


def test_pipeline_guard_in_compiler_py_answers_the_unpipelined_loop(compiler):
    esc = _esc(compiler, "no-async-copy-after-pipeline")
    top = esc.passages[0]
    assert top.path == "third_party/nvidia/backend/compiler.py"
    assert top.deciding.text == "if opt.num_stages > 1:" and top.provenance == "pipeline"
    assert esc.rewrite.family == "pipeline-stages"


def test_ascend_discrete_mask_escalates_to_contiguous_load_gather(compiler):
    esc = _esc(compiler, "discrete-mask-access-conversion produced scalar loads",
               backend="ascend", kernel_compiler_version=None)
    assert esc.verdict == "answered"
    assert esc.passages[0].path.endswith("DiscreteMaskAccessConversionPass.cpp")
    assert all(p.backend in ("ascend", "common") for p in esc.passages)
    assert esc.rewrite.family == "contiguous-load-gather"
    assert esc.rewrite.card_id.startswith("ascend-")


def test_tier_result_carries_the_finding_and_round_trips(compiler):
    esc = _esc(compiler, "scalar-global-loads")
    tr = escalation_to_tier_result(esc)
    assert (tr.tier, tr.sufficient) == (4, True)
    f = tr.findings[0]
    assert (f.kind, f.rewrite_family, f.passes) == ("pass-source", "add-divisibility-hints",
                                                    ["tritongpu-coalesce"])
    assert f.location["path"] == COALESCE and f.location["line"] == esc.passages[0].deciding.line
    assert TierResult.from_json(tr.to_json()) == tr
    data = json.loads(json.dumps(esc.to_json()))
    assert data["verdict"] == "answered" and data["passages"][0]["deciding"]["line"] == f.location["line"]
    assert "holds the deciding branch" in render_text(esc)


# ------------------------------------------------------------------ LLM summary over real HTTP

class ScriptedLLM:
    """A real OpenAI-compatible HTTP server on 127.0.0.1 answering from a script."""

    def __init__(self) -> None:
        self.script: list[tuple[str, object]] = []
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep pytest output clean
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, **body})
                what, arg = outer.script.pop(0)
                if what == "sleep":
                    time.sleep(float(arg))
                    what, arg = "reply", "too late"
                if what == "status":
                    self._send(int(arg), {"error": {"message": "scripted failure",
                                                    "type": "server_error"}})
                    return
                self._send(200, {
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": arg}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def llm_server():
    s = ScriptedLLM()
    s.thread.start()
    yield s
    s.server.shutdown()
    s.server.server_close()


def test_llm_citations_are_checked_and_invented_ones_dropped_and_reported(compiler, llm_server):
    line = line_of("Coalesce.cpp", "if (divisibilityBytes < elemBytes)")
    printer = line_of("AxisInfo.cpp", "void AxisInfo::print")
    reply = (f"The width is cut to 1 when the pointer is not divisible by the element size "
             f"({COALESCE}:{line}-{line + 1}). Divisibility of a sum is a gcd "
             f"({AXIS_INFO}:{line_of('AxisInfo.cpp', 'return gcd(lhs.getDivisibility')}). "
             f"The pass also checks cache lines ({COALESCE}:900-910), see lib/Made/Up.cpp:1-5 "
             f"and the printer ({AXIS_INFO}:{printer}-{printer + 2}).")
    llm_server.script.append(("reply", reply))
    esc = _esc(compiler, "scalar-global-loads", k=4,
               llm=LLMConfig(llm_server.base_url, "scripted-model", "test-key", timeout_s=30))
    req = llm_server.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["model"] == "scripted-model"
    assert f"{COALESCE}:{esc.passages[0].start_line}-" in req["messages"][1]["content"]
    kept = {c.text for c in esc.llm.citations}
    assert kept == {f"{COALESCE}:{line}-{line + 1}",
                    f"{AXIS_INFO}:{line_of('AxisInfo.cpp', 'return gcd(lhs.getDivisibility')}-"
                    f"{line_of('AxisInfo.cpp', 'return gcd(lhs.getDivisibility')}"}
    reasons = {c.text: c.reason for c in esc.llm.dropped}
    assert reasons[f"{COALESCE}:900-910"] == "no indexed chunk of this path covers these lines"
    assert reasons["lib/Made/Up.cpp:1-5"] == "no indexed chunk of this path covers these lines"
    assert reasons[f"{AXIS_INFO}:{printer}-{printer + 2}"] == \
        "in the index but not among the retrieved passages"
    assert "900-910" not in esc.llm.text and "Made/Up" not in esc.llm.text
    assert esc.llm.text.count("[unverified citation removed]") == 3
    assert any("3 citation(s)" in n for n in esc.notes)
    assert esc.verdict == "answered"


def test_llm_error_status_leaves_escalation_answered_and_says_why(compiler, llm_server):
    llm_server.script.append(("status", 500))
    esc = _esc(compiler, "scalar-global-loads",
               llm=LLMConfig(llm_server.base_url, "scripted-model", timeout_s=30))
    assert esc.verdict == "answered" and esc.passages
    assert esc.llm.text == "" and esc.llm.citations == []
    assert llm_server.base_url in esc.llm.error and "passages alone" in esc.llm.error
    assert "InternalServerError" in esc.llm.error


def test_llm_timeout_leaves_escalation_answered_and_says_why(compiler, llm_server):
    llm_server.script.append(("sleep", 3))
    esc = _esc(compiler, "scalar-global-loads",
               llm=LLMConfig(llm_server.base_url, "scripted-model", timeout_s=0.5))
    assert esc.verdict == "answered" and esc.llm.text == ""
    assert "did not answer within 0.5 s" in esc.llm.error


def test_llm_config_from_settings_needs_url_and_model():
    class S:
        llm_base_url, llm_model, llm_api_key = "http://127.0.0.1:1/v1", "m", None
    cfg = LLMConfig.from_settings(S())
    assert (cfg.base_url, cfg.model, cfg.api_key) == ("http://127.0.0.1:1/v1", "m", "none")
    S.llm_model = None
    assert LLMConfig.from_settings(S()) is None


# ------------------------------------------------------------------ bad input

def test_stale_index_says_so_and_offers_refresh(compiler):
    esc = _esc(compiler, "scalar-global-loads", kernel_compiler_version="3.2.0")
    assert esc.index.status == "stale" and esc.index.indexed_versions == [VERSION]
    msg = esc.index.message
    assert "3.2.0" in msg and VERSION in msg and "`passwise refresh`" in msg
    assert msg in esc.notes
    assert msg in escalation_to_tier_result(esc).findings[0].evidence_needed
    assert _esc(compiler, "scalar-global-loads", kernel_compiler_version=f"{VERSION}+git1a2b"
                ).index.status == "current"


def test_unknown_pass_lists_close_matches(compiler):
    with pytest.raises(UnknownPassError) as e:
        _esc(compiler, "scalar-global-loads", pass_name="tritongpu-coalese")
    msg = str(e.value)
    assert isinstance(e.value, KBError) and "\n" not in msg
    assert "'tritongpu-coalese'" in msg and "tritongpu-coalesce" in msg
    assert "`passwise passes`" in msg


def test_empty_index_says_to_run_index(tmp_path, embedder, compiler):
    home = tmp_path / "empty"
    kb = KnowledgeBase(Store.open(home, model_slug=embedder.slug), embedder, home)
    with pytest.raises(EscalationError, match=r"empty; build it first with `passwise index`"):
        escalate(kb, compiler.registry, symptom="scalar-global-loads", backend="cuda")


def test_an_answer_no_card_of_the_backend_carries_is_evidence_not_a_conclusion(compiler):
    import dataclasses
    esc = _esc(compiler, "scalar-global-loads")
    assert escalation_to_tier_result(esc).sufficient
    # the same answer for a backend with no card of its family: kept, but it does not conclude
    cardless = dataclasses.replace(esc, rewrite=dataclasses.replace(esc.rewrite, card_id=""))
    tr = escalation_to_tier_result(cardless)
    assert not tr.sufficient and tr.findings[0].rewrite_family == esc.rewrite.family


def test_symptom_without_any_passage_is_no_passage_and_cites_nothing(compiler, llm_server):
    esc = _esc(compiler, "int64-index-arith",
               llm=LLMConfig(llm_server.base_url, "scripted-model", timeout_s=30))
    assert esc.verdict == "no-passage" and esc.passages == []
    assert esc.rewrite.family == "" and llm_server.requests == []
    assert all(not c.evidence for c in esc.chain if c.step == "condition")
    tr = escalation_to_tier_result(esc)
    assert tr.findings == [] and not tr.sufficient and "passwise index" in tr.reason


def test_sentence_that_names_no_symptom_or_pass_is_rejected(compiler):
    with pytest.raises(EscalationError, match="--pass"):
        _esc(compiler, "the kernel is slow")


# ------------------------------------------------------------------ kernel facts pick the clause

# The shape of a multi-clause MMA v3 legality check (written for this test, not copied).
MMA_CHECK = "\n".join([
    "// lib/Analysis/Mma.cpp :: canUseWarpGroupMma",
    "bool canUseWarpGroupMma(DotOp op, int numWarps) {",
    "  auto retShapePerCTA = getShapePerCTA(op.getType());",
    "  auto rank = retShapePerCTA.size();",
    "  if (rank == 3)",
    "    return false;",
    "  if (!(numWarps % 4 == 0 && retShapePerCTA[rank - 2] % 64 == 0))",
    "    return false;",
    "  return true;",
    "}",
])


def _mma_passages():
    from diagnose.escalation.ranking import Candidate, rank
    chunk = Chunk(text=MMA_CHECK, path="lib/Analysis/Mma.cpp", start_line=1, end_line=9,
                  kind="function", language="cpp")
    route = next(r for r in load_routes() if r.id == "dot-without-wgmma")
    return route, rank([Candidate("mma", chunk, fused=1.0, provenance="analysis")], route.focus)


@pytest.mark.parametrize("facts, family, line", [
    ({"dot_rank": 3, "num_warps": 4, "dot_m": 64, "dot_n": 64}, "layout-friendly-shapes", 4),
    ({"dot_rank": 2, "num_warps": 2, "dot_m": 64, "dot_n": 64}, "num-warps-tuning", 6),
    ({"dot_rank": 2, "num_warps": 4, "dot_m": 16, "dot_n": 128}, "block-size-tuning", 6),
])
def test_kernel_facts_pick_the_family_of_the_clause_the_kernel_fails(facts, family, line):
    from diagnose.escalation.rewrite import choose_rewrite
    route, passages = _mma_passages()
    rw = choose_rewrite(route, passages, "cuda", "tritongpu-accelerate-matmul", facts=facts)
    assert rw.family == family and rw.where == f"lib/Analysis/Mma.cpp:{line}"
    assert "fails" in rw.kernel_check


def test_without_facts_the_best_deciding_line_picks_the_family():
    from diagnose.escalation.rewrite import choose_rewrite
    route, passages = _mma_passages()
    rw = choose_rewrite(route, passages, "cuda", "tritongpu-accelerate-matmul")
    assert rw.basis == "condition" and rw.kernel_check == ""
    best = passages[0].deciding
    assert rw.where == f"lib/Analysis/Mma.cpp:{best.line}"


def test_a_clause_the_kernel_satisfies_is_not_blamed():
    from diagnose.escalation.rewrite import choose_rewrite
    route, passages = _mma_passages()
    ok = {"dot_rank": 2, "num_warps": 4, "dot_m": 64, "dot_n": 64}
    rw = choose_rewrite(route, passages, "cuda", "tritongpu-accelerate-matmul", facts=ok)
    # no clause's own rule (one with `requires`) is chosen: only the route's generic one
    assert rw.kernel_check == ""
    assert all(rw.hint != rule.hint for rule in route.rewrites if rule.requires)


@pytest.mark.parametrize("condition, facts, expected", [
    ("num_warps % 4 == 0", {"num_warps": 8}, True),
    ("num_warps % 4 == 0", {"num_warps": 2}, False),
    ("dot_m % 64 == 0 and dot_n % 16 == 0", {"dot_m": 64, "dot_n": 8}, False),
    ("not unaligned_mask_bounds", {"unaligned_mask_bounds": ["n"]}, False),
    ("num_warps % 4 == 0", {"dot_rank": 2}, None),  # a missing fact: not judged
    ("", {"num_warps": 2}, None),
])
def test_requires_conditions_over_kernel_facts(condition, facts, expected):
    from diagnose.escalation.facts import holds
    assert holds(condition, facts) is expected


def test_kernel_facts_from_ttir_read_dot_shape_and_unaligned_mask_bound():
    from diagnose.escalation.facts import facts_from_ttir
    ttir = "\n".join([
        "module {",
        "  tt.func public @k(%x_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(#loc), "
        "%n: i32 loc(#loc), %s: i32 loc(#loc), %m: i32 {tt.divisibility = 16 : i32} loc(#loc)) {",
        "    %b = tt.splat %n : i32 -> tensor<64xi32> loc(#loc1)",
        "    %mask = arith.cmpi slt, %offs, %b : tensor<64xi32> loc(#loc1)",
        "    %o = arith.muli %i, %s : i32 loc(#loc2)",
        "    %acc = tt.dot %a, %bb, %c, inputPrecision = tf32 : tensor<2x16x32xf16> * "
        "tensor<2x32x64xf16> -> tensor<2x16x64xf32> loc(#loc3)",
        "  }",
        "}",
    ])
    facts = facts_from_ttir(ttir)
    assert facts["unaligned_int_args"] == ["n", "s"]
    assert facts["unaligned_mask_bounds"] == ["n"] and facts["unaligned_strides"] == ["s"]
    assert (facts["dot_rank"], facts["dot_m"], facts["dot_n"], facts["dot_k"]) == (3, 16, 64, 32)
    assert facts["dot_a_bits"] == 16 and facts["dot_tf32"] and not facts["dot_a_float32"]


def test_offset_facts_follow_loaded_and_divided_values_into_the_accessed_pointers():
    from diagnose.escalation.facts import offset_facts
    ttir = "\n".join([
        "    %id = tt.load %id_ptr : tensor<64x!tt.ptr<i32>> loc(#loc1)",
        "    %row = arith.muli %id, %stride : tensor<64xi32> loc(#loc2)",
        "    %p = tt.addptr %table, %row : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc(#loc3)",
        "    %v = tt.load %p : tensor<64x!tt.ptr<f32>> loc(#loc3)",
        "    %r = arith.divsi %offs, %n : tensor<64xi32> loc(#loc4)",
        "    %q = tt.addptr %x, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc(#loc5)",
        "    tt.store %q, %v : tensor<64x!tt.ptr<f32>> loc(#loc5)",
        "    %s = tt.addptr %x, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc(#loc6)",
    ])
    facts = offset_facts(ttir)
    assert (facts["loaded_offsets"], facts["div_rem_offsets"]) == (1, 1)
    assert facts["load_offset_ops"] == {"arith.muli": 1, "tt.addptr": 1, "tt.load": 1}
    assert facts["store_offset_ops"] == {"arith.divsi": 1, "tt.addptr": 1}
    assert facts["offset_ops"]["tt.load"] == 1 and facts["offset_ops"]["tt.addptr"] == 2


def test_scalar_div_rem_splatted_into_offsets_is_not_a_div_rem_offset():
    """`pos = pid % S` is scalar: offset analyses keep scalar arithmetic structured, so only
    tensor-typed ops on the pointer chain count (the tl.where partner column is the construct)."""
    from diagnose.escalation.facts import offset_facts
    ttir = "\n".join([
        "    %pos = arith.remsi %tok, %S : i32 loc(#loc1)",
        "    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32> loc(#loc2)",
        "    %h = tt.splat %HALF : i32 -> tensor<64xi32> loc(#loc3)",
        "    %first = arith.cmpi slt, %cols, %h : tensor<64xi32> loc(#loc3)",
        "    %hi = arith.addi %cols, %h : tensor<64xi32> loc(#loc3)",
        "    %partner = arith.select %first, %hi, %cols : tensor<64xi1>, tensor<64xi32> loc(#loc4)",
        "    %base = arith.muli %pos, %HALF : i32 loc(#loc5)",
        "    %b = tt.addptr %x_ptr, %base : !tt.ptr<f32>, i32 loc(#loc5)",
        "    %bs = tt.splat %b : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>> loc(#loc5)",
        "    %p = tt.addptr %bs, %partner : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc(#loc6)",
        "    %v = tt.load %p : tensor<64x!tt.ptr<f32>> loc(#loc6)",
    ])
    facts = offset_facts(ttir)
    assert facts["div_rem_offsets"] == 0 and "arith.remsi" not in facts["load_offset_ops"]
    assert facts["load_offset_ops"]["arith.select"] == 1


def test_load_mask_bounds_are_the_unaligned_arguments_a_load_mask_compares_against():
    from diagnose.escalation.facts import facts_from_ttir
    ttir = "\n".join([
        "  tt.func public @k(%x_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %m: i32) {",
        "    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>",
        "    %bn = tt.splat %n : i32 -> tensor<64xi32>",
        "    %bm = tt.splat %m : i32 -> tensor<64xi32>",
        "    %ln = arith.cmpi slt, %offs, %bn : tensor<64xi32>",
        "    %sm = arith.cmpi slt, %offs, %bm : tensor<64xi32>",
        "    %xs = tt.splat %x_ptr : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>",
        "    %p = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f16>>, tensor<64xi32>",
        "    %v = tt.load %p, %ln : tensor<64x!tt.ptr<f16>>",
        "    tt.store %p, %v, %sm : tensor<64x!tt.ptr<f16>>",
    ])
    facts = facts_from_ttir(ttir)
    assert facts["unaligned_mask_bounds"] == ["n", "m"]
    assert facts["load_mask_bounds"] == ["n"]  # the store's bound does not limit the load


def test_dot_operands_carried_by_the_loop_are_counted():
    from diagnose.escalation.facts import loop_facts
    body = ["    %r:3 = scf.for %k = %c32 to %K step %c32 iter_args(%acc_1 = %acc, %a_1 = %a0, "
            "%b_1 = %b0) -> (tensor<64x64xf32>, tensor<64x32xf16>, tensor<32x64xf16>)  : i32 {",
            "      %a_n = tt.load %pa : tensor<64x32x!tt.ptr<f16>>",
            "      %d = tt.dot %{A}, %{B}, %acc_1, inputPrecision = tf32 : tensor<64x32xf16> * "
            "tensor<32x64xf16> -> tensor<64x64xf32>",
            "      scf.yield %d, %a_n, %b_n : tensor<64x64xf32>, tensor<64x32xf16>, tensor<32x64xf16>",
            "    }"]
    carried = "\n".join(body).replace("{A}", "a_1").replace("{B}", "b_1")
    in_body = "\n".join(body).replace("{A}", "a_n").replace("{B}", "b_n")
    assert loop_facts(carried) == {"dot_loop_carried_operands": 2}
    assert loop_facts(in_body) == {"dot_loop_carried_operands": 0}


def test_callees_of_the_deciding_line_are_followed_not_casts_or_the_passage_itself():
    from diagnose.escalation.escalate import callees
    from diagnose.escalation.ranking import Candidate, rank
    text = "\n".join(["// lib/X.cpp :: pickVersion", "int pickVersion(DotOp op) {",
                      "  if (supportMMA(op, 3) && !failed(verifyShape(op)))", "    return 3;",
                      "  if (pickVersion(dyn_cast<DotOp>(op))) return 2;", "}"])
    chunk = Chunk(text=text, path="lib/X.cpp", start_line=1, end_line=5, kind="function",
                  language="cpp", symbol="pickVersion")
    passages = rank([Candidate("x", chunk, fused=1.0, provenance="impl")], ["supportMMA", "Shape"])
    assert callees(passages) == ["supportMMA", "verifyShape"]


# ------------------------------------------------------------------ kernel questions (facts -> handler)

DISPATCH = "\n".join([
    "// lib/Offsets.cpp :: parseArithOp",
    "void parseArithOp(Operation *op, OffsetMap &m) {",
    "  if (auto addIOp = dyn_cast<arith::AddIOp>(op)) {",
    "    parseAddI(addIOp, m);",
    "  } else if (auto remSIOp = dyn_cast<arith::RemSIOp>(op)) {",
    "    parseBinaryOp(remSIOp, m);",
    "  } else if (auto mulIOp = dyn_cast<arith::MulIOp>(op)) {",
    "    parseMulI(mulIOp, m);",
    "  }",
    "}",
])


def test_handler_names_follow_the_dispatch_on_the_op_not_casts_or_other_branches():
    from diagnose.escalation.handlers import handler_names
    chunk = Chunk(text=DISPATCH, path="lib/Offsets.cpp", start_line=1, end_line=9,
                  kind="function", language="cpp", symbol="parseArithOp")
    assert handler_names(chunk, ["RemSIOp", "DivSIOp"]) == ["parseBinaryOp"]
    assert handler_names(chunk, ["LoadOp"]) == []
    ctor = Chunk(text="// lib/A.cpp :: AxisInfoAnalysis\n  visitors.append<AddOpVisitor<arith::AddIOp>>();\n"
                      "  visitors.append<CmpOpAxisInfoVisitor<arith::CmpIOp>>();",
                 path="lib/A.cpp", start_line=1, end_line=2, kind="method", language="cpp",
                 symbol="AxisInfoAnalysis::AxisInfoAnalysis")
    assert handler_names(ctor, ["CmpIOp"]) == ["CmpOpAxisInfoVisitor"]


@pytest.mark.parametrize("facts, asked", [
    ({"offset_ops": {"arith.remsi": 3, "tt.addptr": 3}}, ["offset-analysis-div-rem"]),
    ({"offset_ops": {"tt.load": 2}}, ["offset-analysis-loaded"]),
    ({"offset_ops": {"arith.select": 1, "arith.divsi": 1}},
     ["offset-analysis-div-rem", "offset-analysis-select"]),
    ({"offset_ops": {"arith.addi": 2, "tt.addptr": 2}}, []),
    ({"num_warps": 4}, []),  # the facts do not say: nothing is asked
    (None, []),
])
def test_kernel_questions_are_asked_only_when_the_facts_show_the_construct(compiler, facts, asked):
    q = build_question(compiler.registry, symptom="unstructured-access-fallback", pass_name=None,
                       backend="ascend", facts=facts)
    assert [k.name for k in q.kernel] == asked
    planned = {s.name.split(":")[1] for s in q.searches if s.provenance == "kernel"}
    assert planned == set(asked)
    assert ("The kernel facts show" in q.text) == bool(asked)


def test_a_call_named_by_marks_decides_only_when_a_kernel_question_names_it():
    chunk = Chunk(text="// lib/O.cpp :: parseLoad\nvoid parseLoad(LoadOp op) {\n"
                       "  offsetMap[dst].setUnstructured(rank);\n}",
                  path="lib/O.cpp", start_line=1, end_line=3, kind="function", language="cpp")
    assert deciding_lines(chunk, ["Unstructured"]) == []
    (line,) = deciding_lines(chunk, ["Unstructured"], marks=["setUnstructured"])
    assert (line.line, line.kinds, line.term) == (2, ["marks"], "Unstructured")


def test_div_rem_offsets_lead_to_the_offset_analysis_handler_and_avoid_div_mod(compiler):
    esc = _esc(compiler, "unstructured-access-fallback", backend="ascend",
               kernel_facts={"offset_ops": {"arith.remsi": 2, "tt.addptr": 2}})
    top = esc.passages[0]
    assert top.path.endswith("OffsetAnalysis.cpp") and top.symbol == "parseBinaryOp"
    assert top.provenance == "handler" and "handler:offset-analysis-div-rem:parseBinaryOp" in top.found_by
    assert esc.rewrite.family == "avoid-div-mod-index"
    assert "offset_ops=" in esc.rewrite.kernel_check and "parseBinaryOp" in esc.rewrite.kernel_check


def test_loaded_offsets_lead_to_parse_load_and_a_contiguous_gather(compiler):
    esc = _esc(compiler, "unstructured-access-fallback", backend="ascend",
               kernel_facts={"offset_ops": {"tt.load": 1, "tt.addptr": 1}})
    assert esc.passages[0].symbol == "parseLoad" and esc.passages[0].provenance == "handler"
    assert esc.passages[0].deciding.kinds == ["marks"]
    assert esc.rewrite.family == "contiguous-load-gather" and "parseLoad" in esc.rewrite.kernel_check


def test_without_facts_no_handler_is_followed(compiler):
    esc = _esc(compiler, "unstructured-access-fallback", backend="ascend")
    assert all(p.provenance != "handler" for p in esc.passages)
    assert esc.rewrite.kernel_check == ""


def test_a_deciding_handler_of_the_mask_compare_calls_for_even_k():
    from diagnose.escalation.ranking import Candidate, rank
    from diagnose.escalation.rewrite import choose_rewrite
    route = next(r for r in load_routes() if r.id == "scalar-global-loads")
    kernel = [k for k in route.kernel if k.name == "unaligned-mask-bound"]
    cmp_text = "\n".join(["// lib/A.cpp :: CmpOpAxisInfoVisitor::getAxisInfo",
                          "  constHint = std::max(constHint, gcd(lhs.getContiguity(d), rhs.getDivisibility(d)));"])
    align_text = "\n".join(["// lib/A.cpp :: getAlignment",
                            "  unsigned alignment = std::min(maxMultiple, maxContig);"])
    cmp_ = Candidate("cmp", Chunk(text=cmp_text, path="lib/A.cpp", start_line=10, end_line=10,
                                  kind="method", language="cpp"), fused=0.5)
    cmp_.add("handler:unaligned-mask-bound:CmpOpAxisInfoVisitor", "handler", 0.8, 0.5)
    align = Candidate("al", Chunk(text=align_text, path="lib/A.cpp", start_line=50, end_line=50,
                                  kind="method", language="cpp"), fused=1.0, provenance="analysis")
    passages = rank([align, cmp_], route.focus)
    facts = {"unaligned_mask_bounds": ["n"], "unaligned_strides": []}
    rw = choose_rewrite(route, passages, "cuda", "tritongpu-coalesce", facts=facts, kernel=kernel)
    assert passages[0].id == "cmp"  # the handler outranks the better-retrieved pointer clamp
    assert rw.family == "even-k-specialization" and rw.where == "lib/A.cpp:10"
    assert "CmpOpAxisInfoVisitor handles CmpIOp" in rw.kernel_check


def test_a_select_on_the_offsets_leads_to_parse_select_and_a_contiguous_gather_on_ascend(compiler):
    esc = _esc(compiler, "unstructured-access-fallback", backend="ascend",
               kernel_facts={"offset_ops": {"arith.select": 2, "tt.addptr": 2}})
    top = esc.passages[0]
    assert top.symbol == "parseSelect" and top.provenance == "handler"
    assert "handler:offset-analysis-select:parseSelect" in top.found_by
    assert esc.rewrite.family == "contiguous-load-gather" and "parseSelect" in esc.rewrite.kernel_check


@pytest.mark.parametrize("ops, backend, asked, family", [
    ({"arith.minsi": 1}, "cuda", "axis-info-clamp", "vectorize-loads"),
    ({"arith.select": 1}, "cuda", "axis-info-select", "vectorize-loads"),
    ({"arith.remui": 1}, "cuda", "axis-info-div-rem", "avoid-div-mod-index"),
])
def test_offset_constructs_of_a_load_become_kernel_questions_with_their_family(ops, backend, asked, family):
    from diagnose.escalation.question import kernel_questions
    route = next(r for r in load_routes() if r.id == "scalar-global-loads")
    (kq,) = kernel_questions(route, {"load_offset_ops": ops, "store_offset_ops": {}}, backend)
    assert (kq.name, kq.family) == (asked, family)
    # the store's offsets do not answer for a scalar *load*
    assert kernel_questions(route, {"load_offset_ops": {}, "store_offset_ops": ops}, backend) == []


def test_select_and_clamp_families_differ_by_backend_from_the_construct_table():
    from diagnose.escalation.symptoms import load_constructs
    table = load_constructs()
    assert table["select"].family_for("ascend") == "contiguous-load-gather"
    assert table["select"].family_for("cuda") == "vectorize-loads"
    assert table["loaded"].family_for("cuda") == "contiguous-load-gather"


def test_a_branch_on_the_op_that_calls_no_handler_is_handled_by_its_own_function():
    from diagnose.escalation.handlers import dispatch_sites
    walk = Chunk(text="\n".join([
        "// lib/P/AssignLatencies.cpp :: loadOpsToIndirectionLevel",
        "      for (Value operand : getNestedOperands(op)) {",
        "        if (isa<mlir::triton::DotOpInterface>(op)) {",
        "          if (operand == op->getOperand(2))",
        "            continue;",
        "        }",
        "        Operation *defOp = operand.getDefiningOp();",
        "        if (defOp && defOp->getBlock() == op->getBlock())",
        "          dfs(defOp, finalUser, distance);"]),
        path="lib/P/AssignLatencies.cpp", start_line=1, end_line=8, kind="function",
        language="cpp", symbol="loadOpsToIndirectionLevel")
    assert dispatch_sites(walk, ["DotOpInterface"]) == ([], True)
    maxmin = Chunk(text="// lib/A.cpp :: MaxMinOpAxisInfoVisitor::getAxisInfo\n"
                        "    } else if constexpr (std::is_same_v<OpTy, arith::MinSIOp> ||",
                   path="lib/A.cpp", start_line=1, end_line=1, kind="method", language="cpp",
                   symbol="MaxMinOpAxisInfoVisitor::getAxisInfo")
    assert dispatch_sites(maxmin, ["MinSIOp"]) == ([], True)
    chunk = Chunk(text=DISPATCH, path="lib/Offsets.cpp", start_line=1, end_line=9,
                  kind="function", language="cpp", symbol="parseArithOp")
    assert dispatch_sites(chunk, ["RemSIOp"]) == (["parseBinaryOp"], False)


def _handler_first(route_id, question, handler_text, handler_found_by, facts, backend="cuda"):
    from diagnose.escalation.question import kernel_questions
    from diagnose.escalation.ranking import Candidate, rank
    from diagnose.escalation.rewrite import choose_rewrite
    route = next(r for r in load_routes() if r.id == route_id)
    kernel = [k for k in kernel_questions(route, facts, backend) if k.name == question]
    handler = Candidate("h", Chunk(text=handler_text, path="lib/H.cpp", start_line=10, end_line=11,
                                   kind="method", language="cpp"), fused=0.5)
    handler.add(handler_found_by, "handler", 0.8, 0.0)
    generic = Candidate("g", Chunk(text="// lib/A.cpp :: getAlignment\n"
                                        "  unsigned alignment = std::min(maxMultiple, maxContig);",
                                   path="lib/A.cpp", start_line=50, end_line=50, kind="method",
                                   language="cpp"), fused=1.0, provenance="analysis")
    focus = list(dict.fromkeys([*route.focus, *(t for k in kernel for t in k.focus)]))
    passages = rank([generic, handler], focus)
    return passages, choose_rewrite(route, passages, backend, route.passes[0], facts=facts, kernel=kernel)


def test_a_deciding_clamp_visitor_outranks_the_generic_alignment_and_calls_for_vectorize_loads():
    facts = {"load_offset_ops": {"arith.minsi": 1, "tt.addptr": 1}, "load_mask_bounds": [],
             "unaligned_mask_bounds": [], "unaligned_strides": []}
    text = ("// lib/H.cpp :: MaxMinOpAxisInfoVisitor::getAxisInfo\n"
            "        contiguity.push_back(gcd(lhsInfo.getContiguity(d), rhsInfo.getContiguity(d)));")
    passages, rw = _handler_first("scalar-global-loads", "axis-info-clamp", text,
                                  "handler:axis-info-clamp:MaxMinOpAxisInfoVisitor", facts)
    assert passages[0].id == "h"
    assert rw.family == "vectorize-loads" and "MaxMinOpAxisInfoVisitor handles" in rw.kernel_check


def test_loop_carried_dot_operands_ask_about_the_latency_walk_and_call_for_pipeline_stages():
    facts = {"dot_loop_carried_operands": 2, "num_stages": 3}
    text = ("// lib/H.cpp :: loadOpsToIndirectionLevel\n"
            "          if (defOp && defOp->getBlock() == op->getBlock()) {")
    passages, rw = _handler_first("no-async-copy-after-pipeline", "loop-carried-dot-operands", text,
                                  "handler:loop-carried-dot-operands:loadOpsToIndirectionLevel", facts)
    assert passages[0].id == "h" and passages[0].deciding.term in ("getBlock", "getDefiningOp")
    assert rw.family == "pipeline-stages" and "dot_loop_carried_operands=2" in rw.kernel_check


def test_a_stage_that_is_no_registered_pass_is_asked_through_the_symptoms_row(compiler):
    """IR symptoms found in the frontend carry a stage name (ast-to-ttir) that no pass of the
    registry has: tier 4 asks the symptom's own row instead of refusing the whole tier."""
    from diagnose.escalation.tier import escalate_symptoms

    result, records = escalate_symptoms(lambda: (compiler.kb, compiler.registry),
                                        [("scalar-global-loads", "ast-to-ttir", "")], "cuda", VERSION)
    assert not result.skipped and records
    assert "No pass named" not in result.reason
    assert any(f.rewrite_family for f in result.findings)
