"""The parts around the loop: the noise model, --all's GPU pinning (workers are subprocesses with
CUDA_VISIBLE_DEVICES, testable with a fake device list), the cmd: executor shipping the runner,
the queue executor, and learned-card synthesis from run records."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from diagnose.executors import (
    CommandExecutor,
    ExecutorError,
    LocalExecutor,
    Pending,
    QueueExecutor,
    RunnerCall,
    make_executor,
)
from diagnose.optimize.noise import Timing, ratio_bound
from diagnose.optimize.runs import RunRecord, write_once
from diagnose.optimize.synthesis import priors, synthesize, write_cards
from diagnose.optimize.workers import Job, run_pinned, visible_gpus

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- noise model
def test_consistent_speedup_beats_the_noise():
    b = ratio_bound([Timing(2.0, 1.98, 2.02)] * 3, [Timing(1.0, 0.99, 1.01), Timing(1.02, 1.0, 1.03), Timing(0.98, 0.97, 1.0)])
    assert 1.9 < b.ratio < 2.1 and b.lower > 1.8 and b.beats_noise()


def test_noisy_timer_widens_the_bound_even_when_repeats_agree():
    # identical repeats, but each call's own p20..p80 spread is wide
    b = ratio_bound([Timing(1.1, 0.8, 1.5)] * 2, [Timing(1.0, 0.7, 1.4)] * 2)
    assert b.ratio == pytest.approx(1.1) and not b.beats_noise()


def test_slower_candidate_is_below_one():
    b = ratio_bound([Timing(1.0)], [Timing(1.5)])
    assert b.ratio < 1 and not b.beats_noise()


# ---------------------------------------------------------------- --all workers
def test_visible_gpus_from_flag_env_or_none(monkeypatch):
    assert visible_gpus("3, 7") == ["3", "7"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,5")
    assert visible_gpus() == ["2", "5"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "-1")
    assert visible_gpus() == []


def test_one_worker_per_gpu_each_pinned(tmp_path):
    script = ("import os, sys, time, json; s = time.time(); time.sleep(0.4); "
              "open(sys.argv[1], 'w').write(json.dumps({'gpu': os.environ.get('CUDA_VISIBLE_DEVICES'), "
              "'start': s, 'end': time.time()})); print('done', file=sys.stderr)")
    jobs = [Job(f"t{i}", [sys.executable, "-c", script, str(tmp_path / f"t{i}.json")]) for i in range(5)]
    lines: list[str] = []
    run_pinned(jobs, ["3", "7"], echo=lines.append)
    seen = [json.loads((tmp_path / f"t{i}.json").read_text()) for i in range(5)]
    assert all(j.returncode == 0 for j in jobs)
    assert {s["gpu"] for s in seen} == {"3", "7"}
    assert all(s["gpu"] == j.gpu for s, j in zip(seen, jobs, strict=True))
    for gpu in ("3", "7"):  # never two jobs at once on one GPU
        spans = sorted((s["start"], s["end"]) for s in seen if s["gpu"] == gpu)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    starts = sorted(s["start"] for s in seen)
    assert starts[1] - starts[0] < 0.35  # the two GPUs worked at the same time
    assert "[gpu 3] done" in lines or "[gpu 7] done" in lines


@pytest.mark.slow
def test_optimize_all_pins_each_task_run_to_a_gpu(tmp_path):
    import subprocess
    proc = subprocess.run([sys.executable, "-m", "passwise", "optimize", "--all", "--tasks", "add,silu",
                           "--gpus", "4,6", "--device", "cpu", "--rounds", "0", "--repeats", "1",
                           "--home", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-800:]
    runs = {json.loads(p.read_text())["target"]: json.loads(p.read_text())
            for p in tmp_path.glob("runs/*/run.json")}
    assert sorted(runs) == ["add", "silu"]
    assert {r["cuda_visible_devices"] for r in runs.values()} == {"4", "6"}
    assert "[gpu 4]" in proc.stderr and "[gpu 6]" in proc.stderr
    table = proc.stdout.splitlines()
    assert table[0].split()[:3] == ["task", "status", "rounds"]
    assert any(line.startswith("add ") and " finished " in line for line in table)
    assert "interpreter" in table[-1]


def test_no_gpu_means_one_unpinned_worker(tmp_path, monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    out = tmp_path / "env"
    job = Job("x", [sys.executable, "-c", f"import os; open({str(out)!r}, 'w').write(os.environ.get('CUDA_VISIBLE_DEVICES', 'unset'))"])
    run_pinned([job], [])
    assert out.read_text() == "unset" and job.gpu == ""


# ---------------------------------------------------------------- executors
def test_bad_executor_is_one_sentence():
    with pytest.raises(ExecutorError, match="Unknown executor"):
        make_executor("ssh:gpu")
    with pytest.raises(ExecutorError, match=r"\{dir\}"):
        make_executor("cmd:ssh gpu python -m diagnose.runner")


def _verify_call(tag: str = "") -> RunnerCall:
    return RunnerCall("verify-00", "verify", ROOT / "kernels" / "add", ROOT / "kernels" / "add" / "baseline.py",
                      ["--device", "cpu", "--sizes", "small", "--seeds", "1", "--dtypes", "float32"], tag=tag)


@pytest.mark.slow
def test_cmd_executor_ships_the_runner_and_reads_its_json(tmp_path):
    # the template copies what it is given to a fresh folder and runs there with -I (no site, no
    # PYTHONPATH): only the shipped runner, task and candidate can answer
    remote = tmp_path / "remote"
    template = (f"cp -r {{dir}} {remote} && cd {remote} && TRITON_INTERPRET=1 {sys.executable} -I -c "
                "'import sys; sys.path.insert(0, \".\"); from diagnose.runner.cli import main; sys.exit(main())' {args}")
    answers: dict = {}
    CommandExecutor(template).run([_verify_call()], answers, lambda c, a: None)
    answer = answers["verify-00"]
    assert answer["verdict"] == "pass", answer
    assert answer["candidate"].startswith("candidates/") and (remote / answer["candidate"]).is_file()
    assert (remote / "diagnose" / "runner" / "cli.py").is_file() and (remote / "kernels" / "add" / "task.py").is_file()


@pytest.mark.slow
def test_queue_executor_waits_then_answers_from_results(tmp_path):
    call = _verify_call("q")
    with pytest.raises(Pending) as wait:
        QueueExecutor(tmp_path).run([call], {}, lambda c, a: None)
    [key] = wait.value.keys
    job = json.loads((tmp_path / "jobs" / f"{key}.json").read_text())
    assert job["argv"][:3] == ["verify", "kernels/add", f"candidates/{key}.py"]
    assert (tmp_path / "bundle" / job["argv"][2]).is_file()
    # the device side answers (here: the local runner), then the same call is answered
    answer = LocalExecutor().one(call)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / f"{key}.json").write_text(json.dumps(answer))
    got: dict = {}
    QueueExecutor(tmp_path).run([call], got, lambda c, a: None)
    assert got["verify-00"]["verdict"] == "pass"


# ---------------------------------------------------------------- synthesis
def _run_with_win(home: Path, task: str, ratio: float, transformation: str, family: str) -> RunRecord:
    rec = RunRecord.create(home, task, "kernel\n", {"backend": "cuda", "task_path": "", "rounds": 1})
    zero, one = rec.new_round(0), rec.new_round(1)
    zero.write("kernel.py", "kernel\n")
    zero.write("verdict.json", {"verdict": "baseline"})
    one.write("round.json", {"round": 1, "parent": 0})
    one.write("proposal.json", {"proposer": "rules", "family": family, "card_id": "common-block-size",
                                "transformation": transformation,
                                "candidates": [{"id": "00", "description": "BLOCK 64 -> 256"}]})
    one.write("kernel.diff", "-BLOCK=64\n+BLOCK=256\n")
    one.write("verdict.json", {"verdict": "accepted", "candidate": "00", "ratio": ratio})
    time.sleep(0.01)
    return rec


def test_mechanism_won_on_two_tasks_becomes_a_learned_card(tmp_path):
    runs = [_run_with_win(tmp_path, "gelu", 2.0, "retune_block_sizes", "block-size-tuning"),
            _run_with_win(tmp_path, "silu", 1.5, "retune_block_sizes", "block-size-tuning"),
            _run_with_win(tmp_path, "add", 1.2, "narrow_int64_index", "int32-indexing")]
    cards = synthesize(runs)
    [card] = cards
    assert card.rewrite_family == "block-size-tuning" and card.tasks == ["gelu", "silu"]
    data = card.to_json()
    assert data["status"] == "learned" and data["accepted_by"] == ""
    assert data["geomean_speedup"] == pytest.approx(3 ** 0.5, rel=1e-3)
    assert {p["task"] for p in data["provenance"]} == {"gelu", "silu"}
    [path] = write_cards(cards, tmp_path / "cards", runs)
    import tomllib
    toml = tomllib.loads(path.read_text())
    assert toml["status"] == "learned" and toml["rewrite_family"] == "block-size-tuning"
    assert "+BLOCK=256" in toml["example_diff"]
    pri = json.loads((tmp_path / "cards" / "priors.json").read_text())
    assert pri["block-size-tuning"]["accepted"] == 2 and pri["int32-indexing"]["tasks"] == ["add"]
    assert priors(runs)["block-size-tuning"]["win_rate"] == 1.0


def test_write_once_leaves_no_partial_file(tmp_path):
    write_once(tmp_path / "a.json", {"x": 1})
    assert json.loads((tmp_path / "a.json").read_text()) == {"x": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_a_round_reads_its_parents_timing_from_the_first_repeat_that_timed_it(tmp_path):
    """Found on the H200 (2026-12-02): a repeat's candidate timing was refused (the child's
    torch.compile reference had switched Triton to torch's ptxas), the next repeat was fine, and
    tier 2 was skipped because only the first repeat was read."""
    from diagnose.optimize.loop import _first_timed

    def bench(name: str, status: str) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps({"points": [{"size": "large", "impls": {"candidate": {"status": status}}}]}))
        return path

    refused, timed = bench("bench-01-r0.json", "sandbox_violation"), bench("bench-01-r1.json", "ok")
    assert _first_timed([refused, timed], "candidate") == timed
    assert _first_timed([refused], "candidate") == refused  # nothing timed: the first, as before
    assert _first_timed([], "candidate") is None
