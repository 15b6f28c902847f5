#!/usr/bin/env python3
"""Generate datasets/promela.csv: the BEEM Promela instances with SPIN's counts.

For every beem/promela/<instance>.pm of the shared dataset folder (default:
../shared/datasets relative to the repository root) this runs SPIN itself:

  spin -a <instance>.pm
  gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=<MB> -o pan pan.c
  ./pan -m<depth> -w<w> -A -E -c0 -n

-DSAFETY: safety search only (no cycle detection, no never claim);
-DNOREDUCE: partial-order reduction off, so the count is of the full state
space, the one statebench's explicit engines must reproduce; -A and -E: no
assertion or end-state checks, so no error stops or slows the search (the
states stored are the same: pan continues after an error with -c0 anyway);
-n: no unreached-code listing. Depth: SPIN's DFS stack is bounded by -m;
when pan says "max search depth too small" its count is incomplete, so the
run is repeated with ten times the depth. -DVECTORSZ is raised likewise
when pan asks for it.

A run is stopped with SIGINT at --time-limit (pan then prints its counts so
far) and pan stops itself at -DMEMLIM; either way the count is recorded as
a lower bound (complete=no), like BEEM's unfinished counts.

The manifest has the columns of every manifest plus two:
  dve_states       the DVE count of the same instance (beem/oracle.csv)
  agrees_with_dve  yes/no when both counts are exact, empty otherwise
oracle_states is SPIN's "states, stored". oracle_transitions is left empty:
SPIN's "transitions" counts executed steps (matched ones and steps inside
atomic sequences included), not the (state, enabled transition) pairs
statebench counts; SPIN's figure is in the notes (spin_transitions).
notes also carry: spin version and flags, spin_vector_bytes (the
"State-vector" size, the -DMA size the spin-ma peer starts from),
spin_depth (depth reached), spin_time_s (pan's elapsed time), and
spin_result (ok, timeout, memory_limit or an error).

Usage: scripts/spin-oracle.py [--data DIR] [--out FILE] [--time-limit S]
         [--mem-limit-mb MB] [--only GLOB,...] [--resume [--retry-unfinished]] [--models DIR]
         [--placeholders]
--resume keeps rows of an existing --out whose checksum and SPIN settings
are unchanged (with --retry-unfinished, only those whose SPIN run finished) (the manifest is rewritten after every instance, so a killed
run loses at most the instance it was on). --placeholders runs nothing: it
adds a row without oracle (spin_result=not_run; complete=no) for every
instance the manifest lacks, for --resume to fill later. --models DIR takes
the .pm files of DIR instead of the BEEM folder (paths relative to DIR's
parent, no DVE counts; the harness's tests use it for their hand-written
models). Standard library only.
"""

import argparse
import csv
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from manifest import COLUMNS, sha256_file, write_manifest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRROR = ("https://raw.githubusercontent.com/plug-obp/beem-benchmark/HEAD/"
          "original-benchmark/{instance}.pm")
EXTRA_COLUMNS = ["dve_states", "agrees_with_dve"]
CFLAGS = ["-O2", "-DSAFETY", "-DNOREDUCE"]
PAN_FLAGS = ["-A", "-E", "-c0", "-n"]
FIRST_DEPTH = 10_000_000
MAX_DEPTH = 100_000_000
HASH_W = 26


def spin_version():
    out = subprocess.run(["spin", "-V"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"Spin Version (\S+)", out)
    return m.group(1) if m else out.strip().replace(",", " ")


def parse_report(text):
    """The figures of a pan report (None where a line is missing)."""
    def num(pattern, conv=int):
        m = re.search(pattern, text, re.MULTILINE)
        return conv(m.group(1)) if m else None
    return {
        "states": num(r"^\s*(\d+) states, stored"),
        "transitions": num(r"^\s*(\d+) transitions \(= "),
        "vector": num(r"State-vector (\d+) byte"),
        "depth": num(r"depth reached (\d+)"),
        "elapsed": num(r"pan: elapsed time ([0-9.e+]+) seconds", float),
        "depth_too_small": "max search depth too small" in text,
        "memlim": "-DMEMLIM bound" in text or "out of memory" in text,
        "vectorsz": num(r"with -DVECTORSZ=N with N>(\d+)"),
    }


def run_pan(workdir, depth, time_limit):
    """Runs ./pan; returns (report text, timed_out)."""
    cmd = ["./pan", f"-m{depth}", f"-w{HASH_W}"] + PAN_FLAGS
    proc = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=time_limit)
        return out, False
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)  # pan prints its counts and stops
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        return out, True


def compile_pan(workdir, model, mem_mb, vectorsz):
    flags = CFLAGS + [f"-DMEMLIM={mem_mb}"]
    if vectorsz:
        flags.append(f"-DVECTORSZ={vectorsz}")
    r = subprocess.run(["spin", "-a", model], cwd=workdir, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(os.path.join(workdir, "pan.c")):
        return None, "spin -a failed: " + (r.stdout + r.stderr).strip().replace("\n", " | ")
    r = subprocess.run(["gcc"] + flags + ["-o", "pan", "pan.c"], cwd=workdir,
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = r.stderr.strip().splitlines()[-1:] or ["no message"]
        return None, "gcc failed: " + last[0]
    return flags, None


def oracle(model, time_limit, mem_mb):
    """SPIN's figures for one model file (dict)."""
    with tempfile.TemporaryDirectory(prefix="spin-oracle-") as workdir:
        local = os.path.join(workdir, os.path.basename(model))
        shutil.copyfile(model, local)
        depth, vectorsz = FIRST_DEPTH, None
        started = time.monotonic()
        while True:
            flags, err = compile_pan(workdir, os.path.basename(model), mem_mb, vectorsz)
            if err:
                return {"result": "error", "message": err, "flags": CFLAGS}
            remaining = time_limit - (time.monotonic() - started)
            text, timed_out = run_pan(workdir, depth, max(remaining, 1.0))
            rep = parse_report(text)
            rep["flags"] = flags
            rep["depth_flag"] = depth
            if rep["vectorsz"] and not timed_out:
                vectorsz = max(2 * (vectorsz or 1024), rep["vectorsz"] + 1)
                continue
            if rep["depth_too_small"] and not timed_out and depth < MAX_DEPTH:
                depth *= 10
                continue
            if timed_out:
                rep["result"] = "timeout"
            elif rep["memlim"]:
                rep["result"] = "memory_limit"
            elif rep["depth_too_small"]:
                rep["result"] = "depth_limit"
            elif rep["states"] is None:
                rep["result"] = "error"
                rep["message"] = " | ".join(text.strip().splitlines()[-3:])
            else:
                rep["result"] = "ok"
            return rep


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(REPO_ROOT, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "datasets", "promela.csv"))
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--mem-limit-mb", type=int, default=8192)
    ap.add_argument("--only", default="*", help="globs over instance names, comma-separated")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--retry-unfinished", action="store_true",
                    help="with --resume, run again the rows whose SPIN run did not finish (timeout, memory limit, error)")
    ap.add_argument("--placeholders", action="store_true")
    ap.add_argument("--models", help="a folder of .pm files instead of beem/promela")
    args = ap.parse_args()

    for tool in ("spin", "gcc"):
        if shutil.which(tool) is None:
            sys.exit(f"spin-oracle: {tool} not found (bash scripts/install-deps.sh installs it)")
    version = spin_version()

    dve = {}
    if args.models is None:
        with open(os.path.join(args.data, "beem", "oracle.csv"), newline="") as f:
            for rec in csv.DictReader(f):
                dve[rec["instance"].strip()] = (int(rec["states"]), rec["complete"].strip() == "yes")

    previous = {}
    if (args.resume or args.placeholders) and os.path.exists(args.out):
        with open(args.out, newline="") as f:
            previous = {r["instance"]: r for r in csv.DictReader(f)}

    if args.models is None:
        pm_dir = os.path.join(args.data, "beem", "promela")
        rel_dir, source = "beem/promela", MIRROR
    else:
        pm_dir = os.path.abspath(args.models)
        rel_dir, source = os.path.basename(pm_dir), "generated:{instance}.pm (hand-written)"
    instances = sorted(n[:-3] for n in os.listdir(pm_dir) if n.endswith(".pm"))
    rows = {name: r for name, r in previous.items()}
    if args.placeholders:
        for instance in instances:
            if instance not in rows:
                dve_states = dve.get(instance, ("", False))[0]
                rows[instance] = {
                    "instance": instance, "model": instance.split(".")[0],
                    "formalism": "promela", "path": f"{rel_dir}/{instance}.pm",
                    "source_url": source.format(instance=instance),
                    "sha256": sha256_file(os.path.join(pm_dir, instance + ".pm")),
                    "oracle_states": "", "oracle_transitions": "", "complete": "no",
                    "notes": "spin_result=not_run", "dve_states": dve_states,
                    "agrees_with_dve": "",
                }
        write_manifest(args.out, list(rows.values()), COLUMNS + EXTRA_COLUMNS)
        print(f"spin-oracle: {len(rows)} rows in {args.out}", file=sys.stderr)
        return 0
    settings = f"spin={version};cflags={' '.join(CFLAGS)};pan={' '.join(PAN_FLAGS)}"
    t_all = time.monotonic()
    for i, instance in enumerate(instances):
        if not any(fnmatch.fnmatch(instance, g) for g in args.only.split(",")):
            continue
        rel = f"{rel_dir}/{instance}.pm"
        path = os.path.join(pm_dir, instance + ".pm")
        digest = sha256_file(path)
        old = previous.get(instance)
        if old and old["sha256"] == digest and old["notes"].startswith(settings + ";"):
            if not (args.retry_unfinished and ";spin_result=ok;" not in old["notes"] + ";"):
                continue
        t0 = time.monotonic()
        rep = oracle(path, args.time_limit, args.mem_limit_mb)
        spent = time.monotonic() - t0
        exact = rep["result"] == "ok"
        states = rep.get("states")
        notes = [settings + f";memlim_mb={args.mem_limit_mb};time_limit_s={args.time_limit:g}",
                 f"spin_result={rep['result']}"]
        for key, name in (("vector", "spin_vector_bytes"), ("depth", "spin_depth"),
                          ("transitions", "spin_transitions"), ("elapsed", "spin_time_s")):
            if rep.get(key) is not None:
                notes.append(f"{name}={rep[key]}")
        if rep.get("message"):
            notes.append("message=" + re.sub(r"[,\n;]", " ", rep["message"])[:200])
        dve_states, dve_exact = dve.get(instance, (None, False))
        agrees = ""
        if exact and dve_exact and dve_states is not None:
            agrees = "yes" if dve_states == states else "no"
        rows[instance] = {
            "instance": instance,
            "model": instance.split(".")[0],
            "formalism": "promela",
            "path": rel,
            "source_url": source.format(instance=instance),
            "sha256": digest,
            "oracle_states": states if states is not None else "",
            "oracle_transitions": "",
            "complete": "yes" if exact else "no",
            "notes": ";".join(notes),
            "dve_states": dve_states if dve_states is not None else "",
            "agrees_with_dve": agrees,
        }
        write_manifest(args.out, list(rows.values()), COLUMNS + EXTRA_COLUMNS)
        print(f"[{i + 1}/{len(instances)}] {instance}: {rep['result']} "
              f"{states} states (DVE {dve_states}) in {spent:.1f} s", file=sys.stderr, flush=True)
    print(f"spin-oracle: {len(rows)} rows in {args.out}; {time.monotonic() - t_all:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
