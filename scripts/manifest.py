"""The manifest format shared by the gen-*-manifest scripts: column order,
file checksums and writing a manifest atomically, sorted by instance.
Standard library only."""

import csv
import hashlib
import os

COLUMNS = ["instance", "model", "formalism", "path", "source_url", "sha256",
           "oracle_states", "oracle_transitions", "complete", "notes"]


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
