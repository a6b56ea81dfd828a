#!/usr/bin/env bash
# Run the whole test suite in the project's virtual environment (make test calls this).
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export PASSWISE_TEST_CACHE=${PASSWISE_TEST_CACHE:-$PWD/.passwise-test-cache}
"$VENV/bin/ruff" check . || exit 1
# Two workers (pytest-xdist): tests sharing an expensive fixture stay on one worker
# (tests/conftest.py groups them); PASSWISE_TEST_WORKERS=0 runs in this process alone.
WORKERS=${PASSWISE_TEST_WORKERS:-2}
PARALLEL=()
if [ "$WORKERS" != 0 ]; then PARALLEL=(-n "$WORKERS" --dist loadgroup --no-loadscope-reorder); fi
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "${PARALLEL[@]}" "$@"
rc=$?
# pytest's 5 means "no tests collected": that is a failure of the suite, say so plainly.
if [ $rc -eq 5 ]; then echo "no tests were collected" >&2; exit 1; fi
exit $rc
