#!/usr/bin/env python3
"""Generate datasets/mcc.csv, the manifest of the MCC P/T nets.

Reads the shared dataset folder (default: ../shared/datasets relative to the
repository root):
  mcc/oracle.csv          model,states,transitions,max_token_in_place,max_token_per_marking
  mcc/pnml/<model>.pnml   the model.pnml of each MCC input archive
and writes one manifest row per instance, sorted by instance name:
  instance,model,formalism,path,source_url,sha256,oracle_states,
  oracle_transitions,complete,notes

Model files are never copied into the project: the manifest only names them,
says where they come from and carries their checksum and oracle counts.

Usage: scripts/gen-mcc-manifest.py [--data DIR] [--out FILE]
Standard library only.
"""

import csv
import os
import sys

from manifest import arguments, sha256_file, write_manifest

MIRROR = ("https://raw.githubusercontent.com/yanntm/pnmcc-models-2021/"
          "b11b1c53fe0f6f1bf5c709c4890a2d4676a118cd/INPUTS/{instance}.tgz")



def main():
    args = arguments(__doc__, "mcc.csv")

    oracle_path = os.path.join(args.data, "mcc", "oracle.csv")
    rows = []
    errors = 0
    with open(oracle_path, newline="") as f:
        reader = csv.DictReader(f)
        for rec in reader:
            instance = rec["model"].strip()
            if "-PT-" not in instance:
                print(f"error: {instance}: name has no -PT- part", file=sys.stderr)
                errors += 1
                continue
            rel = f"mcc/pnml/{instance}.pnml"
            pnml = os.path.join(args.data, rel)
            if not os.path.isfile(pnml):
                print(f"error: {instance}: missing {pnml}", file=sys.stderr)
                errors += 1
                continue
            mtip = (rec.get("max_token_in_place") or "").strip()
            rows.append({
                "instance": instance,
                "model": instance.split("-PT-", 1)[0],
                "formalism": "pnml",
                "path": rel,
                "source_url": MIRROR.format(instance=instance),
                "sha256": sha256_file(pnml),
                "oracle_states": int(rec["states"]),
                "oracle_transitions": int(rec["transitions"]),
                "complete": "yes",
                "notes": f"max_token_in_place={int(mtip)}" if mtip else "",
            })
    if errors:
        print(f"{errors} error(s); manifest not written", file=sys.stderr)
        return 1

    write_manifest(args.out, rows)
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
