#!/usr/bin/env bash
# Test scripts/slurm-campaign.sh without SLURM: the --dry-run batch script
# (array, per-shard campaigns, run arguments passed through intact), its
# tasks run against a fake statebench, a submission through a fake sbatch,
# and argument errors. With STATEBENCH_BIN=path/to/statebench it also runs
# the three tasks with the real binary on two tiny built-in nets and the
# printed merge command. Prints "N passed, N failed" last; exits non-zero
# on any failure.
set -uo pipefail

SCRIPT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/slurm-campaign.sh"
T="$(mktemp -d "${TMPDIR:-/tmp}/statebench-slurm-test.XXXXXX")"
trap 'rm -rf "$T"' EXIT

# shellcheck source=test-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/test-lib.sh"
run() { OUT="$(bash "$SCRIPT" "$@" 2>&1)"; RC=$?; }
lacks() { ! grep -qF -- "$1" <<<"$OUT"; }

# A fake statebench: records its arguments, one per line, per task.
mkdir -p "$T/bin"
cat >"$T/bin/statebench" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_LOG.$SLURM_ARRAY_TASK_ID"
EOF
chmod +x "$T/bin/statebench"
cat >"$T/bin/sbatch" <<'EOF'
#!/usr/bin/env bash
cp "$1" "$FAKE_LOG.submitted"
echo "Submitted batch job 4242"
EOF
chmod +x "$T/bin/sbatch"
export FAKE_LOG="$T/log"

# --- dry run -----------------------------------------------------------------
run --shards 3 --name camp --results "$T/res" --statebench "$T/bin/statebench" \
  --sbatch-arg --time=01:00:00 --dry-run -- --suite builtin --models 'kanban-*,mutex 4' --timeout 60
expect "dry run: exit 0" test "$RC" -eq 0
expect "dry run: array of 3 tasks" has "#SBATCH --array=1-3"
expect "dry run: job name" has "#SBATCH --job-name=camp"
expect "dry run: sbatch arguments passed" has "#SBATCH --time=01:00:00"
expect "dry run: shard of the task" has "--shard \"\$SLURM_ARRAY_TASK_ID/3\""
expect "dry run: per-shard campaign" has "--campaign \"camp-shard\$SLURM_ARRAY_TASK_ID\""
expect "dry run: merge command of the 3 shards" \
  has "merge $T/res/camp/runs.csv $T/res/camp-shard1/runs.csv $T/res/camp-shard2/runs.csv $T/res/camp-shard3/runs.csv"
expect "dry run: nothing written" test ! -e "$T/res"
printf '%s\n' "$OUT" | sed '/^# after the array finishes:/,$d' >"$T/job.sh"

# Run the printed batch script as SLURM would, once per task.
for i in 1 2 3; do SLURM_ARRAY_TASK_ID=$i bash "$T/job.sh" >/dev/null 2>&1; done
for i in 1 2 3; do
  want="$(printf '%s\n' run --shard "$i/3" --campaign "camp-shard$i" --results "$T/res" --no-report \
    --suite builtin --models 'kanban-*,mutex 4' --timeout 60)"
  got="$(cat "$FAKE_LOG.$i" 2>/dev/null)"
  OUT="want:
$want
got:
$got"
  expect "task $i: statebench run with shard $i/3 and the run arguments intact" test "$want" = "$got"
done
OUT="$(bash "$T/job.sh" 2>&1)"; RC=$?
expect "batch script outside SLURM: refused" test "$RC" -ne 0
expect "batch script outside SLURM: says why" has "SLURM_ARRAY_TASK_ID"

# --- submission through a fake sbatch ----------------------------------------
OUT="$(PATH="$T/bin:$PATH" bash "$SCRIPT" --shards 2 --name sub --results "$T/res" \
  --statebench "$T/bin/statebench" -- --engines hash-table 2>&1)"; RC=$?
expect "submit: exit 0" test "$RC" -eq 0
expect "submit: sbatch ran" has "Submitted batch job 4242"
expect "submit: script kept beside the results" test -s "$T/res/sub.sbatch"
expect "submit: sbatch got that script" cmp -s "$T/res/sub.sbatch" "$FAKE_LOG.submitted"
expect "submit: merge command printed" has "merge $T/res/sub/runs.csv $T/res/sub-shard1/runs.csv $T/res/sub-shard2/runs.csv"
OUT="$(PATH="$T/bin:$PATH" bash "$SCRIPT" --shards 2 --name sub --results "$T/res" \
  --statebench "$T/bin/statebench" -- --engines hash-table 2>&1)"; RC=$?
expect "resubmit same name: refused" test "$RC" -eq 2
expect "resubmit same name: says --resume" has "--resume"
OUT="$(PATH="$T/bin:$PATH" bash "$SCRIPT" --shards 2 --name sub --results "$T/res" \
  --statebench "$T/bin/statebench" -- --resume 2>&1)"; RC=$?
expect "resubmit with --resume: accepted" test "$RC" -eq 0
if ! command -v sbatch >/dev/null; then
  run --shards 2 --name nosl --results "$T/res" --statebench "$T/bin/statebench"
  expect "no sbatch: exit 2" test "$RC" -eq 2
  expect "no sbatch: says so" has "sbatch not found"
fi

# --- argument errors ---------------------------------------------------------
run --dry-run;                              expect "no --shards: exit 2" test "$RC" -eq 2
expect "no --shards: says so" has "--shards N is required"
run --shards 0 --dry-run;                   expect "--shards 0: exit 2" test "$RC" -eq 2
run --shards x --dry-run;                   expect "--shards x: exit 2" test "$RC" -eq 2
expect "--shards x: names the value" has "'x'"
run --shards 2 --dry-run -- --shard 1/2;    expect "--shard in run args: exit 2" test "$RC" -eq 2
expect "--shard in run args: says why" has "set by this script"
run --shards 2 --dry-run -- --campaign=c;   expect "--campaign in run args: exit 2" test "$RC" -eq 2
run --shards 2 --bogus;                     expect "unknown option: exit 2" test "$RC" -eq 2
run --shards 2 --name 'a b' --dry-run;      expect "bad --name: exit 2" test "$RC" -eq 2

# --- optional: the real statebench --------------------------------------------
if [ -n "${STATEBENCH_BIN:-}" ]; then
  BIN="$(cd "$(dirname "$STATEBENCH_BIN")" && pwd)/$(basename "$STATEBENCH_BIN")"
  run --shards 3 --name real --results "$T/real" --statebench "$BIN" --dry-run -- \
    --suite builtin --models 'mutex-4,token-ring-4-3' --engines hash-table,tree --timeout 60
  printf '%s\n' "$OUT" | sed '/^# after the array finishes:/,$d' >"$T/real.sh"
  merge_cmd="$(sed -n 's/^# \(.* merge .*\)$/\1/p' <<<"$OUT")"
  for i in 1 2 3; do SLURM_ARRAY_TASK_ID=$i bash "$T/real.sh" >"$T/real-$i.log" 2>&1; done
  OUT="$(eval "$merge_cmd" 2>&1)"; RC=$?
  expect "real: merge of the 3 shards (one of them empty): exit 0" test "$RC" -eq 0
  expect "real: merged 4 rows (2 nets x 2 engines)" has "merged 4 rows from 3 files"
  OUT="$(cat "$T"/real-*.log)"
  expect "real: the empty shard warns" has "warning: shard 3/3 has no instance"
fi

summary
