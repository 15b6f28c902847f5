#!/usr/bin/env bash
# Submit a statebench campaign as a SLURM job array: task I of N runs
# `statebench run --shard I/N` (whole instances per shard, see
# harness/src/shard.rs) as campaign NAME-shardI under RESULTS, with the same
# run arguments (limits, suites, engines...) in every task. Prints the
# `statebench merge` command that joins the shards once the array is done.
#
#   scripts/slurm-campaign.sh --shards N [--name NAME] [--results DIR]
#       [--statebench PATH] [--sbatch-arg ARG]... [--dry-run] [-- RUN-ARGS...]
#
# --dry-run prints the batch script instead of submitting it (no SLURM
# needed). RUN-ARGS are passed to `statebench run` unchanged; --shard,
# --campaign and --results are set by this script and refused there.
# Resubmitting the same NAME with RUN-ARGS `--resume` continues unfinished
# shards (each keeps its campaign.json settings).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}
die() { echo "slurm-campaign.sh: $*" >&2; exit 2; }

shards="" name="" results="results" statebench="" dry_run=0
sbatch_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) [ $# -ge 2 ] || die "--shards needs a value"; shards="$2"; shift 2 ;;
    --name) [ $# -ge 2 ] || die "--name needs a value"; name="$2"; shift 2 ;;
    --results) [ $# -ge 2 ] || die "--results needs a value"; results="$2"; shift 2 ;;
    --statebench) [ $# -ge 2 ] || die "--statebench needs a value"; statebench="$2"; shift 2 ;;
    --sbatch-arg) [ $# -ge 2 ] || die "--sbatch-arg needs a value"; sbatch_args+=("$2"); shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) die "unknown option '$1' (run arguments go after --; see --help)" ;;
  esac
done
run_args=("$@")

[ -n "$shards" ] || die "--shards N is required"
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards must be a positive integer, got '$shards'"
for a in "${run_args[@]}"; do
  case "$a" in
    --shard|--shard=*|--campaign|--campaign=*|--results|--results=*)
      die "run argument '$a' is set by this script (use --name / --results)" ;;
  esac
done
[ -n "$name" ] || name="statebench-$(date -u +%Y%m%dT%H%M%S)"
[[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || die "--name may hold only letters, digits and . _ + -"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -n "$statebench" ] || statebench="$root/target/release/statebench"
case "$statebench" in /*) ;; *) statebench="$PWD/$statebench" ;; esac
case "$results" in /*) ;; *) results="$PWD/$results" ;; esac

q() { printf '%q' "$1"; }
script="#!/usr/bin/env bash
#SBATCH --job-name=$name
#SBATCH --array=1-$shards
#SBATCH --output=$results/$name-slurm-%a.out"
for a in "${sbatch_args[@]}"; do
  script+="
#SBATCH $a"
done
run_line="exec $(q "$statebench") run --shard \"\$SLURM_ARRAY_TASK_ID/$shards\" --campaign \"$name-shard\$SLURM_ARRAY_TASK_ID\" --results $(q "$results") --no-report"
for a in "${run_args[@]}"; do run_line+=" $(q "$a")"; done
script+="
set -euo pipefail
: \"\${SLURM_ARRAY_TASK_ID:?not a SLURM array task}\"
$run_line
"

merge="$(q "$statebench") merge $(q "$results/$name/runs.csv")"
for i in $(seq 1 "$shards"); do merge+=" $(q "$results/$name-shard$i/runs.csv")"; done

if [ "$dry_run" = 1 ]; then
  printf '%s' "$script"
  echo "# after the array finishes:"
  echo "# $merge"
  echo "# $(q "$statebench") report $(q "$results/$name")"
  exit 0
fi

command -v sbatch >/dev/null || die "sbatch not found (no SLURM here?); --dry-run prints the batch script"
[ -x "$statebench" ] || die "$statebench is not an executable (cargo build --release, or --statebench PATH)"
mkdir -p "$results"
file="$results/$name.sbatch"
[ ! -e "$file" ] || grep -q -- '--resume' <<<"${run_args[*]:-}" \
  || die "$file exists (campaign $name already submitted); pass -- --resume to continue it or choose another --name"
printf '%s' "$script" >"$file"
sbatch "$file"
echo "submitted $file: $shards shards of campaign $name"
echo "after the array finishes:"
echo "  $merge"
echo "  $(q "$statebench") report $(q "$results/$name")"
