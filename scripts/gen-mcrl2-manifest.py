#!/usr/bin/env python3
"""Generate datasets/mcrl2.csv, the manifest of the mCRL2 linear processes.

Reads the shared dataset folder (default: ../shared/datasets relative to the
repository root):
  mcrl2/oracle.csv        instance,path,spec,sha256,oracle_states,
                          oracle_transitions,levels,complete,result,time_s,
                          parameters,summands,source,tool
  mcrl2/lps/<inst>.mcrl2  the linear process specifications
and writes one manifest row per instance, sorted by instance name, with the
columns of every manifest:
  instance,model,formalism,path,source_url,sha256,oracle_states,
  oracle_transitions,complete,notes
Only rows with complete=yes get oracle counts (lps2lts's states and
transitions on exactly the file in lps/); the others have none.

The .mcrl2 files under lps/ are *generated*: mcrl22lps (regular
linearisation) then lpspp, from the example specification of the mCRL2
repository named in source_url. The sha256 is the linear process's, so
scripts/fetch-datasets.sh cannot download it: `notes` says
`generated_by=...`, which the fetch script reads to skip the row with an
explanation.

Model files are never copied into the project.
Usage: scripts/gen-mcrl2-manifest.py [--data DIR] [--out FILE]
Standard library only.
"""

import csv
import os
import sys

from manifest import arguments, finish, sha256_file

# The mCRL2 repository at the commit of the toolset that produced the files
# (the `tool` column names it: 202607.0.2ef8439201).
ORIGIN = "https://raw.githubusercontent.com/mCRL2org/mCRL2/2ef8439201/{source}"


def main():
    args = arguments(__doc__, "mcrl2.csv")

    rows, errors = [], 0
    with open(os.path.join(args.data, "mcrl2", "oracle.csv"), newline="") as f:
        for rec in csv.DictReader(f):
            instance = rec["instance"].strip()
            rel = rec["path"].strip()
            path = os.path.join(args.data, rel)
            if not os.path.isfile(path):
                print(f"error: {instance}: {rel} missing", file=sys.stderr)
                errors += 1
                continue
            sha = sha256_file(path)
            if rec["sha256"].strip() and rec["sha256"].strip() != sha:
                print(f"error: {instance}: sha256 differs from oracle.csv", file=sys.stderr)
                errors += 1
                continue
            complete = rec["complete"].strip()
            if complete not in ("yes", "no"):
                print(f"error: {instance}: complete={complete!r}", file=sys.stderr)
                errors += 1
                continue
            source = rec["source"].strip()
            tool = rec["tool"].strip().replace(";", ",")
            if tool.startswith("mcrl22lps "):
                tool = tool[len("mcrl22lps "):]
            notes = [
                "generated_by=mcrl22lps+lpspp",
                f"tool={tool}",
                f"spec={rec['spec'].strip()}",
                f"oracle=lps2lts -rjitty",
                f"lps2lts_result={rec['result'].strip()}",
            ]
            for key in ("levels", "time_s", "parameters", "summands"):
                if rec[key].strip():
                    notes.append(f"{'lps2lts_' if key in ('levels', 'time_s') else ''}{key}={rec[key].strip()}")
            yes = complete == "yes"
            rows.append({
                "instance": instance,
                "model": os.path.splitext(os.path.basename(source))[0],
                "formalism": "mcrl2",
                "path": rel,
                "source_url": ORIGIN.format(source=source),
                "sha256": sha,
                "oracle_states": rec["oracle_states"].strip() if yes else "",
                "oracle_transitions": rec["oracle_transitions"].strip() if yes else "",
                "complete": complete,
                "notes": ";".join(notes),
            })
    return finish(args.out, rows, errors)


if __name__ == "__main__":
    sys.exit(main())
