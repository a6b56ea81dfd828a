"""The child's sandbox: a private temporary directory holding copies of the task and candidate, an
audit hook that refuses what a kernel never needs, and a network namespace where the OS allows one.

Layers (reported in every verdict as `sandbox`):
* `private_dir`: the child works in a fresh directory with private copies of the task and the
  candidate, so nothing next to the original files is reachable through `__file__` or a relative path.
* `python_audit`: a sys.addaudithook hook. Code the candidate runs (see trust.py) may not open
  sockets, start processes, write or delete outside the directory, read files outside it and the
  Python/system installation, list other directories, walk frames, read the heap (gc), set trace
  functions, forge code objects, patch torch/triton/runner classes or change the environment.
  torch and triton keep their own needs: Triton's compiler may run ptxas and the C compiler it builds
  launchers with, and write its cache. A refusal raises PermissionError in the candidate and is
  recorded, so catching it does not hide it: the case becomes `sandbox_violation`.
* `network_namespace`: the child is started under `unshare --user --map-root-user --net`, an empty
  network namespace, when the kernel allows unprivileged user namespaces (checked once per process;
  PASSWISE_RUNNER_NETNS=0 turns it off).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .trust import Trust, where

UNSHARE = ["unshare", "--user", "--map-root-user", "--net", "--"]
SYSTEM_READ_ROOTS = ("/usr", "/lib", "/lib64", "/etc", "/proc", "/sys", "/dev", "/opt", "/bin", "/sbin")
TOOL_NAMES = ("ptxas", "ptxas-blackwell", "cuobjdump", "nvdisasm", "ldconfig", "gcc", "cc", "clang", "g++", "c++",
              # triton-ascend's compile (not run on an NPU here: verified_on_hardware is false for npu)
              "bishengir-compile", "bishengir-hivm-compile", "ld.lld", "clang++", "ccec")


@dataclass
class SandboxInfo:
    """Which layers were active; stamped into every verdict."""

    private_dir: bool = True
    python_audit: bool = True
    network_namespace: bool = False
    note: str | None = None

    def to_json(self) -> dict:
        return {"private_dir": self.private_dir, "python_audit": self.python_audit,
                "network_namespace": self.network_namespace, "note": self.note}


# --- parent side ---------------------------------------------------------------------------

def private_copies(root: Path, files: list[str]) -> dict[str, str]:
    """Copy each file into its own folder under root/; returns original path -> private copy."""
    copies: dict[str, str] = {}
    for i, original in enumerate(dict.fromkeys(f for f in files if f)):
        folder = root / f"f{i}"
        folder.mkdir(parents=True)
        target = folder / Path(original).name
        shutil.copyfile(original, target)
        copies[original] = str(target)
    return copies


@functools.lru_cache(maxsize=1)
def network_namespace_wrapper() -> tuple[str, ...]:
    """The unshare prefix when an unprivileged network namespace works here, else ()."""
    if os.environ.get("PASSWISE_RUNNER_NETNS", "1") == "0" or not shutil.which("unshare"):
        return ()
    try:
        ok = subprocess.run([*UNSHARE, "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return tuple(UNSHARE) if ok else ()


def netns_id() -> str:
    """This process's network namespace, to tell whether the child got a different one."""
    try:
        return os.readlink("/proc/self/ns/net")
    except OSError:
        return ""


# --- child side ----------------------------------------------------------------------------

class SandboxViolation(PermissionError):
    """Raised inside the candidate when the sandbox refuses an action."""


@dataclass
class _Policy:
    home: str
    candidate: str | None
    trust: Trust
    read_roots: tuple[str, ...]
    tools: frozenset[str]
    recorded: list[dict] = field(default_factory=list)
    started: list[str] = field(default_factory=list)  # programs trusted code started (ptxas, cc)


_state: dict = {}
_busy = threading.local()


def enter(sandbox_dir: str, candidates: list[str]) -> None:
    """Work in sandbox_dir and install the audit hook (once per process; it cannot be removed)."""
    os.chdir(sandbox_dir)
    tmp = os.path.join(sandbox_dir, "tmp")
    os.makedirs(tmp, exist_ok=True)
    os.environ["TMPDIR"] = tmp
    import tempfile

    tempfile.tempdir = tmp
    paths = sysconfig.get_paths()
    roots = [sandbox_dir, sys.prefix, sys.base_prefix, sys.exec_prefix, *paths.values(), *SYSTEM_READ_ROOTS,
             os.path.dirname(os.path.abspath(__file__))]
    real = [r for p in roots if p for r in (p, os.path.realpath(p))]
    policy = _Policy(home=os.path.realpath(sandbox_dir) + os.sep, candidate=candidates[0] if candidates else None,
                     trust=Trust(), read_roots=tuple(dict.fromkeys(r.rstrip(os.sep) + os.sep for r in real)),
                     tools=_tool_paths())
    _state["policy"] = policy
    sys.dont_write_bytecode = True
    sys.addaudithook(_hook)


def set_candidate(path: str | None) -> None:
    """Name the candidate file whose line a violation is reported at."""
    if "policy" in _state:
        _state["policy"].candidate = path


def violations() -> list[dict]:
    """Every refused action so far, in order (the child reads the new ones after each item)."""
    policy = _state.get("policy")
    return list(policy.recorded) if policy else []


def guard_threads() -> None:
    """Threads the candidate starts would run outside the torch watch (modes are per thread)."""
    import _thread

    original = _thread.start_new_thread
    if getattr(original, "_passwise_guarded", False):
        return

    def start_new_thread(function, args, kwargs=None):  # noqa: ANN001, ANN202 - _thread's own signature
        policy = _state.get("policy")
        if policy is not None and policy.trust.untrusted_frame(sys._getframe(1)) is not None:
            _refuse("starting a thread")
        return original(function, args, kwargs or {})

    start_new_thread._passwise_guarded = True  # type: ignore[attr-defined]
    _thread.start_new_thread = start_new_thread
    threading._start_new_thread = start_new_thread  # type: ignore[attr-defined]


def started_programs() -> list[str]:
    """Programs the trusted compile path started so far (the child reports the new ones per item)."""
    policy = _state.get("policy")
    return list(policy.started) if policy else []


def _tool_paths() -> frozenset[str]:
    """Executables Triton's own compile (and inductor's) may start: the binaries bundled in the
    installed triton and torch packages, and the C compiler. On the H200, inductor compiles with
    torch's own ptxas (site-packages/torch/bin/ptxas)."""
    found: set[str] = set()
    bindirs: list[Path] = []
    triton, torch = _package_dir("triton"), _package_dir("torch")
    if triton is not None:
        bindirs += (triton / "backends").glob("*/bin")
    if torch is not None:
        bindirs.append(torch / "bin")
    for bindir in bindirs:
        if bindir.is_dir():
            found.update(str(p) for p in bindir.iterdir() if p.is_file())
    for name in (*TOOL_NAMES, os.environ.get("CC") or ""):
        hit = shutil.which(name) if name else None
        if hit:
            found.add(hit)
    found.update({"/sbin/ldconfig", "/usr/sbin/ldconfig", sys.executable})
    return frozenset(os.path.realpath(p) for p in found) | frozenset(found)


def _package_dir(name: str) -> Path | None:
    """An installed package's folder, without importing it (torch may not be loaded yet)."""
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
    return Path(origin).parent if origin else None


def _hook(event: str, args: tuple) -> None:
    handler = _HANDLERS.get(event)
    if handler is None or getattr(_busy, "on", False):
        return
    _busy.on = True
    try:
        problem = handler(_state["policy"], args)
    finally:
        _busy.on = False
    if problem:
        _refuse(problem)


def _refuse(action: str) -> None:
    policy = _state["policy"]
    _busy.on = True
    try:
        frame = policy.trust.untrusted_frame(sys._getframe(2))
        at = where(frame, policy.candidate)
        if frame is None:  # trusted code refused (a program outside the system's folders): say whose
            decider = policy.trust.decider(sys._getframe(2))
            at = f" at {decider.f_code.co_filename}:{decider.f_lineno} (trusted code)" if decider else ""
    finally:
        _busy.on = False
    policy.recorded.append({"action": action, "at": at.removeprefix(" at ") or None})
    raise SandboxViolation(f"passwise sandbox: {action} is not allowed in a candidate")


def _untrusted(policy: _Policy) -> bool:
    """The deciding frame (torch and the stdlib looked through) of the audited action is not trusted."""
    return policy.trust.untrusted_frame(sys._getframe(3)) is not None


PASS_THROUGH = ("inspect.py", "traceback.py", "os.py")  # stdlib modules acting for their caller


def _caller_untrusted(policy: _Policy) -> bool:
    """The frame that performed the action itself is untrusted code (for introspection and patching,
    where torch's own lazy set-up must not be blamed on the candidate further up the stack)."""
    frame = sys._getframe(3)
    while frame is not None and os.path.basename(frame.f_code.co_filename) in PASS_THROUGH \
            and policy.trust.is_transparent(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return False
    name = frame.f_code.co_filename
    return not (policy.trust.is_transparent(name) or policy.trust.is_trusted_file(name))


def _path(arg: object) -> str | None:
    if isinstance(arg, bytes):
        arg = os.fsdecode(arg)
    if isinstance(arg, os.PathLike):
        arg = os.fspath(arg)
    return os.path.realpath(arg) if isinstance(arg, str) else None


def _inside(path: str, roots: tuple[str, ...] | str) -> bool:
    return (path + os.sep).startswith(roots) if isinstance(roots, tuple) else (path + os.sep).startswith(roots)


WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _on_open(policy: _Policy, args: tuple) -> str | None:
    path = _path(args[0])
    if path is None or _inside(path, policy.home) or path == "/dev/null":
        return None
    mode, flags = args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else 0
    writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool((flags or 0) & WRITE_FLAGS)
    if not _untrusted(policy):
        return None
    if writing:
        return f"writing {path}"
    if not _inside(path, policy.read_roots):
        return f"reading {path}"
    return None


def _on_path_change(what: str):
    def check(policy: _Policy, args: tuple) -> str | None:
        paths = [p for p in (_path(a) for a in args[:2]) if p]
        outside = [p for p in paths if not _inside(p, policy.home)]
        return f"{what} {outside[0]}" if outside and _untrusted(policy) else None
    return check


def _on_listdir(policy: _Policy, args: tuple) -> str | None:
    path = _path(args[0] if args and args[0] is not None else ".")
    if path is None or _inside(path, policy.home) or _inside(path, policy.read_roots):
        return None
    return f"listing {path}" if _untrusted(policy) else None


def _program(event_args: tuple) -> str:
    """The program an audited process event starts (subprocess.Popen passes executable=None)."""
    first = event_args[0] if event_args else None
    if isinstance(first, int) and len(event_args) > 1:  # os.spawn: (mode, path, ...)
        first = event_args[1]
    if first is None and len(event_args) > 1:
        argv = event_args[1]
        first = argv if isinstance(argv, str | bytes) else (list(argv)[:1] or [""])[0]
    text = os.fsdecode(first) if isinstance(first, bytes | os.PathLike) else str(first or "")
    return text.split()[0] if text.strip() else ""


def _on_process(policy: _Policy, args: tuple) -> str | None:
    program = _program(args)
    allowed = may_start(program, policy.tools)
    if allowed and not _untrusted(policy):
        policy.started.append(os.path.basename(program) + ("" if allowed == "found" else " (not found)"))
        return None
    name = os.path.basename(program) or "unknown"
    if allowed:
        return f"starting a process ({name})"
    # trusted code asked, but for a program outside the system's folders: say where it was, since
    # that (not the caller) is what a runner maintainer has to look at
    resolved = shutil.which(program) if program and not os.path.isabs(program) else program
    return f"starting a process ({name}, {resolved or 'no path'}, outside the system's program folders)"


def may_start(program: str, tools: frozenset[str]) -> str | None:
    """What trusted code may start: "found" for Triton's tools and installed system programs;
    "absent" for a bare name found nowhere on PATH, which starts nothing (the OS fails it), so
    trusted probes such as inductor asking for `nvcc` on a host without it get that failure, not
    a refusal; None for anything else (a program in a writable folder above all)."""
    found = program if os.path.isabs(program) else shutil.which(program)
    if bool(program) and not os.path.isabs(program) and found is None:
        return "absent"
    path = os.path.abspath(found or program)
    exe = os.path.realpath(path)
    # the path as PATH gave it or its resolved target: /usr/local/cuda/bin/nvcc is a link into
    # /usr/local/cuda-13.0/bin, and the H200's inductor probe was refused for that alone
    return "found" if exe in tools or _installed_program(exe) or _installed_program(path) else None


INSTALLED_DIRS = ("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/opt/nvidia/")


def _installed_program(exe: str) -> bool:
    """A program installed on the system (not one a candidate could have written): trusted code may
    start it. On the H200, torch/Triton's own set-up runs `file`, which no allowlist had foreseen,
    and inductor probes `nvcc` in a versioned CUDA folder (/usr/local/cuda-13.0/bin)."""
    return _installed_dir(os.path.dirname(exe)) and os.path.isfile(exe)


def _installed_dir(folder: str) -> bool:
    """A system program folder: INSTALLED_DIRS and below, or a CUDA toolkit's bin (any version)."""
    folder = folder.rstrip(os.sep) + os.sep
    cuda = folder.startswith("/usr/local/cuda") and folder.endswith("/bin/") and folder.count(os.sep) == 5
    return folder.startswith(INSTALLED_DIRS) or cuda


def _if_untrusted(what: str):
    return lambda policy, args: what if _untrusted(policy) else None


def _if_caller_untrusted(what: str):
    return lambda policy, args: what if _caller_untrusted(policy) else None


def _on_getattr(policy: _Policy, args: tuple) -> str | None:
    name = args[1] if len(args) > 1 else ""
    if name in ("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back") and _caller_untrusted(policy):
        return f"reading {name} (walking the runner's frames)"
    return None


def _on_setattr(policy: _Policy, args: tuple) -> str | None:
    obj, name = args[0], args[1] if len(args) > 1 else ""
    module = getattr(obj, "__module__", "") or ""
    ours = isinstance(module, str) and module.split(".")[0] in ("torch", "triton", "diagnose", "numpy", "builtins")
    if (name == "__code__" or ours) and _caller_untrusted(policy):
        return f"replacing {getattr(obj, '__name__', type(obj).__name__)}.{name}"
    return None


def _on_compile(policy: _Policy, args: tuple) -> str | None:
    filename = args[1] if len(args) > 1 else None
    if isinstance(filename, bytes):
        filename = os.fsdecode(filename)
    if not isinstance(filename, str) or filename.startswith("<"):
        return None
    path = os.path.realpath(filename)
    if _inside(path, policy.home) or not _caller_untrusted(policy):
        return None
    return f"compiling code that claims to be {filename}"


_HANDLERS = {
    "open": _on_open,
    "os.remove": _on_path_change("deleting"), "os.rename": _on_path_change("renaming"),
    "os.mkdir": _on_path_change("creating the folder"), "os.rmdir": _on_path_change("deleting the folder"),
    "os.chmod": _on_path_change("changing the mode of"), "os.chown": _on_path_change("changing the owner of"),
    "os.truncate": _on_path_change("truncating"), "os.symlink": _on_path_change("linking"),
    "os.link": _on_path_change("linking"), "os.utime": _on_path_change("touching"),
    "shutil.rmtree": _on_path_change("deleting"), "os.chdir": _on_path_change("changing directory to"),
    "os.listdir": _on_listdir, "os.scandir": _on_listdir, "glob.glob": _on_listdir,
    "subprocess.Popen": _on_process, "os.system": _on_process, "os.exec": _on_process,
    "os.posix_spawn": _on_process, "os.spawn": _on_process, "pty.spawn": _on_process,
    "os.fork": _if_untrusted("forking the process"), "os.forkpty": _if_untrusted("forking the process"),
    "os.kill": _if_untrusted("sending a signal"), "os.killpg": _if_untrusted("sending a signal"),
    "socket.__new__": _if_untrusted("opening a socket"), "socket.connect": _if_untrusted("connecting a socket"),
    "socket.bind": _if_untrusted("binding a socket"), "socket.sendto": _if_untrusted("sending on a socket"),
    "socket.getaddrinfo": _if_untrusted("resolving a host name"), "socket.gethostbyname": _if_untrusted("resolving a host name"),
    "socket.gethostbyaddr": _if_untrusted("resolving a host name"),
    "sys._getframe": _if_caller_untrusted("reading the call stack (sys._getframe)"),
    "sys._current_frames": _if_caller_untrusted("reading the call stack (sys._current_frames)"),
    "object.__getattr__": _on_getattr, "object.__setattr__": _on_setattr,
    "gc.get_objects": _if_caller_untrusted("reading the heap (gc.get_objects)"),
    "gc.get_referrers": _if_caller_untrusted("reading the heap (gc.get_referrers)"),
    "gc.get_referents": _if_caller_untrusted("reading the heap (gc.get_referents)"),
    "sys.settrace": _if_caller_untrusted("setting a trace function"),
    "sys.setprofile": _if_caller_untrusted("setting a profile function"),
    "code.__new__": _if_caller_untrusted("building a code object"),
    "compile": _on_compile,
    "os.putenv": _if_caller_untrusted("changing the environment"),
    "os.unsetenv": _if_caller_untrusted("changing the environment"),
    "ctypes.dlopen": _if_untrusted("loading a library with ctypes"),
    "ctypes.dlsym": _if_untrusted("looking up a symbol with ctypes"),
    "ctypes.cdata": _if_untrusted("reading raw memory with ctypes"),
    "ctypes.string_at": _if_untrusted("reading raw memory with ctypes"),
    "ctypes.addressof": _if_untrusted("taking an address with ctypes"),
    "ctypes.create_string_buffer": _if_untrusted("using ctypes buffers"),
}
