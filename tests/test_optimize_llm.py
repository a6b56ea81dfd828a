"""The LLM proposer through the `openai` client against a real local HTTP server that speaks the
chat-completions protocol with scripted replies: malformed and truncated replies are retried and
recorded with their tokens, a good one becomes the candidate, and hostile code is refused by the
runner's gate (never run outside its child)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from diagnose.executors import LocalExecutor
from diagnose.optimize.loop import Loop
from diagnose.optimize.setup import new_run
from diagnose.proposers import Request
from diagnose.proposers.llm import LLMSettings, extract_kernel, propose

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "kernels" / "add" / "baseline.py").read_text().replace("BLOCK=1024)", "BLOCK=1024, num_warps=8)")
HOSTILE = '''"""Looks like a kernel; computes with torch and pokes at the host."""
import os
import torch
import triton


def run(x, y):
    os.system("touch /tmp/passwise-llm-pwned")
    return torch.add(x, y)
'''


class ScriptedServer:
    """POST /v1/chat/completions answers the next scripted (content, finish_reason) in order."""

    def __init__(self, replies: list[tuple[str, str]]) -> None:
        self.replies, self.requests = list(replies), []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body,
                                       "auth": self.headers.get("Authorization")})
                content, finish = outer.replies.pop(0)
                reply = {"id": f"cmpl-{len(outer.requests)}", "object": "chat.completion", "created": 0,
                         "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": finish,
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": 100 + len(outer.requests), "completion_tokens": len(content) // 4,
                                   "total_tokens": 100 + len(outer.requests) + len(content) // 4}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()


@pytest.fixture
def server(request):
    srv = ScriptedServer(request.param)
    yield srv
    srv.close()


def _request() -> Request:
    diagnosis = {"verdict": "concluded", "reason": "tier 3 confirms", "tiers": [], "tried": ["tier 1: ..."],
                 "conclusion": {"rewrite_family": "num-warps-tuning", "card_id": "cuda-too-few-warps",
                                "explanation": "one warp per row leaves the SM idle", "supporting": [],
                                "hotspot": {"kernel": "add_kernel", "path": "x.py", "line": 7, "pass_arg": ""}}}
    passages = [{"path": "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp", "start_line": 10, "end_line": 40,
                 "repo": "triton-lang/triton", "symbol": "CoalescePass", "permalink": ""}]
    return Request("add", "META = {}", (ROOT / "kernels/add/baseline.py").read_text(), diagnosis, passages,
                   "num-warps-tuning")


def _cfg(url: str) -> LLMSettings:
    return LLMSettings(url, "scripted-model", api_key="sk-test", timeout_s=10)


@pytest.mark.parametrize("server", [[
    ("I would raise the warps.", "stop"),                                   # malformed: no code
    ("```python\n" + GOOD[: len(GOOD) // 2], "length"),                     # truncated
    ("```python\n" + GOOD + "```\nRaised num_warps to 8.", "stop"),         # good
]], indirect=True)
def test_malformed_and_truncated_replies_are_retried_and_recorded(server):
    p = propose(_request(), _cfg(server.url))
    assert [a["outcome"] for a in p.attempts] == ["malformed", "truncated", "ok"]
    assert p.attempts[0]["detail"] == "the reply holds no ```python block with a kernel file"
    assert p.attempts[1]["finish_reason"] == "length"
    assert p.tokens["prompt"] == 101 + 102 + 103
    assert p.tokens["total"] == p.tokens["prompt"] + p.tokens["completion"] > 303
    [cand] = p.candidates
    assert cand.source == GOOD and cand.description == "Raised num_warps to 8."
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer sk-test"
    prompt = first["body"]["messages"][1]["content"]
    for needle in ("num-warps-tuning", "one warp per row", "Coalesce.cpp:10-40", "def add_kernel", "META = {}"):
        assert needle in prompt
    # each retry tells the model what was wrong with its last reply
    assert "cannot be used: the reply was cut off" in server.requests[2]["body"]["messages"][-1]["content"]


@pytest.mark.parametrize("server", [[("no code", "stop")] * 3], indirect=True)
def test_attempts_run_out_with_a_reason(server):
    p = propose(_request(), _cfg(server.url))
    assert p.candidates == [] and len(p.attempts) == 3
    assert p.reason.startswith("no usable kernel after 3 attempt(s)")


def test_unreachable_endpoint_is_recorded_not_raised():
    p = propose(_request(), LLMSettings("http://127.0.0.1:9/v1", "m", timeout_s=2))
    assert p.attempts[0]["outcome"] == "error" and p.candidates == []


def test_extract_kernel_rejects_code_that_does_not_parse():
    code, why = extract_kernel("```python\ndef run(:\n```")
    assert code is None and why.startswith("the code does not parse")


@pytest.mark.slow
@pytest.mark.parametrize("server", [[("```python\n" + HOSTILE + "```", "stop")]], indirect=True)
def test_hostile_reply_is_refused_by_the_gate(server, tmp_path):
    marker = Path("/tmp/passwise-llm-pwned")
    marker.unlink(missing_ok=True)
    rec = new_run(tmp_path, "add", None, backend="cuda", device="cpu", proposer="llm",
                  executor="local", rounds=1, size=None, repeats=1,
                  llm={"base_url": server.url, "model": "scripted-model"})
    concluded = {"verdict": "concluded", "reason": "test", "tiers": [], "escalations": [],
                 "conclusion": {"rewrite_family": "num-warps-tuning", "card_id": "", "explanation": "e",
                                "supporting": [], "citations": []}}
    summary = Loop(rec, lambda kernel, bench: concluded, lambda req: propose(req, _cfg(server.url)),
                   LocalExecutor(), progress=lambda line: None).run()
    rd = rec.rounds()[1]
    verify = rd.runner_answer("verify-00")
    assert verify["verdict"] == "torch_fallback"
    assert rd.read("verdict.json")["verdict"] == "rejected" and "torch_fallback" in rd.read("verdict.json")["reason"]
    assert not marker.exists()  # refused before anything of it ran
    assert summary["tokens"]["total"] > 0 and summary["best_round"] == 0
