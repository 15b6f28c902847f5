#!/usr/bin/env bash
# Test of scripts/reproduce-paper.sh: every campaign's arguments are
# accepted by `statebench run` and select at least one run (`--plan`, which
# runs and writes nothing), and --dry-run prints one command per campaign
# and the merge, report and compare steps. Needs ../shared (the suites).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${STATEBENCH_BIN:-target/release/statebench}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-reproduce-paper: $*" >&2; exit 1; }

names=$(bash scripts/reproduce-paper.sh --list | cut -d' ' -f1)
[ "$(echo "$names" | wc -l)" -ge 8 ] || fail "fewer than 8 campaigns listed"
for name in $names; do
  out=$(bash scripts/reproduce-paper.sh --only "$name" --plan --statebench "$bin" --results "$tmp" 2>&1) \
    || fail "$name: statebench run --plan failed: $out"
  runs=$(echo "$out" | sed -n "s/^campaign $name: \([0-9]*\) runs.*/\1/p")
  [ -n "$runs" ] && [ "$runs" -gt 0 ] || fail "$name: no run planned: $out"
  echo "$name: $runs runs planned"
done
[ -z "$(ls -A "$tmp")" ] || fail "--plan wrote files: $(ls "$tmp")"

dry=$(bash scripts/reproduce-paper.sh --dry-run --statebench "$bin" --results "$tmp")
[ "$(echo "$dry" | grep -c " run --suite ")" = "$(echo "$names" | wc -l)" ] || fail "--dry-run: not one run per campaign"
for step in merge report compare; do
  echo "$dry" | grep -q "$bin $step " || fail "--dry-run: no $step step"
done
bash scripts/reproduce-paper.sh --only nosuch --list >/dev/null 2>&1 && fail "--only nosuch accepted"
echo "test-reproduce-paper: ok"
