"""The manifest format shared by the gen-*-manifest scripts: their command
line (--data, --out), column order, file checksums and writing a manifest
atomically, sorted by instance. Standard library only."""

import argparse
import csv
import hashlib
import os
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COLUMNS = ["instance", "model", "formalism", "path", "source_url", "sha256",
           "oracle_states", "oracle_transitions", "complete", "notes"]


def arguments(doc, manifest, formalisms=None):
    """The command line of the generator documented by `doc`: --data, the
    shared dataset root (default ../shared/datasets), and --out, the
    manifest to write (default datasets/<manifest>). With `formalisms`
    (a list, the default first), also --formalism, and the default
    manifest is datasets/<formalism>.csv."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(REPO_ROOT, "..", "shared", "datasets"),
                    help="shared dataset root (default: ../shared/datasets)")
    if formalisms:
        ap.add_argument("--formalism", choices=formalisms, default=formalisms[0])
        manifest = "<formalism>.csv"
    ap.add_argument("--out", help=f"manifest to write (default: datasets/{manifest})")
    args = ap.parse_args()
    if args.out is None:
        name = f"{args.formalism}.csv" if formalisms else manifest
        args.out = os.path.join(REPO_ROOT, "datasets", name)
    return args


def finish(out, rows, errors, held_back=""):
    """Writes the manifest `out` and says so on stderr; the exit status:
    1 when any row had an error (reported already), else 0."""
    write_manifest(out, rows)
    print(f"wrote {len(rows)} rows to {out}{held_back}", file=sys.stderr)
    return 1 if errors else 0


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_manifest(path, rows, columns=COLUMNS):
    """Writes rows (dicts with `columns` keys; a manifest may add columns
    after COLUMNS) sorted by instance, atomically."""
    rows = sorted(rows, key=lambda r: r["instance"])
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)
    return len(rows)
