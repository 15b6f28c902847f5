#!/usr/bin/env bash
# Run scripts/slurm-campaign.sh against a real SLURM: starts a one-node
# cluster on this machine from Debian's packages (munged for
# authentication, slurmctld the controller, slurmd the node daemon, a
# minimal slurm.conf with this machine's cores and memory, all under a
# private temporary directory and on free ports, the system's own munge and
# SLURM configuration left alone), submits a 3-shard campaign of built-in
# nets as a job array, waits for it, merges the shards (`statebench
# merge`), writes the report, and checks that the merged rows give exactly
# the statuses and counts of the same campaign run unsharded. Stops the
# daemons and removes the directory on exit, whatever happens.
#
#   scripts/slurm-local-cluster.sh [--install] [--statebench PATH] [--keep]
#
# --install: apt-get install SLURM (slurmctld, slurmd, slurm-client: the
# daemons and clients of slurm-wlm) and munge when missing (Debian).
# --keep: leave the directory (logs, rows, report) and say where.
# Needs root (the daemons run as root here). Prints "slurm cluster: OK"
# last and exits 0 when the merged rows equal the unsharded run's.
set -euo pipefail

die() { echo "slurm-local-cluster.sh: $*" >&2; exit 1; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
statebench="$root/target/release/statebench" install=0 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=1; shift ;;
    --keep) keep=1; shift ;;
    --statebench) [ $# -ge 2 ] || die "--statebench needs a value"; statebench="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
case "$statebench" in /*) ;; *) statebench="$PWD/$statebench" ;; esac
[ -x "$statebench" ] || die "$statebench is not an executable (cargo build --release, or --statebench PATH)"
[ "$(id -u)" = 0 ] || die "needs root: the SLURM and munge daemons run as root here"
start=$(date +%s)

need=()
for c in munged slurmctld slurmd sbatch squeue scontrol; do command -v "$c" >/dev/null || need+=("$c"); done
if [ ${#need[@]} -gt 0 ]; then
  [ "$install" = 1 ] || die "missing ${need[*]}: apt-get install slurm-wlm munge (or pass --install)"
  # slurm-wlm's daemons and clients without its optional plugins.
  pkgs=(slurmctld slurmd slurm-client munge)
  echo "== installing ${pkgs[*]}"
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" >"$1" 2>&1; }
  apt_install /dev/null || { apt-get update -q >/dev/null && apt_install /dev/stderr; } \
    || die "apt-get install ${pkgs[*]} failed"
fi
echo "== $(slurmctld -V) and $(munged --version 2>&1 | head -1); installed after $(( $(date +%s) - start )) s"

T="$(mktemp -d "${TMPDIR:-/tmp}/statebench-slurm.XXXXXX")"
chmod 755 "$T"
pids=() ours=0
cleanup() {
  local rc=$?
  # Only ever the jobs of the cluster started here.
  if [ "$ours" = 1 ]; then scancel --quiet --user=root 2>/dev/null || true; fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ "$rc" != 0 ]; then
    for log in "$T"/*.log; do [ -f "$log" ] && { echo "--- $log (last lines)"; tail -n 15 "$log"; }; done
  fi
  if [ "$keep" = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Authentication: a private munged with its own key and socket.
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/results"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --foreground --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
  --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/munged.seed" \
  >"$T/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.socket" ] || die "munged did not start"

# The node as slurmd sees it (cores, memory), and a minimal slurm.conf.
host="$(hostname -s)"
node="$(slurmd -C | head -n 1)"
[[ "$node" == NodeName=* ]] || die "slurmd -C gave no node line: $node"
cat >"$T/slurm.conf" <<EOF
ClusterName=statebench
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
$node State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
ours=1
echo "== one-node cluster: $node"
slurmctld -D -f "$SLURM_CONF" -i >"$T/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out.log" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
  up="$(sinfo -h -o '%t' 2>/dev/null || true)"
  [[ "$up" == idle* ]] && break
  sleep 0.2
done
[[ "$up" == idle* ]] || die "the node did not come up (sinfo: '${up:-no answer}')"
echo "== cluster up after $(( $(date +%s) - start )) s (sinfo: $up)"

# The campaign: built-in nets up to 1e5 states, three engines, 3 shards.
run_args=(--suite builtin --max-states 1e5 --engines hash-table,tree,compact-tree --timeout 60 --mem-limit 1)
out="$(bash "$root/scripts/slurm-campaign.sh" --shards 3 --name sharded --results "$T/results" \
  --statebench "$statebench" -- "${run_args[@]}")"
echo "$out"
job="$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' <<<"$out")"
[ -n "$job" ] || die "no job id in sbatch's answer"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h -j "$job")" ] || die "the array $job did not finish within 120 s"
states="$(scontrol show job "$job" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort | uniq -c | tr -s ' ')"
echo "== array $job finished after $(( $(date +%s) - start )) s:$states"
[ "$(grep -c . <<<"$states")" = 1 ] && grep -q "3 COMPLETED" <<<"$states" \
  || { cat "$T/results"/sharded-slurm-*.out; die "the 3 array tasks did not all complete"; }

merge="$(sed -n 's/^  \(.* merge .*\)/\1/p' <<<"$out")"
report="$(sed -n 's/^  \(.* report .*\)/\1/p' <<<"$out")"
[ -n "$merge" ] && [ -n "$report" ] || die "slurm-campaign.sh printed no merge and report commands"
eval "$merge"
eval "$report" >"$T/report.log" 2>&1
test -s "$T/results/sharded/report.html" || die "no report.html"

"$statebench" run "${run_args[@]}" --campaign unsharded --results "$T/results" --no-report \
  >"$T/unsharded.log" 2>&1 || die "the unsharded run failed (see $T/unsharded.log)"
python3 - "$T/results/sharded/runs.csv" "$T/results/unsharded/runs.csv" <<'EOF'
import csv, sys
def runs(path):
    rows = list(csv.DictReader(open(path)))
    key = lambda r: (r["suite"], r["instance"], r["engine"], r["engine_config"], r["threads"], r["repetition"])
    out = {key(r): (r["status"], r["states"], r["transitions"], r["states_match"]) for r in rows}
    if len(out) != len(rows):
        sys.exit(f"{path}: a run twice")
    return out
merged, whole = runs(sys.argv[1]), runs(sys.argv[2])
differ = sorted(k for k in merged.keys() | whole.keys() if merged.get(k) != whole.get(k))
for k in differ:
    print(f"differs: {k}: merged {merged.get(k)}, unsharded {whole.get(k)}")
ok = sum(1 for v in whole.values() if v[0] == "ok" and v[3] == "true")
if differ or not whole or ok != len(whole):
    sys.exit(f"merged and unsharded rows differ ({len(differ)} runs) or not all ok and equal to the oracle")
print(f"== merged rows equal the unsharded run's: {len(whole)} runs, all ok and equal to the oracle")
EOF
echo "slurm cluster: OK in $(( $(date +%s) - start )) s"
