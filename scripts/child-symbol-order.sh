#!/usr/bin/env bash
# Writes harness/child-symbols.order: the functions of the lean engine
# child (target/release/statebench-child) that a run executes, which the
# linker then lays out together at the start of its code (harness/build.rs,
# lld's --symbol-ordering-file).
#
#   scripts/child-symbol-order.sh [--check | --refresh] [CALLGRIND.out...]
#
# Why: the kernel maps a file's pages 64 KiB at a time around each page a
# program touches (fault-around), and peak RSS counts them. In link order,
# the 0.4 MB of code a Promela run executes lies spread over 1.8 MiB of
# the child's 3.6 MiB of code; packed, it takes about a third of that
# (schedule_world.2: the file-backed pages at the peak 3.6 -> 2.4 MiB).
#
# How: callgrind runs the child on a few models (the BEEM Promela models
# below with compact-tree, the engine measured against SPIN; then the
# built-in nets with the default engines), each run's profile cut in
# parts where the child drops its code pages (harness/src/resident.rs:
# after loading, after the engine's set-up, at the end of the search).
# The functions the searches executed come first, then those of the
# reports, then those of loading and set-up, whose pages the child drops
# before its search: the search's code then lies in the fewest 64 KiB
# windows (extinction.2: 10 windows of 139 pages resident at the peak with
# one list for all phases). Within a phase, each run's functions are
# listed the costliest first, each run's new ones after the previous
# runs'. Names are the mangled symbols of this build: a rustc or
# dependency change renames them (the hash in each name), and the linker
# then skips the names it does not find (the layout falls back to link
# order, nothing breaks). --check counts how many listed names the built
# child still defines; rerun this script when that falls. --refresh first
# renames the names that differ from the build's only by their `.llvm.N`
# suffix (a rebuild of their crate changes it), then checks; relink the
# child after it with the build the tests and CI use (cargo build
# --release --workspace --all-targets): a `-p statebench` build unifies
# other crate features, which renames the generic functions (session 36:
# 420 of 667 names found after it, 667 of 667 after the workspace build).
#
# Needs valgrind and the BEEM Promela files (../shared/datasets/beem/promela
# or $PROMELA_DIR); a release build of statebench-child first.
set -euo pipefail
cd "$(dirname "$0")/.."
child=target/release/statebench-child
order=harness/child-symbols.order
[ -x "$child" ] || { echo "child-symbol-order.sh: build $child first" >&2; exit 2; }

defined() { nm --defined-only "$child" | awk 'tolower($2) == "t" { print $3 }' | sort -u; }

if [ "${1:-}" = "--refresh" ]; then
    # Renames the listed functions whose name in this build differs only
    # by the `.llvm.N` suffix that promoted local functions get (it
    # changes with their crate's code, e.g. the build id a rebuild
    # stamps), so that the layout keeps them; no callgrind run.
    python3 - "$order" <(defined) <<'EOF'
import re, sys
order, defined = sys.argv[1], open(sys.argv[2]).read().split()
bare = lambda n: re.sub(r"\.llvm\.\d+$", "", n)
by_bare = {}
for d in defined:
    by_bare.setdefault(bare(d), []).append(d)
names = [l.strip() for l in open(order) if l.strip()]
have = set(defined)
one = lambda n: by_bare.get(bare(n), [])
out = [n if n in have or len(one(n)) != 1 else one(n)[0] for n in names]
open(order, "w").write("".join(n + "\n" for n in out))
renamed = sum(a != b for a, b in zip(names, out))
print(f"renamed {renamed} of {len(names)}", file=sys.stderr)
EOF
    set -- --check
fi
if [ "${1:-}" = "--check" ]; then
    listed=$(grep -c . "$order")
    found=$(comm -12 <(sort -u "$order") <(defined) | wc -l)
    echo "$found of $listed listed functions are in $child"
    exit 0
fi

promela=${PROMELA_DIR:-../shared/datasets/beem/promela}
# Small models of several kinds (channels, rendezvous, arrays, atomic
# sequences), then two of 10^5 states, past the sample and through the
# tables' growth and root-key widening.
models=${MODELS:-"schedule_world.2 needham.3 adding.1 anderson.4 brp.1
        driving_phils.1 elevator.2 firewire_link.1 frogs.2 iprotocol.1
        leader_filters.1 mcs.1 protocols.2 rether.1 sorter.2 szymanski.1
        lamport.1"}
runs=()
for m in $models; do runs+=("$promela/$m.pm compact-tree"); done
for e in compact-tree tree hash-table; do
    runs+=("builtin:builtin/kanban-2.pnml $e" "builtin:builtin/philosophers-7.pnml $e")
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
for given in "$@"; do
    i=$((i + 1))
    cp "$given" "$work/$i.out"
done
for run in "${runs[@]}"; do
    read -r model engine <<<"$run"
    i=$((i + 1))
    echo "[$i] $model $engine" >&2
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$i.out" \
        --dump-after='*release_loading_code*' \
        "$child" --model "$model" --engine "$engine" --mem-budget 4000000000 >/dev/null 2>&1
done

# Each run's functions of the child, costliest first (self cost); then
# every run's in turn, each name once, only names the child defines.
python3 - "$work" "$i" "$child" >"$work/order" <<'EOF'
import re, sys
work, runs, child = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def listed(path):
    names, cost, ob, fn, tables = {}, {}, None, None, {"ob": {}, "fn": {}}
    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not m:
            return text
        if m.group(2) is not None:
            tables[kind][m.group(1)] = m.group(2)
        return tables[kind][m.group(1)]
    for line in open(path, errors="replace"):
        if line.startswith("ob="):
            ob = name("ob", line[3:].strip())
        elif line.startswith("fn="):
            fn = name("fn", line[3:].strip())
            cost.setdefault((ob, fn), 0)
        elif line.startswith(("cob=", "cfn=")):
            name(line[1:3], line[4:].strip())
        elif line[:1].isdigit() or line[:1] in "+-*":
            parts = line.split()
            if len(parts) >= 2 and fn is not None and parts[1].isdigit():
                cost[(ob, fn)] += int(parts[1])
    mine = [(c, f) for (o, f), c in cost.items() if o and o.endswith(child.split("/")[-1])]
    # callgrind marks recursion depth with a 'N suffix
    return [re.sub(r"'\d+$", "", f) for c, f in sorted(mine, key=lambda x: -x[0])]
import os
# A run's parts (callgrind's --dump-after): .1 loading, .2 the engine's
# set-up, .3 the search, and the last file the report; a profile given on
# the command line is one part, listed with loading.
def parts(i):
    base = f"{work}/{i}.out"
    numbered = lambda n: [f"{base}.{n}"] if os.path.exists(f"{base}.{n}") else []
    if not numbered(1):
        return {"search": [], "report": [], "rest": [base]}
    return {"search": numbered(3), "report": [base], "rest": numbered(1) + numbered(2)}
seen = set()
for phase in ("search", "report", "rest"):
    for i in range(1, runs + 1):
        for path in parts(i)[phase]:
            for f in listed(path):
                if f not in seen:
                    seen.add(f)
                    print(f)
EOF
grep -Fxf <(defined) "$work/order" >"$order"
echo "wrote $order: $(grep -c . "$order") functions" >&2
