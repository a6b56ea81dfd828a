"""`python -m diagnose.profiling BENCH.json [PROFILE.json]`: tier 2 on the CPU side over the JSON
the device runner wrote; prints the TierResult as JSON."""

from __future__ import annotations

import argparse
import sys

from diagnose.profiling.msprof import MsprofError

from .ascend import AscendCores
from .inputs import ProfileError, load_json
from .tier import profile_tier


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m diagnose.profiling", description=__doc__)
    p.add_argument("bench", nargs="?", help="JSON of `python -m diagnose.runner bench`")
    p.add_argument("profile", nargs="?", help="JSON of `python -m diagnose.runner profile`")
    p.add_argument("--backend", choices=("cuda", "ascend"), default="cuda")
    p.add_argument("--msprof", help="Ascend: an OPPROF_* folder or a kernel_details.csv")
    p.add_argument("--cores", help="Ascend: CUBE,VECTOR physical core counts, e.g. 24,48")
    args = p.parse_args(argv)
    try:
        cores = _cores(args.cores)
        result = profile_tier(load_json(args.bench) if args.bench else None,
                              load_json(args.profile) if args.profile else None,
                              backend=args.backend, msprof=args.msprof, ascend_cores=cores)
    except (ProfileError, MsprofError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(result.to_json())
    return 0


def _cores(text: str | None) -> AscendCores | None:
    if not text:
        return None
    try:
        cube, vector = (int(x) for x in text.split(","))
    except ValueError:
        raise ProfileError(f"--cores {text!r} is not CUBE,VECTOR; pass two integers such as 24,48.") from None
    return AscendCores(cube=cube, vector=vector)


if __name__ == "__main__":
    sys.exit(main())
