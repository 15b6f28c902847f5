#!/usr/bin/env python3
"""Generate datasets/beem.csv, the manifest of the BEEM DVE instances.

Reads the shared dataset folder (default: ../shared/datasets relative to the
repository root):
  beem/oracle.csv        instance,states,edges,state_size_bytes,complete,
                         divine_reach_time_s,has_promela
  beem/dve/<inst>.dve    the DVE instance files
and writes one manifest row per instance, sorted by instance name, with the
columns of every manifest:
  instance,model,formalism,path,source_url,sha256,oracle_states,
  oracle_transitions,complete,notes
oracle_transitions is BEEM's edge count where BEEM published one (empty
otherwise); complete=no marks a state count that is only a lower bound.

Model files are never copied into the project.
Usage: scripts/gen-beem-manifest.py [--data DIR] [--out FILE]
Standard library only.
"""

import csv
import os
import sys

from manifest import arguments, finish, sha256_file

# The public mirror named in the shared dataset README. Not pinned to a
# commit (none could be checked from the development machines); the sha256
# column guards the content.
MIRROR = ("https://raw.githubusercontent.com/plug-obp/beem-benchmark/HEAD/"
          "original-benchmark/{instance}.dve")



def main():
    args = arguments(__doc__, "beem.csv")

    rows, errors = [], 0
    with open(os.path.join(args.data, "beem", "oracle.csv"), newline="") as f:
        for rec in csv.DictReader(f):
            instance = rec["instance"].strip()
            rel = f"beem/dve/{instance}.dve"
            path = os.path.join(args.data, rel)
            if not os.path.isfile(path):
                print(f"error: {instance}: {rel} missing", file=sys.stderr)
                errors += 1
                continue
            complete = rec["complete"].strip()
            if complete not in ("yes", "no"):
                print(f"error: {instance}: complete={complete!r}", file=sys.stderr)
                errors += 1
                continue
            notes = (f"state_size_bytes={rec['state_size_bytes'].strip()};"
                     f"divine_reach_time_s={rec['divine_reach_time_s'].strip()};"
                     f"has_promela={rec['has_promela'].strip()}")
            rows.append({
                "instance": instance,
                "model": instance.split(".")[0],
                "formalism": "dve",
                "path": rel,
                "source_url": MIRROR.format(instance=instance),
                "sha256": sha256_file(path),
                "oracle_states": int(rec["states"]),
                "oracle_transitions": rec["edges"].strip(),
                "complete": complete,
                "notes": notes,
            })
    return finish(args.out, rows, errors)


if __name__ == "__main__":
    sys.exit(main())
