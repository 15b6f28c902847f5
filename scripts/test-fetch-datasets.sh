#!/usr/bin/env bash
# Test scripts/fetch-datasets.sh on local files through file:// URLs (no
# network needed). Prints "N passed, N failed" last; exits non-zero on any
# failure.
set -uo pipefail

FETCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/fetch-datasets.sh"
T="$(mktemp -d "${TMPDIR:-/tmp}/statebench-fetch-test.XXXXXX")"
trap 'rm -rf "$T"' EXIT

# shellcheck source=test-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/test-lib.sh"

sha() { sha256sum "$1" | cut -d' ' -f1; }
# run ARGS...: run the fetch script, capturing output in $OUT and status in $RC
run() { OUT="$("$FETCH" "$@" 2>&1)"; RC=$?; }

# --- fixtures -----------------------------------------------------------------
mkdir -p "$T/src/arch/Fake-PT-01" "$T/src/noarch/Other"
printf '<pnml><!-- plain fake model --></pnml>\n' >"$T/src/plain.pnml"
printf '<pnml><!-- model inside an MCC-like archive --></pnml>\n' >"$T/src/arch/Fake-PT-01/model.pnml"
printf 'unrelated\n' >"$T/src/arch/Fake-PT-01/other.txt"
tar -czf "$T/src/Fake-PT-01.tgz" -C "$T/src/arch" Fake-PT-01
printf 'no model here\n' >"$T/src/noarch/Other/readme.txt"
tar -czf "$T/src/Empty-PT-01.tar.gz" -C "$T/src/noarch" Other
printf '<pnml><!-- some other content --></pnml>\n' >"$T/src/wrong.pnml"

SHA_PLAIN="$(sha "$T/src/plain.pnml")"
SHA_ARCH="$(sha "$T/src/arch/Fake-PT-01/model.pnml")"
SHA_WRONG_EXPECTED="0000000000000000000000000000000000000000000000000000000000000000"
HDR="instance,model,formalism,path,source_url,sha256,oracle_states,oracle_transitions,complete,notes"

cat >"$T/good.csv" <<EOF
$HDR
Fake-PT-01,Fake,pnml,mcc/pnml/Fake-PT-01.pnml,file://$T/src/Fake-PT-01.tgz,$SHA_ARCH,10,20,yes,max_token_in_place=1
plain-1,plain,pnml,fake/plain-1.pnml,file://$T/src/plain.pnml,$SHA_PLAIN,3,4,yes,
gen-1,gen,pnml,builtin/gen-1.pnml,generated:scripts/gen-builtin.py,$SHA_PLAIN,3,4,yes,closed formula: x
EOF

cat >"$T/bad.csv" <<EOF
$HDR
plain-1,plain,pnml,fake/plain-1.pnml,file://$T/src/plain.pnml,$SHA_PLAIN,3,4,yes,
wrong-1,wrong,pnml,fake/wrong-1.pnml,file://$T/src/wrong.pnml,$SHA_WRONG_EXPECTED,3,4,yes,
EOF

cat >"$T/broken.csv" <<EOF
$HDR
gone-1,gone,pnml,fake/gone-1.pnml,file://$T/src/does-not-exist.pnml,$SHA_PLAIN,1,1,yes,
Empty-PT-01,Empty,pnml,mcc/pnml/Empty-PT-01.pnml,file://$T/src/Empty-PT-01.tar.gz,$SHA_PLAIN,1,1,yes,
EOF

# --- online: correct rows ----------------------------------------------------
C="$T/cache"
run --manifest "$T/good.csv" --dest "$C"
expect "good manifest: exit 0" test "$RC" -eq 0
expect "good manifest: summary 2 fetched" has "0 ok, 2 fetched, 0 failed, 1 skipped"
expect "archive member extracted to dest/path" cmp -s "$C/mcc/pnml/Fake-PT-01.pnml" "$T/src/arch/Fake-PT-01/model.pnml"
expect "plain file saved as is" cmp -s "$C/fake/plain-1.pnml" "$T/src/plain.pnml"
expect "generated row not fetched" test ! -e "$C/builtin/gen-1.pnml"
expect "no temporary files left" test -z "$(find "$C" -name '.download.*' -o -name '.extract.*')"

# --- second run skips present files -------------------------------------------
before="$(stat -c %Y.%i "$C/fake/plain-1.pnml" "$C/mcc/pnml/Fake-PT-01.pnml" 2>/dev/null)"
sleep 1
run --manifest "$T/good.csv" --dest "$C"
expect "second run: exit 0" test "$RC" -eq 0
expect "second run: summary 2 ok, 0 fetched" has "2 ok, 0 fetched, 0 failed"
expect "second run: files untouched" test "$before" = "$(stat -c %Y.%i "$C/fake/plain-1.pnml" "$C/mcc/pnml/Fake-PT-01.pnml" 2>/dev/null)"

# --- a stale (corrupted) cached file is fetched again -------------------------
echo garbage >"$C/fake/plain-1.pnml"
run --manifest "$T/good.csv" --dest "$C"
expect "stale file: exit 0" test "$RC" -eq 0
expect "stale file: fetched again" has "1 ok, 1 fetched, 0 failed"
expect "stale file: content restored" cmp -s "$C/fake/plain-1.pnml" "$T/src/plain.pnml"

# --- wrong checksum ------------------------------------------------------------
C2="$T/cache2"
run --manifest "$T/bad.csv" --dest "$C2"
expect "wrong checksum: non-zero exit" test "$RC" -ne 0
expect "wrong checksum: reported" has "sha256 mismatch"
expect "wrong checksum: row named" has "wrong-1 (checksum)"
expect "wrong checksum: summary" has "0 ok, 1 fetched, 1 failed"
expect "wrong checksum: file removed" test ! -e "$C2/fake/wrong-1.pnml"
expect "wrong checksum: good row still fetched" cmp -s "$C2/fake/plain-1.pnml" "$T/src/plain.pnml"

# --- download failure, archive without model.pnml -----------------------------
C3="$T/cache3"
run --manifest "$T/broken.csv" --dest "$C3"
expect "broken rows: non-zero exit" test "$RC" -ne 0
expect "missing URL: reported" has "gone-1 (download)"
expect "archive without model.pnml: reported" has "Empty-PT-01 (archive)"
expect "broken rows: no files" test -z "$(find "$C3" -type f)"

# --- --only --------------------------------------------------------------------
C4="$T/cache4"
run --manifest "$T/good.csv" --dest "$C4" --only 'Fake-*'
expect "--only: exit 0" test "$RC" -eq 0
expect "--only: 1 row selected" has "1 rows: 0 ok, 1 fetched"
expect "--only: other row not fetched" test ! -e "$C4/fake/plain-1.pnml"

# --- offline -------------------------------------------------------------------
E="$T/empty-dest"
OUT="$(STATEBENCH_DATA="$C" "$FETCH" --offline --manifest "$T/good.csv" --dest "$E" 2>&1)"; RC=$?
expect "offline: exit 0 when all present" test "$RC" -eq 0
expect "offline: 2 present" has "2 present, 0 missing, 0 corrupt, 1 skipped"
expect "offline: found in STATEBENCH_DATA" has "present  plain-1: $C/fake/plain-1.pnml"
expect "offline: nothing written" test ! -e "$E"

# the cache (--dest) is the second place looked at
OUT="$(STATEBENCH_DATA="$T/nowhere" "$FETCH" --offline --manifest "$T/good.csv" --dest "$C" 2>&1)"; RC=$?
expect "offline: dest used after STATEBENCH_DATA" test "$RC" -eq 0

mkdir -p "$T/data/fake"
cp "$T/src/plain.pnml" "$T/data/fake/plain-1.pnml"
cp "$T/src/wrong.pnml" "$T/data/fake/wrong-1.pnml"
OUT="$(STATEBENCH_DATA="$T/data" "$FETCH" --offline --manifest "$T/bad.csv" --dest "$E" 2>&1)"; RC=$?
expect "offline corrupt: non-zero exit" test "$RC" -ne 0
expect "offline corrupt: reported" has "1 present, 0 missing, 1 corrupt"
expect "offline corrupt: file kept (verify only)" test -e "$T/data/fake/wrong-1.pnml"

OUT="$(STATEBENCH_DATA="$T/data" "$FETCH" --offline --manifest "$T/broken.csv" --dest "$E" 2>&1)"; RC=$?
expect "offline missing: non-zero exit" test "$RC" -ne 0
expect "offline missing: reported" has "0 present, 2 missing, 0 corrupt"

# --- usage -----------------------------------------------------------------------
run --no-such-option
expect "bad option: exit 2" test "$RC" -eq 2
run --manifest "$T/no-such.csv"
expect "missing manifest: exit 2" test "$RC" -eq 2

summary
