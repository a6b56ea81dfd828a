"""The optimize loop: each round diagnoses the parent, asks the proposer for one rewrite,
verifies and times the candidates through an executor, and accepts one only when it is correct
and faster beyond the noise (docs/runs.md). Every step leaves a file; resume reads them back."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diagnose.executors import Pending, RunnerCall, passed
from diagnose.proposers import Proposal, Request

from .noise import MIN_GAIN, RatioBound, Timing, ratio_bound
from .runs import RoundDir, RunRecord, now, read_json, sha256, unified_diff

Diagnoser = Callable[[Path, Path | None], dict]       # (kernel file, parent bench JSON) -> Diagnosis JSON
Proposer = Callable[[Request], Proposal]
Progress = Callable[[str], None]


def stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass
class Loop:
    """What a run needs besides its record: how to diagnose, propose and execute."""

    record: RunRecord
    diagnose: Diagnoser
    propose: Proposer
    executor: Any
    progress: Progress = stderr_progress
    timeout_s: float = 300.0
    # With a queue executor, round 1 is proposed while round 0 waits for the device (its diagnosis
    # then has no tier-2 timings), so one device session serves both.
    speculate: bool = False
    _done: dict[str, dict] = field(default_factory=dict)

    @property
    def s(self) -> dict:
        return self.record.settings

    @property
    def task_dir(self) -> Path:
        return Path(self.s["task_path"])

    # ------------------------------------------------------------ the run
    def run(self) -> dict:
        """Rounds until --rounds, a stop, or a wait for queued device calls; returns summary.json."""
        status, reason = "finished", f"{self.s['rounds']} rounds done"
        try:
            rd = self._zero_or_speculate()
            if rd.verdict != "baseline":
                status, reason = "stopped", rd.read("verdict.json")["reason"]
            else:
                status, reason = self._rounds()
        except Pending as wait:
            status, reason = "pending", (f"{len(wait.keys)} runner calls wait in {wait.queue}; "
                                         f"run them on the device, then resume {self.record.run_id}")
        summary = self._summary(status, reason)
        self.record.write_derived(summary)
        self.progress(f"[{self.s['target']}] {status}: {reason}; best round "
                      f"{summary['best_round']} ({_x(summary['best_vs_input'])} vs input)")
        return summary

    def _rounds(self) -> tuple[str, str]:
        for number in range(1, self.s["rounds"] + 1):
            rd = self._round(number)
            verdict = rd.read("verdict.json")
            if verdict["verdict"] in ("inconclusive", "no_proposal"):
                return "stopped", f"round {number} {verdict['verdict']}: {verdict['reason']}"
        return "finished", f"{self.s['rounds']} rounds done"

    def _zero_or_speculate(self) -> RoundDir:
        try:
            return self._round_zero()
        except Pending as wait:
            if not self.speculate or self.s["rounds"] < 1:
                raise
            try:
                self._round(1, speculative=True)
            except Pending as more:
                raise Pending(wait.queue, wait.keys + more.keys) from None
            raise

    # ------------------------------------------------------------ round 0
    def _round_zero(self) -> RoundDir:
        rd = self.record.new_round(0)
        if rd.complete:
            return rd
        if not rd.has("round.json"):
            rd.write("round.json", {"round": 0, "parent": None, "parent_sha256": None, "started": now()})
        if not rd.has("kernel.py"):
            rd.write("kernel.py", self.record.input_text)
        kernel = rd.path / "kernel.py"
        calls = [self._call(rd, "verify-kernel", "verify", kernel, order=0)]
        calls += [self._call(rd, f"bench-kernel-r{r}", "bench", kernel, after="verify-kernel",
                             order=1 + r, compile_=True, tag=f"{self.record.run_id}/0/{r}")
                  for r in range(self.s["noise"]["repeats"])]
        answers = self._execute(rd, calls)
        v = answers.get("verify-kernel") or {}
        ms = [_timing(answers.get(f"bench-kernel-r{r}"), self.s["size"]) for r in range(self.s["noise"]["repeats"])]
        ms = [t for t in ms if t]
        rd.write("timings.json", {**self._timing_head(answers), "parent_ms": [t.median_ms for t in ms],
                                  "compile_ms": _compile_ms(answers.get("bench-kernel-r0"), self.s["size"]),
                                  "candidates": {}, "best": None})
        if not passed(v):
            why = v.get("cause") or v.get("error") or "no verify answer"
            return self._verdict(rd, "rejected", f"the input kernel does not verify ({v.get('verdict', 'error')}): {why}")
        return self._verdict(rd, "baseline", "the input kernel, verified and timed",
                             kernel_ms=_mean([t.median_ms for t in ms]))

    # ------------------------------------------------------------ round k
    def _round(self, number: int, speculative: bool = False) -> RoundDir:
        rd = self.record.new_round(number)
        if rd.complete:
            return rd
        parent = self._parent(number)
        if not rd.has("round.json"):
            rd.write("round.json", {"round": number, "parent": parent.number,
                                    "parent_sha256": sha256(parent.text("kernel.py")), "started": now()})
        diagnosis = self._diagnosis(rd, parent, keep_inconclusive=not speculative)
        if diagnosis is None:
            return rd  # inconclusive without the parent's timings: diagnose again once they are in
        if diagnosis.get("verdict") != "concluded":
            return self._verdict(rd, "inconclusive", f"the ladder is inconclusive: {diagnosis.get('reason', '')}")
        proposal = self._proposal(rd, parent, diagnosis)
        if not proposal["candidates"]:
            return self._verdict(rd, "no_proposal", proposal.get("reason") or "nothing proposed")
        ids = [c["id"] for c in proposal["candidates"]]
        answers = self._execute(rd, self._round_calls(rd, parent, ids))
        timings = self._timings(rd, ids, answers)
        return self._decide(rd, parent, proposal, timings)

    def _parent(self, number: int) -> RoundDir:
        good = [r for r in self.record.rounds() if r.number < number and r.verdict in ("baseline", "accepted")]
        return good[-1] if good else self.record.rounds()[0]  # round 0 still waiting: speculative

    def _diagnosis(self, rd: RoundDir, parent: RoundDir, keep_inconclusive: bool = True) -> dict | None:
        if rd.has("diagnosis.json"):
            return rd.read("diagnosis.json")
        # A rejected round leaves the parent as it was: its diagnosis is the same evidence again.
        same = [r for r in self.record.rounds() if r.number < rd.number and r.has("diagnosis.json")
                and r.read("round.json")["parent"] == parent.number]
        if same:
            diagnosis = same[-1].read("diagnosis.json")
        else:
            self.progress(f"[{self.s['target']}] round {rd.number}: diagnosing round {parent.number}'s kernel")
            diagnosis = self.diagnose(parent.path / "kernel.py", self._bench_file(parent, rd))
        if diagnosis.get("verdict") != "concluded" and not keep_inconclusive:
            return None
        rd.write("diagnosis.json", diagnosis)
        return diagnosis

    def _bench_file(self, parent: RoundDir, rd: RoundDir) -> Path | None:
        """The parent's own bench; an accepted candidate's lacks the torch references (a queue
        times them once per round, beside the round's parent), so they are taken from that bench
        of the same session: tier 2 then sees what cuBLAS reaches on the same work."""
        key = "kernel" if parent.number == 0 else parent.read("verdict.json")["candidate"]
        path = _first_timed(sorted((parent.path / "runner").glob(f"bench-{key}-r*.json")), "candidate")
        if path is None:
            return None
        refs = _first_timed(sorted((parent.path / "runner").glob("bench-parent-r*.json")), "compile")
        merged = with_references(read_json(path), read_json(refs) if refs else parent.runner_answer("bench-parent-r0"))
        return path if merged is None else rd.write("parent-bench.json", merged)

    def _proposal(self, rd: RoundDir, parent: RoundDir, diagnosis: dict) -> dict:
        if rd.has("proposal.json"):
            return rd.read("proposal.json")
        family = (diagnosis.get("conclusion") or {}).get("rewrite_family")
        tried = [r.read("proposal.json").get("transformation") or "" for r in self.record.rounds()
                 if r.number < rd.number and r.has("proposal.json")
                 and r.read("round.json")["parent"] == parent.number]
        req = Request(self.s["target"], (self.task_dir / "task.py").read_text(encoding="utf-8"),
                      parent.text("kernel.py"), diagnosis, passages_of(diagnosis), family, tried)
        rd.write("passages.json", req.passages)
        proposal = self.propose(req)
        files = []
        for i, cand in enumerate(proposal.candidates):
            files.append(f"candidates/{i:02d}.py")
            rd.write(files[-1], cand.source)
        data = {**proposal.to_json(files), "created": now()}
        rd.write("proposal.json", data)
        self.progress(f"[{self.s['target']}] round {rd.number}: {data.get('family')} -> "
                      f"{len(files)} candidate(s) from {proposal.proposer}"
                      + (f" ({proposal.transformation})" if proposal.transformation else ""))
        return data

    def _round_calls(self, rd: RoundDir, parent: RoundDir, ids: list[str]) -> list[RunnerCall]:
        calls = [self._call(rd, f"verify-{i}", "verify", rd.path / f"candidates/{i}.py", order=n)
                 for n, i in enumerate(ids)]
        # On a device the parent is verified again beside its challengers, so every kept kernel
        # is re-verified in the session that times it last (the interpreter gives nothing new).
        if self.s["device"] != "cpu":
            calls.append(self._call(rd, "verify-parent", "verify", parent.path / "kernel.py", order=len(ids)))
        order = len(ids) + 1
        for r in range(self.s["noise"]["repeats"]):
            tag = f"{self.record.run_id}/{rd.number}/{r}"
            parent_bench = self._call(rd, f"bench-parent-r{r}", "bench", parent.path / "kernel.py",
                                      order=order, tag=tag, compile_=r == 0)
            parent_bench.after_any = [f"verify-{i}" for i in ids]
            calls.append(parent_bench)
            for i in ids:
                order += 1
                calls.append(self._call(rd, f"bench-{i}-r{r}", "bench", rd.path / f"candidates/{i}.py",
                                        after=f"verify-{i}", order=order, tag=tag))
            order += 1
        return calls

    # ------------------------------------------------------------ runner calls
    def _call(self, rd: RoundDir, key: str, command: str, kernel: Path, order: int,
              after: str | None = None, compile_: bool = False, tag: str = "") -> RunnerCall:
        device = self.s["device"]
        opts = ["--device", device, "--timeout", str(int(self.timeout_s))]
        if command == "verify":
            opts += ["--sizes", "small"] if device == "cpu" else []
        else:
            opts += ["--sizes", self.s["size"], "--dtypes", self.s["dtype"]]
            opts += [] if compile_ and device != "cpu" else ["--no-compile"]
            if device != "cpu":
                opts += ["--warmup-ms", "10", "--rep-ms", "50"]
        # The tag makes each round's calls its own: a parent re-verified in a later round is run
        # again, not answered from an earlier session's result.
        return RunnerCall(key, command, self.task_dir, kernel, opts, after=after, order=order,
                          tag=tag or f"{self.record.run_id}/{rd.number}")

    def _execute(self, rd: RoundDir, calls: list[RunnerCall]) -> dict[str, dict]:
        done = {c.key: a for c in calls if (a := rd.runner_answer(c.key)) is not None}

        def keep(call: RunnerCall, answer: dict) -> None:
            rd.write(f"runner/{call.key}.json", answer)

        try:
            self.executor.run(calls, done, keep)
        except Pending as wait:
            n = len([p for p in rd.path.glob("pending*.json")])
            rd.write("pending.json" if n == 0 else f"pending-{n}.json",
                     {"queued": wait.keys, "dir": str(wait.queue), "written": now()})
            raise
        return done

    # ------------------------------------------------------------ timing and the decision
    def _timing_head(self, answers: dict[str, dict]) -> dict:
        method, interp = None, self.s["device"] == "cpu"
        for a in answers.values():
            for p in (a or {}).get("points", []):
                method = method or ((p.get("impls") or {}).get("candidate") or {}).get("method")
            interp = interp or bool(((a or {}).get("device_info") or {}).get("triton_interpret"))
        return {"size": self.s["size"], "dtype": self.s["dtype"], "method": method, "interpreter_only": interp}

    def _timings(self, rd: RoundDir, ids: list[str], answers: dict[str, dict]) -> dict:
        if rd.has("timings.json"):
            return rd.read("timings.json")
        reps, size = range(self.s["noise"]["repeats"]), self.s["size"]
        parent = [_timing(answers.get(f"bench-parent-r{r}"), size) for r in reps]
        cands = {}
        for i in ids:
            v = answers.get(f"verify-{i}") or {}
            mine = [_timing(answers.get(f"bench-{i}-r{r}"), size) for r in reps]
            pairs = [(p, c) for p, c in zip(parent, mine, strict=True) if p and c]
            bound = ratio_bound([p for p, _ in pairs], [c for _, c in pairs]) if pairs else None
            cands[i] = {"verdict": v.get("verdict", "error"), "cause": v.get("cause") or v.get("error"),
                        "bench_cause": _bench_cause([answers.get(f"bench-{i}-r{r}") for r in reps]),
                        "ms": [c.median_ms for _, c in pairs], **(bound.to_json() if bound else
                                                                 {"ratio": None, "lower": None, "upper": None})}
        timed = [i for i in ids if cands[i]["verdict"] == "pass" and cands[i]["lower"] is not None]
        best = max(timed, key=lambda i: cands[i]["lower"], default=None)
        data = {**self._timing_head(answers), "parent_ms": [p.median_ms for p in parent if p],
                "candidates": cands, "best": best}
        rd.write("timings.json", data)
        return data

    def _decide(self, rd: RoundDir, parent: RoundDir, proposal: dict, timings: dict) -> RoundDir:
        best = timings["best"]
        cands = timings["candidates"]
        if best is None:
            first = next(iter(cands.values()))
            why = "; ".join(f"{i}: {c['verdict']}" + (f" ({c['cause']})" if c["verdict"] != "pass" and c["cause"] else "")
                            + (f", not timed ({c['bench_cause']})" if c.get("bench_cause") else "")
                            for i, c in cands.items())
            return self._verdict(rd, "rejected", f"no candidate verified and timed: {why}"[:2000],
                                 candidate=next(iter(cands)), cand=first)
        c = cands[best]
        bound = RatioBound(c["ratio"], c["lower"], c["upper"], len(c["ms"]))
        if not bound.beats_noise(self.s["noise"]["min_gain"]):
            return self._verdict(rd, "rejected", f"candidate {best} is not faster beyond the noise: "
                                 f"{c['ratio']:.3f}x, lower bound {c['lower']:.3f}x <= {1 + self.s['noise']['min_gain']:.2f}x",
                                 candidate=best, cand=c, parent_ms=_mean(timings["parent_ms"]))
        source = rd.text(f"candidates/{best}.py")
        rd.write("kernel.py", source)
        rd.write("kernel.diff", unified_diff(parent.text("kernel.py"), source,
                                             f"round-{parent.number:02d}/kernel.py", f"round-{rd.number:02d}/kernel.py"))
        return self._verdict(rd, "accepted", f"candidate {best} verified and is {c['ratio']:.3f}x the parent "
                             f"(lower bound {c['lower']:.3f}x)", candidate=best, cand=c,
                             parent_ms=_mean(timings["parent_ms"]))

    def _verdict(self, rd: RoundDir, verdict: str, reason: str, candidate: str | None = None,
                 cand: dict | None = None, parent_ms: float | None = None,
                 kernel_ms: float | None = None) -> RoundDir:
        cand = cand or {}
        prior = [r for r in self.record.rounds() if r.number < rd.number and r.complete]
        accepted = [r.read("verdict.json")["ratio"] for r in prior if r.verdict == "accepted"]
        if verdict == "accepted":
            accepted.append(cand["ratio"])
        good = [r.number for r in prior if r.verdict in ("baseline", "accepted")]
        best_round = rd.number if verdict in ("accepted", "baseline") else (good[-1] if good else 0)
        rd.write("verdict.json", {
            "verdict": verdict, "reason": reason, "candidate": candidate, "ratio": cand.get("ratio"),
            "lower": cand.get("lower"), "upper": cand.get("upper"), "parent_ms": parent_ms,
            "kernel_ms": kernel_ms if kernel_ms is not None else _mean(cand.get("ms") or []),
            "best_round": best_round, "best_vs_input": _prod(accepted), "finished": now()})
        self.progress(f"[{self.s['target']}] round {rd.number}: {verdict} — {reason[:160]}; "
                      f"best round {best_round} ({_x(_prod(accepted))} vs input)")
        return rd

    def _summary(self, status: str, reason: str) -> dict:
        rounds = [r for r in self.record.rounds() if r.complete]
        verdicts = {r.number: r.read("verdict.json") for r in rounds}
        accepted = [n for n, v in verdicts.items() if v["verdict"] == "accepted"]
        best_round = accepted[-1] if accepted else 0
        tokens = {"prompt": 0, "completion": 0, "total": 0}
        for r in rounds:
            if r.has("proposal.json"):
                for k, v in (r.read("proposal.json").get("tokens") or {}).items():
                    tokens[k] = tokens.get(k, 0) + v
        zero = self.record.rounds()[0] if self.record.rounds() else None
        t0 = zero.read("timings.json") if zero and zero.has("timings.json") else {}
        latest = self._latest(best_round, verdicts.get(best_round, {}))
        return {"run_id": self.record.run_id, "target": self.s["target"], "status": status, "reason": reason,
                "rounds_done": len([n for n in verdicts if n > 0]), "accepted": accepted,
                "best_round": best_round, "best_vs_input": _prod([verdicts[n]["ratio"] for n in accepted]),
                "best_round_reached_at": best_round,
                "input_ms": _mean(t0.get("parent_ms") or []), "best_ms": latest["ms"],
                "best_ms_repeats": latest.get("ms_repeats", []),
                "compile_ms": latest["compile_ms"], "eager_ms": latest["eager_ms"],
                "best_reverified": latest["verify"], "measured_in_round": latest.get("round"),
                "best_roofline": latest["roofline"],
                "tokens": tokens, "interpreter_only": bool(t0.get("interpreter_only"))}

    def _latest(self, number: int, verdict: dict) -> dict:
        """The best kernel's newest measurement: (ms, torch.compile ms, verify verdict) from one
        device session; a later round that kept it as parent re-verified and re-timed it."""
        rounds = {r.number: r for r in self.record.rounds()}
        later = [r for r in rounds.values() if r.number > number and r.has("round.json")
                 and r.read("round.json")["parent"] == number and r.runner_answer("verify-parent")]
        if later:
            rd, bench, ver = later[-1], "bench-parent", "verify-parent"
            comp = rd.runner_answer("bench-parent-r0")
        elif number in rounds:
            rd = rounds[number]
            key = "kernel" if number == 0 else verdict.get("candidate")
            bench, ver = f"bench-{key}", f"verify-{key}"
            comp = rd.runner_answer("bench-kernel-r0" if number == 0 else "bench-parent-r0")
        else:
            return {"ms": None, "compile_ms": None, "eager_ms": None, "verify": None, "roofline": {}}
        # Every repeat of the kernel in that round: the fastest median is its time and its roofline
        # (noise only adds: a repeat that caught the GPU clocking up reads 2x slow); the spread is kept.
        timed = [(t.median_ms, a) for r in range(self.s["noise"]["repeats"])
                 if (t := _timing(a := rd.runner_answer(f"{bench}-r{r}"), self.s["size"]))]
        repeats = [ms for ms, _ in timed]
        answer = min(timed, key=lambda x: x[0])[1] if timed else rd.runner_answer(f"{bench}-r0")
        return {"ms": min(repeats) if repeats else None, "ms_repeats": repeats,
                "compile_ms": _compile_ms(comp, self.s["size"]),
                "roofline": _roofline(answer, self.s["size"]),
                "eager_ms": _impl_ms(comp, self.s["size"], "eager"),
                "verify": (rd.runner_answer(ver) or {}).get("verdict"), "round": rd.number}


def passages_of(diagnosis: dict) -> list[dict]:
    """Conclusion citations, then every escalation's passages, without repeats."""
    seen, out = set(), []
    lists = [(diagnosis.get("conclusion") or {}).get("citations") or []]
    lists += [e.get("passages") or [] for e in diagnosis.get("escalations") or []]
    for group in lists:
        for p in group:
            key = (p.get("path"), p.get("start_line"), p.get("end_line"))
            if key not in seen:
                seen.add(key)
                out.append({k: p.get(k, "") for k in ("path", "start_line", "end_line", "repo", "symbol", "permalink")})
    return out


def _first_timed(paths: list[Path], impl: str) -> Path | None:
    """The first repeat whose bench timed `impl` at every point (a repeat can fail alone: on the
    H200 one child's torch.compile reference broke the candidate timings after it); else the first."""
    for path in paths:
        points = read_json(path).get("points") or []
        if points and all(((p.get("impls") or {}).get(impl) or {}).get("status") == "ok" for p in points):
            return path
    return paths[0] if paths else None


def with_references(answer: dict, refs: dict | None) -> dict | None:
    """`answer` with the eager/compile times of `refs` where its own points have none (same size
    and dtype); None when there is nothing to add."""
    if not refs:
        return None
    by_point = {(p.get("size"), p.get("dtype")): p.get("impls") or {} for p in refs.get("points", [])}
    out, added = json.loads(json.dumps(answer)), False
    for p in out.get("points", []):
        impls, theirs = p.setdefault("impls", {}), by_point.get((p.get("size"), p.get("dtype")), {})
        mine = (impls.get("candidate") or {}).get("median_ms")
        for name in ("eager", "compile"):
            ref = theirs.get(name) or {}
            if name not in impls and ref.get("status") == "ok" and ref.get("median_ms"):
                impls[name] = {**ref, "note": "timed beside the round's parent in the same session"}
                if mine:
                    p[f"candidate_vs_{name}"] = ref["median_ms"] / mine
                added = True
    return out if added else None


def _timing(answer: dict | None, size: str) -> Timing | None:
    for p in (answer or {}).get("points", []):
        c = (p.get("impls") or {}).get("candidate") or {}
        if p.get("size") == size and c.get("status") == "ok" and c.get("median_ms"):
            return Timing(c["median_ms"], c.get("p20_ms"), c.get("p80_ms"))
    return None


def _impl_ms(answer: dict | None, size: str, impl: str) -> float | None:
    for p in (answer or {}).get("points", []):
        c = (p.get("impls") or {}).get(impl) or {}
        if p.get("size") == size and c.get("status") == "ok":
            return c.get("median_ms")
    return None


def _bench_cause(answers: list[dict | None]) -> str | None:
    """Why a verified candidate has no timing: the runner's cause, or the executor's error."""
    for a in answers:
        if a and a.get("error"):
            return a["error"]
        for p in (a or {}).get("points", []):
            c = (p.get("impls") or {}).get("candidate") or {}
            if c.get("status") not in (None, "ok"):
                return f"{c['status']}: {c.get('cause')}"
    return None


def _roofline(answer: dict | None, size: str) -> dict:
    for p in (answer or {}).get("points", []):
        if p.get("size") == size:
            return ((p.get("impls") or {}).get("candidate") or {}).get("roofline") or {}
    return {}


def _compile_ms(answer: dict | None, size: str) -> float | None:
    return _impl_ms(answer, size, "compile")


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _prod(xs: list[float]) -> float:
    out = 1.0
    for x in xs:
        out *= x
    return out


def _x(v: float | None) -> str:
    return f"{v:.2f}x" if v is not None else "-"


__all__ = ["Loop", "MIN_GAIN", "passages_of", "stderr_progress"]
