#!/bin/bash
# One device call: time the given CUDA cases (gpu_timing.py) and bench + ncu-profile their slow kernels
# (bench_slow_on_device.py), results under $OUT (the runner JSON tarred, the device tool brings back 8 files).
#   bash bench/defects/device_round.sh TAG BUDGET_S CASE...
# BENCH="case ..." benches those cases instead of the timed ones; PROFILE=0 leaves ncu out.
set -u
tag=$1; budget=$2; shift 2
date -u
python bench/defects/gpu_timing.py "$OUT/gpu_timing_h200_$tag.json" "$@" --warm-workers 10 > "$OUT/timing.log" 2>&1
tail -40 "$OUT/timing.log"
mkdir -p "$OUT/runner"
flag=--profile; [ "${PROFILE:-1}" = 0 ] && flag=
# shellcheck disable=SC2086
python bench/defects/bench_slow_on_device.py "$OUT/runner" ${BENCH:-"$@"} $flag --budget "$budget" > "$OUT/runner.log" 2>&1
tail -5 "$OUT/runner.log"
(cd "$OUT" && tar czf runner.tgz runner && rm -rf runner)
date -u
