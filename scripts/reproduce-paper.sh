#!/usr/bin/env bash
# Rerun every campaign whose rows ARTIFACT.md's claims quote, on this
# machine or as SLURM job arrays, then merge the rows and draw the paper's
# figures from them.
#
#   scripts/reproduce-paper.sh [--results DIR] [--only NAME,...] [--list]
#       [--plan] [--slurm SHARDS] [--statebench PATH] [--dry-run]
#
# --results DIR   where the campaigns go (default results/reproduced; the
#                 committed rows in results/paper stay as they are)
# --only NAMES    only these campaigns (see --list)
# --list          print the campaigns and their `statebench run` arguments
# --plan          ask `statebench run --plan` how many runs each would make
# --slurm N       submit each campaign as a job array of N shards through
#                 scripts/slurm-campaign.sh instead of running it here; the
#                 merge and report commands are printed for when they end
# --dry-run       print the commands instead of running them
#
# A campaign killed half-way keeps its rows: running this again resumes it
# (`statebench run --resume`). The campaigns run one after the other on
# the local machine; ARTIFACT.md ("Reproducing every claim") gives the time
# each took here. At the end, `statebench compare` sets the new rows
# against the committed ones (results/paper): count and status changes,
# and times or memory beyond its tolerances.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "reproduce-paper.sh: $*" >&2; exit 2; }

# The Compact Tree as the paper configures it (the model's slot order, node
# tables that double): the
# committed rows of these campaigns predate the `slot_order` parameter.
paper_ct="--param compact-tree.slot_order=model --param compact-tree.node_growth=double"
explicit="hash-table,collapse,trie,tree,compact-tree"
dd_sweep="--engines bdd,mdd --param mdd.encoding=onehot --sweep bdd.strategy=saturation,bfs --sweep mdd.strategy=saturation,bfs --sweep-where-first-finished --timeout 180 --mem-limit 10"
# Issue 34: today's Compact Tree defaults side by side with the paper's
# configuration, in one campaign.
ct_sides="--sweep compact-tree.slot_order=sample,model --sweep compact-tree.node_growth=fine,double"
speed_models="at.3,blocks.3,brp.3,extinction.2,frogs.3,hanoi.2,lamport.6,leader_filters.5,peg_solitaire.4,peterson.4,phils.5,reader_writer.3,rether.7,sokoban.2,sorter.3,telephony.3"

# NAME|THE COMMITTED CAMPAIGNS IN results/paper|ARGUMENTS of `statebench run`
# (the committed campaign's settings).
campaigns=(
  "threads-beem|threads-beem threads-beem-rest1 threads-beem-rest2 threads-beem-sokoban3 threads-beem-htfix|--suite beem --engines $explicit $paper_ct --threads 1,2 --threads-where-first-finished --engines-where-first-finished --timeout 180 --mem-limit 10"
  "mcc-explicit|mcc-explicit|--suite mcc --max-states 1e7 --engines $explicit $paper_ct --engines-where-first-finished --timeout 180 --mem-limit 6"
  "dd-mcc|dd-mcc|--suite mcc $dd_sweep"
  "dd-beem|dd-beem dd-beem-tail|--suite beem $dd_sweep"
  "speedup|speedup|--suite beem --min-states 1e6 --max-states 1e7 --engines hash-table,tree,compact-tree $paper_ct --threads 1,2 --timeout 180"
  "speed|speed|--suite beem-promela --models $speed_models --engines hash-table,compact-tree,spin,spin-collapse --timeout 120 --mem-limit 8"
  "mcrl2-engines|mcrl2-engines|--suite mcrl2 --max-states 1e6 --engines $explicit,comback-ddd,bdd,mdd $paper_ct --timeout 600 --mem-limit 8"
  "b-engines|b-engines-1e3-1e5 b-engines-lt1e3 b-engines-lt1e3-fix|--suite b,eventb --max-states 1e5 --engines $explicit,comback-ddd,bdd,mdd $paper_ct --timeout 60 --mem-limit 8"
  "ct-defaults-beem|ct-defaults-beem-1e5-1e6 ct-defaults-beem-1e6-1e7 ct-defaults-beem-rechosen|--suite beem --min-states 100001 --max-states 1e7 --engines compact-tree $ct_sides --timeout 300 --mem-limit 8"
  "ct-defaults-mcc|ct-defaults-mcc-1e5-1e6 ct-defaults-mcc-1e6-1e7-shard1of4 ct-defaults-mcc-1e6-1e7-shard2of4 ct-defaults-mcc-1e6-1e7-shard3of4 ct-defaults-mcc-1e6-1e7-shard4of4 ct-defaults-mcc-rechosen|--suite mcc --min-states 100001 --max-states 1e7 --engines compact-tree $ct_sides --timeout 300"
  "ct-spin-ma|ct-spin-ma-1e5-1e6-vmhwm|--suite beem-promela --min-states 100001 --max-states 1e6 --engines compact-tree,spin-ma --timeout 300 --mem-limit 6"
  "dd-beem-promela|dd-beem-promela-le1e5|--suite beem-promela --max-states 1e5 --engines bdd,mdd --timeout 180 --mem-limit 4"
  "b-explicit-ge1e5|b-explicit-ge1e5 b-explicit-ge1e5-rest b-explicit-ge1e5-train0|--suite b,eventb --min-states 1e5 --engines $explicit --engines-where-first-finished --timeout 180 --mem-limit 6"
  "promela-explicit|promela-explicit-lt1e5 promela-explicit-1e5-1e6 promela-explicit-1e6-1e7-shard1of2 promela-explicit-1e6-1e7-shard2of2|--suite beem-promela --max-states 1e7 --engines $explicit,spin,spin-collapse,spin-ma --engines-where-first-finished --timeout 180 --mem-limit 8"
)

results="results/reproduced" only="" list=0 plan=0 slurm="" dry_run=0 statebench=""
while [ $# -gt 0 ]; do
  case "$1" in
    --results) [ $# -ge 2 ] || die "--results needs a value"; results="$2"; shift 2 ;;
    --only) [ $# -ge 2 ] || die "--only needs a value"; only="$2"; shift 2 ;;
    --list) list=1; shift ;;
    --plan) plan=1; shift ;;
    --slurm) [ $# -ge 2 ] || die "--slurm needs a shard count"; slurm="$2"; shift 2 ;;
    --statebench) [ $# -ge 2 ] || die "--statebench needs a value"; statebench="$2"; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
if [ -n "$slurm" ] && ! [[ "$slurm" =~ ^[1-9][0-9]*$ ]]; then die "--slurm: '$slurm' is no shard count"; fi

selected=()
for c in "${campaigns[@]}"; do
  name="${c%%|*}"
  if [ -z "$only" ] || [[ ",$only," == *",$name,"* ]]; then selected+=("$c"); fi
done
for want in ${only//,/ }; do
  printf '%s\n' "${campaigns[@]}" | grep -q "^$want|" || die "--only: no campaign '$want' (see --list)"
done

if [ "$list" = 1 ]; then
  for c in "${selected[@]}"; do rest="${c#*|}"; echo "${c%%|*} (committed: ${rest%%|*}): statebench run ${rest#*|}"; done
  exit 0
fi

if [ -z "$statebench" ]; then
  [ "$dry_run" = 1 ] || cargo build --release -q -p statebench
  statebench=target/release/statebench
fi
run() {
  if [ "$dry_run" = 1 ]; then echo "$*"; else "$@"; fi
}

csvs=() committed=()
for c in "${selected[@]}"; do
  name="${c%%|*}"
  rest="${c#*|}"
  read -r -a args <<< "${rest#*|}"
  for d in ${rest%%|*}; do committed+=("results/paper/$d/runs.csv"); done
  if [ "$plan" = 1 ]; then
    run "$statebench" run "${args[@]}" --results "$results" --campaign "$name" --plan
  elif [ -n "$slurm" ]; then
    run scripts/slurm-campaign.sh --shards "$slurm" --name "$name" --results "$results" \
      --statebench "$statebench" -- "${args[@]}"
    for i in $(seq 1 "$slurm"); do csvs+=("$results/$name-shard$i/runs.csv"); done
  else
    resume=()
    [ -f "$results/$name/runs.csv" ] && resume=(--resume)
    if [ "${#resume[@]}" = 1 ]; then
      run "$statebench" run --resume --campaign "$name" --results "$results"
    else
      run "$statebench" run "${args[@]}" --results "$results" --campaign "$name"
    fi
    csvs+=("$results/$name/runs.csv")
  fi
done
[ "$plan" = 1 ] && exit 0

# The new rows against the committed ones: count or status changes, and
# time or memory beyond the tolerances, per run (`statebench compare`).
steps=(
  "$statebench merge --rerun-replaces $results/paper.csv ${csvs[*]}"
  "$statebench report $results/paper.csv --out $results/paper --min-states 1e5"
  "$statebench merge --rerun-replaces $results/committed.csv ${committed[*]}"
  "$statebench compare $results/committed.csv $results/paper.csv"
)
if [ -n "$slurm" ]; then
  echo "when the arrays have ended:"
  printf '  %s\n' "${steps[@]}"
else
  for step in "${steps[@]}"; do
    read -r -a cmd <<< "$step"
    run "${cmd[@]}"
  done
fi
