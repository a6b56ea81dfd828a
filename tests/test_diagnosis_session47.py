"""Session 47: the track record of each family's first answers, and float compares on Ascend."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from diagnose.report import render_text
from diagnose.triage import triage
from diagnose.weigh import POOR_RECORD, track_record
from tests.test_diagnosis_masks_tiles import MM, TASK_MM, _diagnose, make_task

ROOT = Path(__file__).resolve().parents[1]
TABLE = json.loads((ROOT / "diagnose" / "calibration.json").read_text())


def test_the_track_record_table_is_reproducible_from_the_committed_first_runs():
    run = subprocess.run([sys.executable, "bench/defects/calibrate.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_track_record_reads_the_table_and_knows_no_record_for_a_family_never_answered():
    for backend, table in TABLE["backends"].items():
        for family, entry in table["families"].items():
            record = track_record(backend, family)
            assert record == entry and 0 <= record["right"] <= record["answered"]
            # smoothing keeps every record between the family's own rate and the base rate
            own = entry["right"] / entry["answered"]
            assert min(own, table["base"]) - 1e-3 <= entry["reliability"] <= max(own, table["base"]) + 1e-3
    assert track_record("cuda", "no-such-family") is None
    assert track_record("no-such-backend", "block-size-tuning") is None


@pytest.mark.slow
def test_a_concluded_family_of_poor_record_carries_a_trust_warning_with_the_runner_up(tmp_path):
    record = track_record("cuda", "block-size-tuning")
    assert record is not None and record["reliability"] < POOR_RECORD  # the table's verdict
    d = _diagnose(make_task(tmp_path, "thin", TASK_MM, MM.replace("KSTEP", "16")))
    assert d.conclusion.rewrite_family == "block-size-tuning"
    lead = d.ranking[0]
    assert lead["concluded"] and lead["track_record"] == record
    assert all("track_record" in c for c in d.ranking)
    text = render_text(d)
    trust = next(line for line in text.splitlines() if line.strip().startswith("trust:"))
    assert f"{record['right']} of {record['answered']}" in trust
    if len(d.ranking) > 1:
        assert d.ranking[1]["rewrite_family"] in trust


HEADER = "import torch\nimport triton\nimport triton.language as tl\n"
# a float value computed from the index tile (a pixel's model intensity) compared with a float
# literal, beside a genuine integer compare of the same index tile
FIT = HEADER + textwrap.dedent('''
    @triton.jit
    def fit(x, out, n, SZ: tl.constexpr, BP: tl.constexpr):
        roi = tl.program_id(0)
        p = tl.arange(0, BP)
        px = (p % SZ).to(tl.float32)
        mu = 2.0 + 100.0 * tl.exp(-px * px)
        v = tl.load(x + roi * SZ * SZ + p, mask=p < SZ * SZ, other=0.0)
        w = tl.where({cond}, v / mu, 0.0)
        tl.store(out + roi, tl.sum(w, axis=0))
''')


def _conditions(cond: str) -> list[str]:
    found = triage(FIT.format(cond=cond), "k.py", "ascend").findings
    return [f.evidence["facts"]["condition"] for f in found if f.card_id == "ascend-int-compare-where"]


def test_a_compare_with_a_float_literal_is_no_integer_compare_however_its_side_was_computed():
    assert _conditions("mu > 0.01") == []
    assert _conditions("mu >= -0.5") == []
    assert _conditions("p < SZ * SZ") == ["p < SZ * SZ"]  # the index tile's own compare still is
