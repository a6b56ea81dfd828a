"""The round state machine on the CPU, with the real runner (Triton interpreter) and the real
ladder: accept, reject-incorrect, reject-slower, inconclusive, and resume after kill -9 of the
optimize process. Compile-heavy: each runner call is a subprocess that imports torch."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from diagnose.executors import LocalExecutor
from diagnose.optimize.loop import Loop
from diagnose.optimize.runs import RunRecord
from diagnose.optimize.setup import make_diagnoser, new_run
from diagnose.proposers import Candidate, Proposal, Request

ROOT = Path(__file__).resolve().parent.parent
GELU_SLOW = ROOT / "bench" / "defects" / "gelu-block-64" / "slow.py"
pytestmark = pytest.mark.slow


def _cli(home: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "passwise", "optimize", "--home", str(home), *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _files(run: Path) -> dict[str, tuple[int, int]]:
    """Every file of a run with (inode, mtime_ns): a file written once keeps both."""
    return {str(p.relative_to(run)): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in run.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def killed_and_resumed(tmp_path_factory):
    """gelu with BLOCK=64, killed with SIGKILL once round 1 has its first runner answer, resumed."""
    home = tmp_path_factory.mktemp("home")
    args = ["gelu", "--candidate", str(GELU_SLOW), "--device", "cpu", "--rounds", "1",
            "--max-tier", "3", "--repeats", "1"]
    proc = _cli(home, *args)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        if list(home.glob("runs/*/rounds/01/runner/*.json")):
            break
        time.sleep(0.2)
    assert proc.poll() is None, "the run ended before round 1 reached the runner: " + proc.stderr.read()[-500:]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    [run] = list((home / "runs").iterdir())
    before = _files(run)
    resumed = _cli(home, "--resume", run.name, "--max-tier", "3", "--json")
    out, err = resumed.communicate(timeout=900)
    assert resumed.returncode == 0, err[-800:]
    return run, before, json.loads(out), err


def test_kill_leaves_whole_files_and_resume_keeps_them(killed_and_resumed):
    run, before, _, _ = killed_and_resumed
    assert not [p for p in run.rglob("*.tmp")]  # a kill mid-write leaves no half file
    after = _files(run)
    kept = {k: v for k, v in before.items() if not k.startswith(("best", "summary"))}
    assert all(after[k] == v for k, v in kept.items()), "resume rewrote a file written before the kill"
    assert any(k.startswith("rounds/01/runner/") for k in kept)  # resumed mid-round, not from scratch


def test_resumed_round_accepts_a_faster_verified_block(killed_and_resumed):
    run, _, summary, err = killed_and_resumed
    verdict = json.loads((run / "rounds/01/verdict.json").read_text())
    assert verdict["verdict"] == "accepted" and verdict["lower"] > 1.01
    proposal = json.loads((run / "rounds/01/proposal.json").read_text())
    assert proposal["family"] == "block-size-tuning" and proposal["transformation"] == "retune_block_sizes"
    timings = json.loads((run / "rounds/01/timings.json").read_text())
    assert timings["interpreter_only"] is True
    assert timings["candidates"][verdict["candidate"]]["verdict"] == "pass"
    assert summary["status"] == "finished" and summary["accepted"] == [1]
    assert summary["best_reverified"] == "pass" and summary["interpreter_only"]
    diff = (run / "best.diff").read_text()
    assert "-    gelu_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)" in diff
    assert (run / "best.py").read_text() == (run / "rounds/01/kernel.py").read_text()
    assert "round 1: accepted" in err  # progress on stderr


def _scripted(sources: list[str]):
    """A proposer that hands out the given kernels one round at a time."""
    queue = list(sources)

    def propose(req: Request) -> Proposal:
        return Proposal("scripted", req.family, hypothesis="test", transformation=f"t{len(queue)}",
                        candidates=[Candidate(queue.pop(0), "scripted")])
    return propose


@pytest.fixture(scope="module")
def rejected_run(tmp_path_factory, killed_and_resumed):
    """Round 1 proposes a wrong GELU, round 2 a correct but slower one (4x the programs). The
    parent is the same slow.py the killed run diagnosed: its real Diagnosis JSON is reused."""
    home = tmp_path_factory.mktemp("home")
    rec = new_run(home, "gelu", str(GELU_SLOW), backend="cuda", device="cpu", proposer="rules",
                  executor="local", rounds=2, size=None, repeats=1)
    src = GELU_SLOW.read_text()
    wrong = src.replace("0.5 * x", "0.55 * x")
    slower = src.replace("triton.cdiv(n, 64)", "triton.cdiv(n, 16)").replace("BLOCK=64", "BLOCK=16")
    ladder = json.loads((killed_and_resumed[0] / "rounds/01/diagnosis.json").read_text())
    assert ladder["verdict"] == "concluded"
    diagnoser = lambda kernel, bench: ladder  # noqa: E731
    lines: list[str] = []
    summary = Loop(rec, diagnoser, _scripted([wrong, slower]), LocalExecutor(), progress=lines.append).run()
    return rec, summary, lines


def test_incorrect_candidate_is_rejected_with_the_runner_cause(rejected_run):
    rec, _, _ = rejected_run
    rd = rec.rounds()[1]
    v = rd.read("verdict.json")
    assert v["verdict"] == "rejected" and "wrong_result" in v["reason"]
    assert not rd.has("kernel.py")
    assert not list((rd.path / "runner").glob("bench-*"))  # nothing verified, nothing timed


def test_slower_candidate_is_rejected_against_the_noise_bound(rejected_run):
    rec, summary, lines = rejected_run
    rd = rec.rounds()[2]
    v = rd.read("verdict.json")
    assert v["verdict"] == "rejected" and "not faster beyond the noise" in v["reason"]
    assert v["ratio"] < 1.0 and v["lower"] < 1.01
    assert rd.read("round.json")["parent"] == 0  # a rejected round leaves the parent in place
    assert summary["best_round"] == 0 and summary["accepted"] == []
    assert (rec.path / "best.diff").read_text() == ""
    # round 2 reuses the parent's diagnosis instead of climbing the ladder again
    assert rd.read("diagnosis.json") == rec.rounds()[1].read("diagnosis.json")
    assert sum("diagnosing" in line for line in lines) == 1  # round 2 did not climb again


def test_inconclusive_ladder_stops_without_a_proposal(tmp_path):
    rec = new_run(tmp_path, "add", None, backend="cuda", device="cpu", proposer="rules",
                  executor="local", rounds=3, size=None, repeats=1)
    diagnoser = make_diagnoser(Path(rec.settings["task_path"]), "cuda", 1, "small", None)
    called = []
    summary = Loop(rec, diagnoser, lambda req: called.append(req), LocalExecutor(),
                   progress=lambda line: None).run()
    rd = rec.rounds()[1]
    assert rd.read("verdict.json")["verdict"] == "inconclusive"
    assert "No tier concluded" in rd.read("verdict.json")["reason"]
    assert not rd.has("proposal.json") and called == []
    assert summary["status"] == "stopped" and summary["rounds_done"] == 1
    assert RunRecord.open(tmp_path, rec.run_id).path == rec.path


def test_opening_a_run_removes_half_writes_of_dead_processes_only(tmp_path):
    """A write killed between its temp file and the rename leaves `.NAME.PID.tmp`; opening the
    run removes it when that process is gone, and keeps a live writer's."""
    from diagnose.optimize.runs import RunRecord

    run = tmp_path / "runs" / "r1"
    (run / "rounds" / "01" / "runner").mkdir(parents=True)
    (run / "run.json").write_text("{}")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = run / "rounds" / "01" / "runner" / f".verify-01.json.{gone.pid}.tmp"
    live = run / "rounds" / "01" / f".proposal.json.{os.getpid()}.tmp"
    dead.write_text("{")
    live.write_text("{")
    RunRecord.open(tmp_path, "r1")
    assert not dead.exists() and live.exists()
