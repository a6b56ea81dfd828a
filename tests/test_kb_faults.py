"""The knowledge base under faults: kill -9 in index and refresh, readers beside a writer, two
writers, a Chroma server killed or frozen mid-command, tampered cache files.

Every command is the real `passwise` CLI, forked from a warm process (tests/kbfaults.py); every
check is on what a user sees: exit codes, one-sentence errors, search results equal to a clean
build's. Kill points are random (seeded; the seed is in the failure message).
"""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from kb import lexical_cache
from kb.locks import writer_running
from kb.search import open_kb
from kb.store import Store
from passwise import cli
from tests.kbfaults import (
    BATCH,
    ChromaServer,
    Marker,
    TokenProxy,
    World,
    free_port,
    mirror_arg,
    tampered_variants,
)

SEED = int(os.environ.get("PASSWISE_FAULT_SEED", "0")) or random.randrange(1, 10**6)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("faults"))
    yield w
    w.zygote.close()


def _one_sentence_error(job, json_mode: bool = False) -> str:
    """The job failed the way a user should see: exit 1, one `passwise:` line, no traceback."""
    assert job.rc == 1, (job.rc, job.stderr[-2000:])
    lines = [x for x in job.stderr.splitlines() if x.strip()]
    assert "Traceback" not in job.stderr and len(lines) == 1, job.stderr[-2000:]
    assert lines[0].startswith("passwise: ") and lines[0].endswith("."), lines[0]
    if json_mode:
        assert set(json.loads(job.stdout)) == {"error"}, job.stdout
    return lines[0]


# -- kill -9 ---------------------------------------------------------------------------------
def test_index_killed_at_random_points_is_told_and_finished_by_refresh(world):
    rng = random.Random(SEED)
    for trial in range(2):
        home = world.root / f"kill-index-{trial}"
        at = rng.uniform(0.2, world.seconds_a)
        job = world.zygote.start(world.index_argv(home, world.up_a), files_per_batch=BATCH)
        time.sleep(at)
        rc = world.zygote.kill(job)
        assert rc in (0, -signal.SIGKILL)
        sources = world.zygote.run(["sources", "--home", str(home), "--json"])
        rows = json.loads(sources.stdout) if sources.rc == 0 else []
        if rows and {r["status"] for r in rows} == {"complete"}:  # then it must be true
            assert world.fingerprint(home) == world.fp_a, f"seed {SEED}, killed at {at:.2f}s"
        elif rows:
            assert {r["status"] for r in rows} <= {"complete", "pending", "interrupted"}, rows
            assert "`passwise refresh` finishes it" in world.zygote.run(
                ["sources", "--home", str(home)]).stdout
        heal = world.zygote.run(world.refresh_argv(home, world.up_a), files_per_batch=BATCH)
        if "Nothing is indexed yet" in heal.stderr:  # killed before the plan was recorded
            heal = world.zygote.run(world.index_argv(home, world.up_a), files_per_batch=BATCH)
        assert heal.rc == 0, (SEED, at, heal.stderr)
        assert world.fingerprint(home) == world.fp_a, f"seed {SEED}, killed at {at:.2f}s"


def test_refresh_after_an_upgrade_killed_at_random_points_heals_to_a_clean_upgrade(world):
    rng = random.Random(SEED + 1)
    for trial in range(2):
        home = world.copy_of_a(f"kill-refresh-{trial}")
        at = rng.uniform(0.3, world.seconds_b)
        job = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
        time.sleep(at)
        world.zygote.kill(job)
        mid = world.zygote.run(["search", "faultProbe3Width", "--mode", "lexical", "--json",
                                "--home", str(home)])
        assert mid.rc == 0 and json.loads(mid.stdout), mid.stderr  # a mixed index still answers
        heal = world.zygote.run(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
        assert heal.rc == 0, (SEED, at, heal.stderr)
        rows = json.loads(world.zygote.run(["sources", "--home", str(home), "--json"]).stdout)
        assert {r["status"] for r in rows} == {"complete"}, rows
        assert world.fingerprint(home) == world.fp_b, f"seed {SEED}, killed at {at:.2f}s"


# -- readers and writers ---------------------------------------------------------------------
def test_readers_beside_a_refresh_always_answer_and_the_cache_never_lags(world):
    home = world.copy_of_a("readers")
    writer = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=1)
    readers = []
    while len(readers) < 3 or world.zygote.wait(writer, timeout=0.01) is None:
        mode = ["--mode", "lexical"] if len(readers) % 2 == 0 else []
        readers.append(world.zygote.start(["search", "faultUpgradeOnlySymbol upgradedLanes",
                                           "--json", "--home", str(home), *mode]))
        time.sleep(0.3)
    assert world.zygote.wait(writer) == 0, writer.stderr
    for r in readers:
        assert world.zygote.wait(r) == 0, r.stderr
        assert isinstance(json.loads(r.stdout), list)
    assert world.fingerprint(home) == world.fp_b  # the lexical cache left by readers is current


def test_two_writers_are_serialised_and_the_second_says_it_waits(world):
    home = world.copy_of_a("two-writers")
    first = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=1)
    lock = open_kb(home, corpus_set="main").lock_path
    deadline = time.time() + 60
    while writer_running(lock) is None and time.time() < deadline:  # until the first holds it
        time.sleep(0.05)
    second = world.zygote.start(world.refresh_argv(home, world.up_b), files_per_batch=BATCH)
    assert world.zygote.wait(first) == 0, first.stderr
    assert world.zygote.wait(second) == 0, second.stderr
    assert "waiting for `passwise refresh`" in second.stderr, second.stderr
    assert world.fingerprint(home) == world.fp_b


def test_parallel_searches_rebuilding_the_cache_all_answer(world):
    home = world.copy_of_a("parallel")
    shutil.rmtree(home / "lexical", ignore_errors=True)
    jobs = [world.zygote.start(["search", "faultProbe7Legal stages", "--mode", "lexical",
                                "--json", "--home", str(home)]) for _ in range(8)]
    results = []
    for j in jobs:
        assert world.zygote.wait(j) == 0, j.stderr
        results.append([h["id"] for h in json.loads(j.stdout)])
    assert all(r == results[0] for r in results) and results[0]
    assert not list((home / "lexical").glob("*.tmp"))


# -- a Chroma server that dies or freezes ------------------------------------------------------
def test_server_killed_or_frozen_mid_command_fails_in_one_sentence_and_a_team_shares_it(world):
    rng = random.Random(SEED + 2)
    server = ChromaServer(world.root / "server-db")
    home, url = world.root / "server-client", ["--chroma-url", server.url]
    env = {"PASSWISE_CHROMA_READ_TIMEOUT": "1.5", "PASSWISE_CHROMA_CONNECT_TIMEOUT": "1.5"}
    try:
        # killed during index
        job = world.zygote.start(world.index_argv(home, world.up_a, *url, "--json"),
                                 files_per_batch=BATCH)
        time.sleep(rng.uniform(1.0, max(1.5, world.seconds_a - 1)))
        server.kill()
        if world.zygote.wait(job, timeout=90) != 0:  # the kill landed before the index ended
            assert "The Chroma server at" in _one_sentence_error(job, json_mode=True)
        down = world.zygote.run(["search", "faultProbe3Width", "--json", "--home", str(home), *url])
        assert "(connection refused)" in _one_sentence_error(down, json_mode=True)
        server.start()
        heal = world.zygote.run(world.refresh_argv(home, world.up_a, *url), files_per_batch=BATCH)
        assert heal.rc == 0, heal.stderr
        assert world.fingerprint(home, server.url) == world.fp_a
        _team_searches_while_a_refresh_upgrades_the_compiler(world, server, home)
        # frozen (SIGSTOP) during a search, then during a refresh (back to the old compiler)
        server.signal(signal.SIGSTOP)
        t0 = time.time()
        search = world.zygote.run(["search", "faultProbe3Width", "--json", "--home", str(home),
                                   *url], env=env, timeout=60)
        assert time.time() - t0 < 30
        assert "no answer within 1.5 s" in _one_sentence_error(search, json_mode=True)
        server.signal(signal.SIGCONT)
        writer = world.zygote.start(world.refresh_argv(home, world.up_a, *url), env=env,
                                    files_per_batch=BATCH)
        time.sleep(rng.uniform(0.5, world.seconds_a))
        server.signal(signal.SIGSTOP)
        if world.zygote.wait(writer, timeout=60) is None:
            pytest.fail("refresh hung on a frozen server:\n" + world.zygote.dump(writer))
        server.signal(signal.SIGCONT)
        if writer.rc != 0:
            assert "The Chroma server at" in _one_sentence_error(writer)
        heal = world.zygote.run(world.refresh_argv(home, world.up_a, *url), files_per_batch=BATCH)
        assert heal.rc == 0, heal.stderr
        assert world.fingerprint(home, server.url) == world.fp_a
    finally:
        server.stop()


def _team_searches_while_a_refresh_upgrades_the_compiler(world, server, indexer_home: Path) -> None:
    """docs/kb.md's team deployment: one machine refreshes, three others search through a
    token-checking proxy, each with its own home (its own lexical cache)."""
    proxy = TokenProxy(server.port, "team-secret")
    env = {"PASSWISE_CHROMA_TOKEN": "team-secret"}
    users = [world.root / f"user-{i}" for i in range(3)]
    try:
        url = ["--chroma-url", proxy.url]
        writer = world.zygote.start(world.refresh_argv(indexer_home, world.up_b, *url), env=env,
                                    files_per_batch=1)
        searches = []
        while len(searches) < 3 or (world.zygote.wait(writer, timeout=0.01) is None
                                    and len(searches) < 6):
            home = users[len(searches) % len(users)]
            searches.append(world.zygote.start(["search", "faultUpgradeOnlySymbol upgradedLanes",
                                                "--json", "--home", str(home), *url], env=env))
            time.sleep(0.7)
        assert world.zygote.wait(writer) == 0, writer.stderr
        for job in searches:
            assert world.zygote.wait(job) == 0, job.stderr
            assert isinstance(json.loads(job.stdout), list)
        assert world.fingerprint(users[0], proxy.url, env) == world.fp_b
        seen = [world.zygote.run(["search", "upgradedLanes", "--mode", "lexical", "--json",
                                  "--home", str(home), *url], env=env).stdout for home in users]
        assert seen[0] == seen[1] == seen[2] and json.loads(seen[0])  # every user's cache is current
        proxy.fail_next = 2  # reads are retried through a short outage...
        assert world.zygote.run(["search", "upgradedLanes", "--json", "--home", str(users[1]),
                                 *url], env=env).rc == 0
        proxy.fail_next = 100  # ...and a long one ends in one sentence
        down = world.zygote.run(["search", "upgradedLanes", "--json", "--home", str(users[1]),
                                 *url], env=env)
        assert "HTTP 503" in _one_sentence_error(down, json_mode=True)
        proxy.fail_next = 0
        wrong = world.zygote.run(["search", "anything", "--json", "--home", str(users[0]), *url],
                                 env={"PASSWISE_CHROMA_TOKEN": "guess"})
        assert "refused the credentials (HTTP 401)" in _one_sentence_error(wrong, json_mode=True)
    finally:
        proxy.close()


def test_a_refused_connection_at_start_is_named(tmp_path):
    port = free_port()
    with pytest.raises(Exception, match=f"127.0.0.1:{port} \\(connection refused\\)"):
        Store.open(tmp_path, chroma_url=f"http://127.0.0.1:{port}")


# -- tampered cache files ----------------------------------------------------------------------
def test_tampered_cache_files_never_run_code_and_are_rebuilt_with_one_warning(world, tmp_path, capsys):
    home = world.copy_of_a("tampered")
    argv = ["search", "faultProbe3Width vectorizes loads", "--mode", "lexical", "--json",
            "--home", str(home)]
    assert cli.main(argv) == 0
    want = [h["id"] for h in json.loads(capsys.readouterr().out)]
    cache = next((home / "lexical").glob("*.npz"))
    marker = tmp_path / "code-ran"
    legacy = cache.with_suffix(".pkl")
    legacy.write_bytes(pickle.dumps(Marker(marker)))
    assert cli.main(argv) == 0
    out = capsys.readouterr()
    assert [h["id"] for h in json.loads(out.out)] == want
    assert "removed the old pickle cache" in out.err and not legacy.exists()
    for name, data in tampered_variants(cache, marker).items():
        cache.write_bytes(data)
        assert cli.main(argv) == 0, name
        out = capsys.readouterr()
        assert [h["id"] for h in json.loads(out.out)] == want, name
        warnings = [x for x in out.err.splitlines() if "warning" in x]
        assert len(warnings) == 1 and "rebuilding it from the store" in warnings[0], (name, out.err)
        assert not marker.exists(), f"{name}: code from the cache ran"
        stamp = lexical_cache.make_stamp(*open_kb(home, corpus_set="main").store.content_stamp())
        assert len(lexical_cache.load(cache, stamp)) > 0, name  # healed with a good cache
    assert not marker.exists()


def test_no_pickle_is_written_anywhere_in_the_home(world):
    for p in world.clean_b.rglob("*"):
        if p.is_file() and "chroma" not in p.parts and "git" not in p.parts:
            assert p.read_bytes()[:2] not in (b"\x80\x04", b"\x80\x05"), p  # pickle protocol 4/5


# -- the stale cache of the issue, step by step ------------------------------------------------
def test_a_search_between_write_batches_never_leaves_a_stale_lexical_cache(world):
    home = world.root / "between" / "home"
    home.parent.mkdir()
    job = world.zygote.run([str(home), str(world.up_a), str(world.root / "notes")],
                           call="tests.kbfaults:index_with_a_reader_between_batches")
    assert job.rc == 0, job.stderr[-3000:]
    seen = json.loads(job.stdout)
    assert seen["lexical_docs"] == seen["stored"]
    assert seen["hit"] == ["lib/probes/Probe5.cpp"]


def test_symlinks_in_directory_sources_are_skipped_with_a_reason(world):
    notes = json.loads((world.root / "clean-a-report.json").read_text())
    src = next(r for r in notes["sources"] if r["name"] == "notes")
    assert "passwd.md: symbolic link, not followed" in src["skipped_examples"]
    docs = [d for _, page, _ in open_kb(world.clean_a, corpus_set="main").store.iter_all()
            for d in page]
    assert any("notesOnlyTerm2" in d for d in docs) and not any("root:" in d for d in docs)


def test_refresh_that_can_do_nothing_exits_1_and_says_what_it_did_not_do(world, tmp_path, capsys):
    home = world.copy_of_a("nothing-done")
    shutil.rmtree(home / "git")  # no cached clone either: the source cannot be had at all
    notes_gone = world.root / "notes-moved"
    (world.root / "notes").rename(notes_gone)
    try:
        rc = cli.main(["refresh", "--mirror", mirror_arg(tmp_path / "nowhere"), "--home",
                       str(home), "--json"])
    finally:
        notes_gone.rename(world.root / "notes")
    out = capsys.readouterr()
    assert rc == 1
    report = json.loads(out.out)
    assert report["error"].startswith("Nothing could be done: every source was skipped")
    assert "fixture:" in report["error"] and "notes:" in report["error"]
    assert out.err.strip().startswith("passwise: Nothing could be done")


def test_generation_is_a_sequence_lock_and_caches_are_kept_only_when_settled(tmp_path):
    from kb.chunk import Chunk
    from kb.embed import Embedder
    from kb.search import KnowledgeBase
    from kb.store import GENERATION_KEY

    store = Store.open(tmp_path)
    store.put_state(GENERATION_KEY, {"n": 3})  # written before the sequence lock existed
    assert store.generation == 6  # read as settled, never as an interrupted write
    chunks = [Chunk(text=f"// a.cpp :: :: f{i}\nint seqlockProbe{i}();", path="a.cpp",
                    start_line=i, end_line=i, symbol=f"f{i}") for i in range(2)]
    store.upsert(chunks, [[1.0, 0.0], [0.0, 1.0]])
    assert store.generation == 8
    with pytest.raises(RuntimeError), store.writing():
        raise RuntimeError("a write that fails still closes its window")
    assert store.generation == 10
    kb = KnowledgeBase(store, Embedder(), tmp_path)
    with store.writing():
        assert store.generation == 11 and len(kb.lexical()) == 2
        assert not kb.lexical_path.exists()  # built while a write was open: used, not kept
    store._set_generation(13)  # a writer killed inside its window
    assert store.settle() and store.generation == 14 and not store.settle()
    assert len(kb.lexical()) == 2 and kb.lexical_path.exists()


def test_building_the_server_client_on_a_frozen_server_times_out(tmp_path):
    import httpx
    from chromadb.config import Settings

    from kb.server import ServerOptions, _http_client

    server = ChromaServer(tmp_path / "db")
    try:
        server.signal(signal.SIGSTOP)  # frozen after the heartbeat, before the client is built
        t0 = time.time()
        with pytest.raises(httpx.TimeoutException):
            _http_client(server.url, ServerOptions(1.0, 1.0, 0), Settings(anonymized_telemetry=False))
        assert time.time() - t0 < 15
    finally:
        server.signal(signal.SIGCONT)
        server.stop()


def test_a_plans_new_sources_are_recorded_pending_in_one_store_write(tmp_path):
    # a kill between two pending records once left `refresh` half a plan (CI, 2026-12-01)
    from indexer.state import PENDING, SourceState, all_states, save_states

    store = Store.open(tmp_path)
    writes, write = [], store.state.write

    def counted(doing, method, **kw):
        writes.append((method, len(kw.get("ids") or [])))
        return write(doing, method, **kw)

    store.state.write = counted
    save_states(store, [SourceState(n, {"name": n}, "corpus", status=PENDING) for n in "ab"])
    assert writes == [("upsert", 2)]
    assert sorted((s.name, s.status) for s in all_states(store)) == [("a", PENDING), ("b", PENDING)]
