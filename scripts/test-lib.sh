# What the scripts' shell tests share, sourced by each: a pass/fail tally
# (ok, bad, summary), `expect NAME COMMAND...` to record a check, and
# `has TEXT` to look for TEXT in the output a test's own `run` left in
# $OUT. Defines functions only; runs nothing.

pass=0 fail=0
ok()  { echo "ok    $1"; pass=$((pass + 1)); }
bad() { echo "FAIL  $1"; fail=$((fail + 1)); [ -z "${2:-}" ] || sed 's/^/      | /' <<<"$2"; }
# expect NAME CONDITION... : run the condition (a command) and record it
expect() { local name="$1"; shift; if "$@"; then ok "$name"; else bad "$name" "$OUT"; fi; }
# has TEXT: whether the last run's output ($OUT) contains TEXT
has() { grep -qF -- "$1" <<<"$OUT"; }
# summary: "N passed, N failed", and a failing status when any failed
summary() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
