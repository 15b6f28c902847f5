#!/usr/bin/env bash
# Download the model files of a dataset manifest from their public origin and
# check their sha256.
#
# Usage: scripts/fetch-datasets.sh [--manifest FILE] [--dest DIR] [--only GLOB] [--offline]
# Rows whose notes say generated_by=TOOL (mcrl2.csv: linear processes made
# by mcrl22lps) are never downloaded; --offline still verifies them.
#
#   --manifest FILE  manifest CSV (default: <repo>/datasets/mcc.csv); columns
#                    used: instance, path, source_url, sha256
#   --dest DIR       download cache (default: <repo>/datasets/cache); a row's
#                    file goes to DIR/<path>
#   --only GLOB      only rows whose instance name matches the shell glob
#   --offline        download nothing: look for each file in $STATEBENCH_DATA,
#                    then DIR, then <repo>/../shared/datasets, and only verify
#                    checksums (reports present / missing / corrupt)
#
# Online, for each row with an http(s):// (or file://) source_url: skip it if
# DIR/<path> already has the right sha256; otherwise download the URL with
# curl (retries, fail on HTTP errors); a .tgz/.tar.gz archive yields its
# member */model.pnml (MCC archives hold <instance>/model.pnml), anything else
# is saved as is; then verify the sha256, deleting the file on mismatch.
# Rows with generated: URLs ship in the repository and are skipped.
# Exit status: 0 when every selected row is ok, 1 otherwise, 2 on bad usage.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MANIFEST="$REPO_ROOT/datasets/mcc.csv"
DEST="$REPO_ROOT/datasets/cache"
SHARED="$(cd "$REPO_ROOT/.." && pwd)/shared/datasets"
ONLY="*"
OFFLINE=0

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --manifest) MANIFEST="${2:?--manifest needs a file}"; shift 2 ;;
        --manifest=*) MANIFEST="${1#*=}"; shift ;;
        --dest) DEST="${2:?--dest needs a directory}"; shift 2 ;;
        --dest=*) DEST="${1#*=}"; shift ;;
        --only) ONLY="${2:?--only needs a glob}"; shift 2 ;;
        --only=*) ONLY="${1#*=}"; shift ;;
        --offline) OFFLINE=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "fetch-datasets: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done

[ -f "$MANIFEST" ] || { echo "fetch-datasets: no manifest $MANIFEST" >&2; exit 2; }
command -v python3 >/dev/null || { echo "fetch-datasets: python3 is required" >&2; exit 2; }
if [ "$OFFLINE" = 0 ]; then
    command -v curl >/dev/null || { echo "fetch-datasets: curl is required" >&2; exit 2; }
fi

sha256_of() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

# Manifest rows as tab-separated: instance, path, source_url, sha256.
rows() {
    python3 - "$MANIFEST" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    reader = csv.DictReader(f)
    need = ["instance", "path", "source_url", "sha256"]
    missing = [c for c in need if c not in (reader.fieldnames or [])]
    if missing:
        sys.exit(f"fetch-datasets: manifest lacks column(s): {', '.join(missing)}")
    for n, rec in enumerate(reader, start=2):
        vals = [(rec.get(c) or "").strip() for c in need]
        # A file generated from its source (notes `generated_by=TOOL`, e.g.
        # an mCRL2 linear process from mcrl22lps): the URL names the input,
        # not the file, so it cannot be downloaded.
        notes = (rec.get("notes") or "")
        gen = [kv.split("=", 1)[1] for kv in notes.split(";") if kv.startswith("generated_by=")]
        if gen and vals[2]:
            vals[2] = f"derived:{gen[0]}:{vals[2]}"

        if not any(vals):
            continue
        inst, path, url, sha = vals
        bad = (not inst or not path or "\t" in "".join(vals)
               or path.startswith("/") or ".." in path.split("/"))
        if bad:
            sys.exit(f"fetch-datasets: manifest line {n}: bad row {vals}")
        print("\t".join(vals))
PY
}

TMPFILES=()
cleanup() { [ ${#TMPFILES[@]} -eq 0 ] || rm -f "${TMPFILES[@]}"; }
trap cleanup EXIT

n_ok=0 n_fetched=0 n_failed=0 n_skipped=0 n_present=0 n_missing=0 n_corrupt=0
failed_rows=()

# fetch_row INSTANCE PATH URL SHA
fetch_row() {
    local inst="$1" rel="$2" url="$3" sha="$4"
    local target="$DEST/$rel"
    if [ -f "$target" ]; then
        if [ "$(sha256_of "$target")" = "$sha" ]; then
            echo "ok       $inst"
            n_ok=$((n_ok + 1))
            return
        fi
        echo "stale    $inst: $target has a wrong checksum, fetching again"
    fi
    mkdir -p "$(dirname "$target")"
    local dl out
    dl="$(mktemp "$DEST/.download.XXXXXX")"; TMPFILES+=("$dl")
    out="$(mktemp "$(dirname "$target")/.extract.XXXXXX")"; TMPFILES+=("$out")
    if ! curl -fsSL --retry 3 --retry-delay 2 --connect-timeout 30 -o "$dl" "$url"; then
        echo "FAILED   $inst: download of $url failed" >&2
        rm -f "$target"
        failed_rows+=("$inst (download)"); n_failed=$((n_failed + 1))
        return
    fi
    case "$url" in
        *.tgz|*.tar.gz)
            local listing member
            listing="$(tar -tzf "$dl" 2>/dev/null || true)"
            member="$(grep -x -m1 "$inst/model.pnml" <<<"$listing" || true)"
            [ -n "$member" ] || member="$(grep -E -m1 '(^|/)model\.pnml$' <<<"$listing" || true)"
            if [ -z "$member" ] || ! tar -xzf "$dl" -O "$member" >"$out" 2>/dev/null; then
                echo "FAILED   $inst: no */model.pnml in the archive $url" >&2
                rm -f "$target"
                failed_rows+=("$inst (archive)"); n_failed=$((n_failed + 1))
                return
            fi
            ;;
        *) cp "$dl" "$out" ;;
    esac
    rm -f "$dl"
    local got
    got="$(sha256_of "$out")"
    if [ "$got" != "$sha" ]; then
        echo "FAILED   $inst: sha256 mismatch (expected $sha, got $got); file removed" >&2
        rm -f "$out" "$target"
        failed_rows+=("$inst (checksum)"); n_failed=$((n_failed + 1))
        return
    fi
    mv -f "$out" "$target"
    echo "fetched  $inst"
    n_fetched=$((n_fetched + 1))
}

# check_row INSTANCE PATH SHA  (offline)
check_row() {
    local inst="$1" rel="$2" sha="$3" dir found=""
    local dirs=()
    [ -z "${STATEBENCH_DATA:-}" ] || dirs+=("$STATEBENCH_DATA")
    dirs+=("$DEST" "$SHARED")
    for dir in "${dirs[@]}"; do
        [ -f "$dir/$rel" ] || continue
        if [ "$(sha256_of "$dir/$rel")" = "$sha" ]; then
            echo "present  $inst: $dir/$rel"
            n_present=$((n_present + 1))
            return
        fi
        found="${found:+$found, }$dir/$rel"
    done
    if [ -n "$found" ]; then
        echo "CORRUPT  $inst: wrong sha256 in $found" >&2
        failed_rows+=("$inst (corrupt)"); n_corrupt=$((n_corrupt + 1))
    else
        echo "MISSING  $inst: $rel" >&2
        failed_rows+=("$inst (missing)"); n_missing=$((n_missing + 1))
    fi
}

ROWS="$(rows)"
[ "$OFFLINE" = 1 ] || mkdir -p "$DEST"
selected=0
while IFS=$'\t' read -r inst rel url sha; do
    [ -n "$inst" ] || continue
    # shellcheck disable=SC2053  # $ONLY is a glob on purpose
    [[ "$inst" == $ONLY ]] || continue
    selected=$((selected + 1))
    case "$url" in
        http://*|https://*|file://*) ;;
        generated:*) n_skipped=$((n_skipped + 1)); continue ;;  # ships in the repository
        derived:*)
            # Generated from the source at the URL by a tool (see the
            # manifest's notes): verify it offline, never download it.
            if [ "$OFFLINE" = 1 ]; then
                check_row "$inst" "$rel" "$sha"
            else
                tool="${url#derived:}"; tool="${tool%%:*}"
                echo "skip     $inst: $rel is generated by $tool from ${url#derived:*:}; not downloadable (regenerate it with that tool, or use ../shared/datasets)" >&2
                n_skipped=$((n_skipped + 1))
            fi
            continue ;;
        *) echo "skip     $inst: unsupported source_url '$url'" >&2
           n_skipped=$((n_skipped + 1)); continue ;;
    esac
    if [ "$OFFLINE" = 1 ]; then
        check_row "$inst" "$rel" "$sha"
    else
        fetch_row "$inst" "$rel" "$url" "$sha"
    fi
done <<<"$ROWS"

if [ ${#failed_rows[@]} -gt 0 ]; then
    echo "problem rows:" >&2
    printf '  %s\n' "${failed_rows[@]}" >&2
fi
if [ "$OFFLINE" = 1 ]; then
    echo "$selected rows: $n_present present, $n_missing missing, $n_corrupt corrupt, $n_skipped skipped"
    [ $((n_missing + n_corrupt)) -eq 0 ]
else
    echo "$selected rows: $n_ok ok, $n_fetched fetched, $n_failed failed, $n_skipped skipped"
    [ "$n_failed" -eq 0 ]
fi
