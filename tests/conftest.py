"""Shared fixtures: a real embedder (loaded once), fixture git repositories built by the tests."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """One IR capture cache for the whole run (diagnose/ir/cache.py, keyed by the kernel's and the
    capture code's content): a kernel that several tests diagnose, in-process or through the CLI,
    is compiled once. Set before xdist starts its workers, so they and every subprocess share it;
    a run's own folder, so nothing a past run (or another Triton) captured is ever read."""
    if hasattr(config, "workerinput") or "PASSWISE_CAPTURE_CACHE" in os.environ:  # "": off
        return
    folder = tempfile.mkdtemp(prefix="passwise-captures-")
    os.environ["PASSWISE_CAPTURE_CACHE"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


@pytest.fixture(scope="session")
def embedder():
    from kb.embed import Embedder

    e = Embedder()
    e.embed(["warm up"])  # load once for the whole session
    return e


@pytest.fixture(scope="session")
def web_home(tmp_path_factory, embedder):
    """The served home of the web, API and MCP tests (tests/webfixtures.py), built once."""
    from tests.webfixtures import build_home

    return build_home(tmp_path_factory.mktemp("web"), embedder)


@pytest.fixture(scope="session")
def web_server(web_home):
    """The app under waitress on a free loopback port, for every web test module."""
    import threading

    from waitress import create_server

    from web import create_app
    from web.config import WebConfig

    config = WebConfig(home=web_home["home"], corpus_set="default",
                       kernels_dir=web_home["kernels"], job_timeout_s=120)
    server = create_server(create_app(config), host="127.0.0.1", port=0, threads=8)

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # the socket closed under the loop at teardown
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield {**web_home, "url": f"http://127.0.0.1:{server.effective_port}", "config": config}
    server.close()


# -- running on two workers (pytest-xdist; scripts/test.sh passes -n 2 --dist loadgroup) ----------
# Tests that share an expensive module or session fixture must run on one worker, or the fixture
# is built once per worker. xdist's own loadgroup cannot see groups under pytest 9.2 (it renames
# `_nodeid`, which pytest no longer reads), so each worker writes the groups it derives from the
# fixtures to a file and the controller's scheduler (GroupScheduling) reads them.

# Session fixtures that each worker may build for itself: cheaper to load twice than to tie every
# test that uses them to one worker.
PER_WORKER = {"embedder"}
GROUPS_KEY = "passwise_groups"


def _shared_fixture(item: pytest.Item) -> str | None:
    """The group an item must share a worker with: the session fixtures of tests/ it uses (other
    than PER_WORKER; named by the ones the others build on, so web_server and web_home are one
    group), else its module when it uses a module-scoped fixture, else its xdist_group mark."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    ours = {}
    for name in item.fixturenames:
        chain = info.name2fixturedefs.get(name)
        if chain and name not in PER_WORKER and \
                getattr(chain[-1].func, "__module__", "").startswith("tests."):
            ours[name] = chain[-1]  # not pytest's own (tmp_path_factory and the like)
    session = {name for name, fixturedef in ours.items() if fixturedef.scope == "session"}
    roots = sorted(name for name in session if not set(ours[name].argnames) & session)
    if roots:
        return "session-" + "+".join(roots)
    if any(fixturedef.scope == "module" for fixturedef in ours.values()):
        return item.module.__name__
    mark = item.get_closest_marker("xdist_group")
    return str(mark.args[0]) if mark and mark.args else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker: hand out the heavy work first (grouped tests, the group with the most slow
    tests first, then slow ones, then the rest, each in collection order) so the quick tests fill
    the gaps at the end. A plain run keeps pytest's order."""
    if not hasattr(config, "workerinput"):
        return
    groups = {item.nodeid: _shared_fixture(item) for item in items}
    slow_in: dict[str, int] = {}
    for item in items:
        group = groups[item.nodeid]
        if group is not None:
            slow_in[group] = slow_in.get(group, 0) + (item.get_closest_marker("slow") is not None)
    order = {group: i for i, group in enumerate(sorted(slow_in, key=lambda g: -slow_in[g]))}

    def rank(item: pytest.Item) -> tuple[int, int]:
        group = groups[item.nodeid]
        if group is not None:
            return (0, order[group])
        return (1 if item.get_closest_marker("slow") else 2, 0)

    items.sort(key=rank)
    config.stash[_groups_stash] = groups


_groups_stash = pytest.StashKey[dict]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker: tell the controller which group each test is in (GroupScheduling)."""
    folder = getattr(session.config, "workerinput", {}).get(GROUPS_KEY)
    if folder:
        groups = session.config.stash.get(_groups_stash, {})
        path = Path(folder) / f"{session.config.workerinput['workerid']}.json"
        # Written whole, then renamed: the controller may look while another worker writes.
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps({item.nodeid: groups.get(item.nodeid) for item in session.items}))
        os.replace(partial, path)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    node.workerinput[GROUPS_KEY] = _groups_folder(node.config)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """loadgroup with the groups the workers wrote: a group goes to one worker, any other
        test to whichever worker is free."""

        groups: dict[str, str | None] = {}

        def schedule(self) -> None:
            if self.collection is None and not self.groups:
                for path in sorted(Path(_groups_folder(config)).glob("*.json")):
                    try:
                        self.groups = json.loads(path.read_text())
                    except (OSError, ValueError):
                        continue
                    break
            super().schedule()

        def _split_scope(self, nodeid: str) -> str:
            return self.groups.get(nodeid) or nodeid

    return GroupScheduling(config, log)


def _groups_folder(config: pytest.Config) -> str:
    if not hasattr(config, "_passwise_groups"):
        folder = tempfile.mkdtemp(prefix="passwise-xdist-")
        config._passwise_groups = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    return config._passwise_groups
