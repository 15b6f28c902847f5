#!/usr/bin/env python3
"""Generate datasets/b.csv and datasets/eventb.csv, the manifests of the
classical B machines and of the Event-B models (Rodin/ProB Prolog exports)
of the ProB examples collection (hhu-stups/specifications, commit aa25fdc).

Reads the shared dataset folder (default: ../shared/datasets relative to the
repository root):
  b/oracle.csv   instance,formalism,path,sha256,oracle_states,
                 oracle_transitions,complete,prob_result,prob_commit,
                 prob_time_ms,variables,constants,operations,lines,tags
and writes, for the formalism asked (`--formalism b`, the default, or
`eventb`), one manifest row per row of that formalism whose file is
present, sorted by instance name, with the columns of every manifest.

The state count follows statebench's B front-end, which adds ProB's
artificial root state to ProB's count: oracle_states = ProB's states + 1;
oracle_transitions = ProB's transitions (SETUP_CONSTANTS, INITIALISATION
and operation edges). Rows without a complete ProB run (prob_result
`not_run`, or an error ProB reported) have no oracle and complete=no; the
error is kept in notes (`prob_result=...`).

Model files are never copied into the project (the collection has no
licence); machines they include are looked up beside them.
Usage: scripts/gen-b-manifest.py [--formalism b|eventb] [--data DIR] [--out FILE]
Standard library only.
"""

import csv
import os
import sys

from manifest import arguments, finish, sha256_file

SOURCE = "https://raw.githubusercontent.com/hhu-stups/specifications/aa25fdc/{rel}"
PREFIX = "b/prob-examples/"


def main():
    args = arguments(__doc__, "b.csv", formalisms=["b", "eventb"])

    rows, errors, missing = [], 0, 0
    with open(os.path.join(args.data, "b", "oracle.csv"), newline="") as f:
        for rec in csv.DictReader(f):
            if rec["formalism"].strip() != args.formalism:
                continue
            instance = rec["instance"].strip()
            rel = rec["path"].strip()
            path = os.path.join(args.data, rel)
            if not os.path.isfile(path):
                missing += 1
                continue
            if not rel.startswith(PREFIX):
                print(f"error: {instance}: unexpected path {rel}", file=sys.stderr)
                errors += 1
                continue
            sha = sha256_file(path)
            if sha != rec["sha256"].strip():
                print(f"error: {instance}: sha256 differs from oracle.csv", file=sys.stderr)
                errors += 1
                continue
            complete = rec["complete"].strip() == "yes"
            states = rec["oracle_states"].strip()
            trans = rec["oracle_transitions"].strip()
            notes = [f"prob_result={rec['prob_result'].strip()}"]
            if complete:
                notes.append(f"prob_states={states}")
                notes.append("oracle_states=prob_states+1 (the artificial root)")
                notes.append(f"prob_time_ms={rec['prob_time_ms'].strip()}")
            rows.append({
                "instance": instance,
                "model": instance.rsplit("/", 1)[-1],
                "formalism": args.formalism,
                "path": rel,
                "source_url": SOURCE.format(rel=rel[len(PREFIX):]),
                "sha256": sha,
                "oracle_states": int(states) + 1 if complete else "",
                "oracle_transitions": int(trans) if complete else "",
                "complete": "yes" if complete else "no",
                "notes": ";".join(notes),
            })
    return finish(args.out, rows, errors, f" ({missing} files held back)")


if __name__ == "__main__":
    sys.exit(main())
