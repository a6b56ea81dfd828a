#!/usr/bin/env bash
# The whole suite as CI runs it (scripts/test.sh's pytest: 2 xdist workers, loadgroup), timed, with
# every test's duration and each result line stamped with the second it arrived (per-worker timeline).
# Usage: bash bench/ci/measure.sh OUT.txt   (run from the repository root; ~15 min on 2 cores)
set -uo pipefail
OUT=${1:?usage: bash bench/ci/measure.sh OUT.txt}
PY=${PY:-.venv/bin/python}
{ time "$PY" -m pytest -v -p no:cacheprovider -n 2 --dist loadgroup --no-loadscope-reorder \
    --durations=0 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(date +%s)" "$l"; done > "$OUT"; } \
  2> "$OUT.time"
tail -1 "$OUT"; cat "$OUT.time"
