#!/usr/bin/env bash
# Nightly regression run of statebench: a fixed campaign, the criterion
# micro-benchmarks, and a comparison of the campaign with a baseline.
#
#   bash scripts/nightly.sh [--quick] [--results DIR] [--baseline CSV]
#                           [--campaign NAME] [--no-bench] [--init-baseline]
#
# Steps:
#   1. cargo build --release
#   2. statebench run --suite builtin,beem --max-states 2e5
#        --engines hash-table,collapse,trie,tree,compact-tree --repetitions 3
#        --campaign nightly-YYYY-MM-DD --results DIR
#      (--quick: three small built-in nets, 1 repetition: a smoke test of
#      this script in about a minute)
#   3. cargo bench -p statebench --bench engines --bench frontends
#      (--quick: criterion's --test mode, every benchmark run once); the
#      output goes to DIR/CAMPAIGN/bench/criterion.log and criterion's own
#      reports (target/criterion) are copied to DIR/CAMPAIGN/bench/criterion/
#   4. statebench compare BASELINE DIR/CAMPAIGN/runs.csv
#        --time-tolerance $TIME_TOLERANCE --memory-tolerance $MEMORY_TOLERANCE
#
# Exit status: compare's (0: no regression beyond the tolerances); when
# compare passes but the campaign itself failed (a count disagreed with its
# oracle, a run crashed), the campaign's non-zero status. Without a
# baseline file the script says so and exits 3, or with --init-baseline
# copies the new runs.csv there and exits 0 (the first night).
#
# Options may also be given as environment variables (flags win):
#   STATEBENCH_RESULTS   results directory          (default: results)
#   STATEBENCH_BASELINE  baseline campaign CSV       (default: results/baseline/runs.csv)
#   STATEBENCH_CAMPAIGN  campaign name               (default: nightly-$(date +%F), nightly-quick-... with --quick)
#   TIME_TOLERANCE       compare's --time-tolerance   (default: 100%, the noise
#                        of the shared VM the baseline ran on; see
#                        results/baseline/MACHINE.md)
#   MEMORY_TOLERANCE     compare's --memory-tolerance (default: 1%)
#   STATEBENCH_DATA      where model files are looked up first (DESIGN.md, "Datasets")
#   CARGO_TARGET_DIR     cargo's target directory     (default: target)
#   STATEBENCH_BIN       the statebench binary        (default: $CARGO_TARGET_DIR/release/statebench)
set -euo pipefail
cd "$(dirname "$0")/.."

results="${STATEBENCH_RESULTS:-results}"
baseline="${STATEBENCH_BASELINE:-results/baseline/runs.csv}"
campaign="${STATEBENCH_CAMPAIGN:-}"
time_tol="${TIME_TOLERANCE:-100%}"
mem_tol="${MEMORY_TOLERANCE:-1%}"
quick=no
bench=yes
init_baseline=no
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=yes ;;
    --no-bench) bench=no ;;
    --init-baseline) init_baseline=yes ;;
    --results) results="${2:?--results needs a directory}"; shift ;;
    --baseline) baseline="${2:?--baseline needs a CSV path}"; shift ;;
    --campaign) campaign="${2:?--campaign needs a name}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "nightly: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$campaign" ]; then
  if [ "$quick" = yes ]; then campaign="nightly-quick-$(date +%F)"; else campaign="nightly-$(date +%F)"; fi
fi
target="${CARGO_TARGET_DIR:-target}"
statebench="${STATEBENCH_BIN:-$target/release/statebench}"
out="$results/$campaign"

echo "== nightly: build"
cargo build --release -q

echo "== nightly: campaign $campaign -> $out"
if [ "$quick" = yes ]; then
  selection=(--suite builtin --models 'kanban-1,mutex-4,philosophers-3' --repetitions 1)
else
  selection=(--suite builtin,beem --max-states 2e5 --repetitions 3)
fi
run_rc=0
# A campaign of the same name (a rerun the same day) is continued, not mixed.
resume=()
[ -s "$out/runs.csv" ] && resume=(--resume)
"$statebench" run "${selection[@]}" \
  --engines hash-table,collapse,trie,tree,compact-tree \
  --timeout 300 --campaign "$campaign" --results "$results" "${resume[@]}" || run_rc=$?
[ "$run_rc" = 0 ] || echo "nightly: the campaign exited with $run_rc (oracle mismatch or failed run: see $out)" >&2
if [ ! -s "$out/runs.csv" ]; then
  echo "nightly: the campaign wrote no $out/runs.csv" >&2
  exit "$([ "$run_rc" != 0 ] && echo "$run_rc" || echo 1)"
fi

if [ "$bench" = yes ]; then
  echo "== nightly: criterion benchmarks -> $out/bench"
  mkdir -p "$out/bench"
  bench_args=()
  [ "$quick" = yes ] && bench_args=(-- --test)
  bench_rc=0
  cargo bench -p statebench --bench engines --bench frontends "${bench_args[@]}" \
    > "$out/bench/criterion.log" 2>&1 || bench_rc=$?
  if [ -d "$target/criterion" ]; then
    rm -rf "$out/bench/criterion"
    cp -r "$target/criterion" "$out/bench/criterion"
  fi
  if [ "$bench_rc" != 0 ]; then
    tail -n 40 "$out/bench/criterion.log" >&2
    echo "nightly: the benchmarks failed ($bench_rc)" >&2
    [ "$run_rc" != 0 ] || run_rc=$bench_rc
  fi
fi

if [ ! -f "$baseline" ]; then
  if [ "$init_baseline" = yes ]; then
    mkdir -p "$(dirname "$baseline")"
    cp "$out/runs.csv" "$baseline"
    echo "nightly: no baseline: $out/runs.csv is now the baseline ($baseline)"
    exit "$run_rc"
  fi
  echo "nightly: no baseline at $baseline (adopt this run with: cp $out/runs.csv $baseline, or rerun with --init-baseline)" >&2
  exit 3
fi

echo "== nightly: compare $baseline $out/runs.csv"
compare_rc=0
"$statebench" compare "$baseline" "$out/runs.csv" \
  --time-tolerance "$time_tol" --memory-tolerance "$mem_tol" || compare_rc=$?
if [ "$compare_rc" = 0 ] && [ "$run_rc" != 0 ]; then
  exit "$run_rc"
fi
exit "$compare_rc"
