#!/usr/bin/env python3
"""Generate the embedded default suite `builtin`: P/T nets written by statebench.

Every net here is designed by the statebench project itself; nothing is taken
from an external benchmark. The script
  1. builds each parameterised net as a plain structure (places with initial
     markings; transitions with pre/post weight dicts),
  2. writes it as MCC-style PNML to datasets/builtin/<instance>.pnml, with an
     XML comment header naming its origin, family and parameters, and reads
     the file back to check it encodes exactly that structure,
  3. derives the oracle counts INDEPENDENTLY of the project's Rust code: a
     closed formula where one was derived (then also cross-checked by the
     naive breadth-first search below), otherwise the naive BFS alone,
  4. writes datasets/builtin.csv (same columns as datasets/mcc.csv).

Counting convention (as the MCC's StateSpace examination): states = reachable
markings; transitions = number of (reachable marking, enabled transition)
pairs, i.e. firings counted once per transition, self-loops included.

Families:
  philosophers-N    N dining philosophers: think, take left fork, take right
                    fork, eat, release both forks (can deadlock).
  token-ring-N-T    ring of N places, T tokens, one transition per place
                    moving one token to the next place.
  mutex-N           N processes idle -> wait -> critical -> idle around one
                    shared lock.
  kanban-N          Kanban-like line of 4 stations with N cards each, each
                    station with an inspection step and a rework loop;
                    station 1 feeds stations 2 and 3 (fork), which feed
                    station 4 (join).
  cycles-N-M        N independent cyclic processes of M local states.

The output is deterministic (byte-identical on re-run). The whole run takes
about a minute or two (the Python BFS visits ~3.3 million markings).

Usage: scripts/gen-builtin.py [--out DIR] [--only SUBSTRING] [--no-write]
Standard library only.
"""

import argparse
import hashlib
import os
import sys
import time
import xml.etree.ElementTree as ET
from collections import deque
from math import comb

from manifest import write_manifest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNML_NS = "http://www.pnml.org/version-2009/grammar/pnml"
PTNET = "http://www.pnml.org/version-2009/grammar/ptnet"
SOURCE = "generated:scripts/gen-builtin.py"
BFS_NOTE = "naive BFS in gen-builtin.py"
XCHECK = "; cross-checked by naive BFS in gen-builtin.py"


# ----------------------------------------------------------------------------
# Net structure


class Net:
    """A P/T net: ordered places with initial markings, ordered transitions
    with pre/post weight dicts {place id: weight}."""

    def __init__(self, name):
        self.name = name
        self.places = []          # [(place id, initial marking)]
        self.transitions = []     # [(transition id, pre dict, post dict)]
        self._pids = set()

    def place(self, pid, initial=0):
        assert pid not in self._pids, pid
        self._pids.add(pid)
        self.places.append((pid, initial))
        return pid

    def transition(self, tid, pre, post):
        for p in list(pre) + list(post):
            assert p in self._pids, (tid, p)
        self.transitions.append((tid, dict(pre), dict(post)))


# ----------------------------------------------------------------------------
# Families. Each returns (net, description, closed-form oracle or None).
# A closed-form oracle is (states, transitions, note).


def philosophers(n):
    assert n >= 3
    net = Net(f"philosophers-{n}")
    for i in range(n):
        net.place(f"think_{i}", 1)
        net.place(f"hasLeft_{i}", 0)
        net.place(f"eat_{i}", 0)
        net.place(f"fork_{i}", 1)
    for i in range(n):
        left, right = f"fork_{i}", f"fork_{(i + 1) % n}"
        net.transition(f"takeLeft_{i}", {f"think_{i}": 1, left: 1}, {f"hasLeft_{i}": 1})
        net.transition(f"takeRight_{i}", {f"hasLeft_{i}": 1, right: 1}, {f"eat_{i}": 1})
        net.transition(f"release_{i}", {f"eat_{i}": 1},
                       {f"think_{i}": 1, left: 1, right: 1})

    # Transfer-matrix derivation. Philosopher i is in local state T (think),
    # L (holds fork_i) or E (holds fork_i and fork_{i+1}); a marking is fixed
    # by the cyclic word s_0..s_{n-1}. Fork_{i+1} can be held by i (s_i=E) or
    # by i+1 (s_{i+1} in {L,E}), so a word is consistent iff no neighbour pair
    # (s_i, s_{i+1}) is (E,L) or (E,E): M[a][b] = 0 for those pairs, else 1.
    # Every consistent word is reachable (all eaters take both forks first,
    # then the L's take their left fork), so states = trace(M^n), which is
    # (1+sqrt2)^n + (1-sqrt2)^n (eigenvalues of M: 0 and 1 +- sqrt 2).
    # Enabled at position i, depending on (s_{i-1}, s_i, s_{i+1}) = (a,b,c):
    # takeLeft iff b=T and a!=E; takeRight iff b=L and c=T; release iff b=E.
    # By rotation symmetry transitions = n * sum_{a,b,c} e(a,b,c) M[a][b]
    # M[b][c] (M^(n-2))[c][a].
    T, L, E = 0, 1, 2
    M = [[1, 1, 1], [1, 1, 1], [1, 0, 0]]

    def mul(A, B):
        return [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)]
                for i in range(3)]

    def power(A, k):
        R = [[int(i == j) for j in range(3)] for i in range(3)]
        for _ in range(k):
            R = mul(R, A)
        return R

    def enabled(a, b, c):
        return int(b == T and a != E) + int(b == L and c == T) + int(b == E)

    Mn = power(M, n)
    states = sum(Mn[i][i] for i in range(3))
    Mn2 = power(M, n - 2)
    per_pos = sum(enabled(a, b, c) * M[a][b] * M[b][c] * Mn2[c][a]
                  for a in range(3) for b in range(3) for c in range(3))
    transitions = n * per_pos
    note = ("closed formula: transfer matrix M=[[1 1 1];[1 1 1];[1 0 0]] over "
            "think/hasLeft/eat: states=trace(M^N)=(1+sqrt2)^N+(1-sqrt2)^N; "
            "transitions=N*sum_abc e(a;b;c)*M[a][b]*M[b][c]*(M^(N-2))[c][a]" + XCHECK)
    desc = (f"parameter N={n}: {n} dining philosophers in a ring with {n} forks; "
            "each philosopher thinks; takes its left fork; takes its right fork; "
            "eats; releases both forks")
    return net, desc, (states, transitions, note)


def token_ring(n, t):
    assert n >= 2 and t >= 1
    net = Net(f"token-ring-{n}-{t}")
    for i in range(n):
        net.place(f"p_{i}", t if i == 0 else 0)
    for i in range(n):
        net.transition(f"move_{i}", {f"p_{i}": 1}, {f"p_{(i + 1) % n}": 1})
    # The ring is strongly connected, so every distribution of the t tokens
    # over the n places is reachable: states = C(n+t-1, t). Marking m enables
    # move_i iff m(p_i) >= 1; the markings with m(p_i) >= 1 are in bijection
    # with distributions of t-1 tokens, so transitions = n * C(n+t-2, t-1).
    states = comb(n + t - 1, t)
    transitions = n * comb(n + t - 2, t - 1)
    note = ("closed formula: states=(N+T-1 choose T); "
            "transitions=N*(N+T-2 choose T-1)" + XCHECK)
    desc = (f"parameters N={n} T={t}: a ring of {n} places holding {t} tokens "
            "(all initially in p_0); transition move_i moves one token from p_i to p_(i+1 mod N)")
    return net, desc, (states, transitions, note)


def mutex(n):
    assert n >= 2
    net = Net(f"mutex-{n}")
    net.place("lock", 1)
    for i in range(n):
        net.place(f"idle_{i}", 1)
        net.place(f"wait_{i}", 0)
        net.place(f"crit_{i}", 0)
    for i in range(n):
        net.transition(f"request_{i}", {f"idle_{i}": 1}, {f"wait_{i}": 1})
        net.transition(f"enter_{i}", {f"wait_{i}": 1, "lock": 1}, {f"crit_{i}": 1})
        net.transition(f"exit_{i}", {f"crit_{i}": 1}, {f"idle_{i}": 1, "lock": 1})
    # Reachable: lock free and every process idle or waiting (2^n markings,
    # each enabling exactly n transitions: request or enter per process), or
    # one process critical and the others idle or waiting (n * 2^(n-1)
    # markings; summed over them: exit once each plus request per idle
    # process, n * (2^(n-1) + (n-1) 2^(n-2))).
    # states = (n+2) 2^(n-1); transitions = n 2^n + n (n+1) 2^(n-2)
    #                                     = n (n+5) 2^(n-2).
    states = (n + 2) * 2 ** (n - 1)
    transitions = n * (n + 5) * 2 ** (n - 2)
    note = "closed formula: states=(N+2)*2^(N-1); transitions=N*(N+5)*2^(N-2)" + XCHECK
    desc = (f"parameter N={n}: {n} processes cycling idle; wait; critical "
            "around one shared lock place")
    return net, desc, (states, transitions, note)


def kanban(n):
    assert n >= 1
    net = Net(f"kanban-{n}")
    for k in range(1, 5):
        net.place(f"free_{k}", n)
        for part in ("busy", "check", "rework", "out"):
            net.place(f"{part}_{k}", 0)
    net.transition("intake_1", {"free_1": 1}, {"busy_1": 1})
    for k in range(1, 5):
        net.transition(f"finish_{k}", {f"busy_{k}": 1}, {f"check_{k}": 1})
        net.transition(f"pass_{k}", {f"check_{k}": 1}, {f"out_{k}": 1})
        net.transition(f"fail_{k}", {f"check_{k}": 1}, {f"rework_{k}": 1})
        net.transition(f"redo_{k}", {f"rework_{k}": 1}, {f"busy_{k}": 1})
    net.transition("split_1", {"out_1": 1, "free_2": 1, "free_3": 1},
                   {"free_1": 1, "busy_2": 1, "busy_3": 1})
    net.transition("join_4", {"out_2": 1, "out_3": 1, "free_4": 1},
                   {"free_2": 1, "free_3": 1, "busy_4": 1})
    net.transition("ship_4", {"out_4": 1}, {"free_4": 1})
    desc = (f"parameter N={n}: 4 stations with {n} kanban cards each; a card "
            "goes busy; check; then pass to out or fail to rework and back to busy; "
            "station 1 feeds stations 2 and 3 together (split) which feed station 4 "
            "together (join); station 4 ships")
    return net, desc, None


def cycles(n, m):
    assert n >= 1 and m >= 2
    net = Net(f"cycles-{n}-{m}")
    for i in range(n):
        for j in range(m):
            net.place(f"proc{i}_s{j}", 1 if j == 0 else 0)
    for i in range(n):
        for j in range(m):
            net.transition(f"step{i}_{j}", {f"proc{i}_s{j}": 1},
                           {f"proc{i}_s{(j + 1) % m}": 1})
    # Each process is independently in one of its m local states (all
    # reachable), and in each marking each process enables exactly one step.
    states = m ** n
    transitions = n * m ** n
    note = "closed formula: states=M^N; transitions=N*M^N" + XCHECK
    desc = (f"parameters N={n} M={m}: {n} independent cyclic processes of "
            f"{m} local states each")
    return net, desc, (states, transitions, note)


# (family, constructor, parameters), roughly by size. Total ~3.3 million states.
SUITE = [
    ("philosophers", philosophers, (3,)),
    ("token-ring", token_ring, (4, 3)),
    ("mutex", mutex, (4,)),
    ("cycles", cycles, (3, 4)),
    ("kanban", kanban, (1,)),
    ("philosophers", philosophers, (7,)),
    ("mutex", mutex, (10,)),
    ("token-ring", token_ring, (8, 8)),
    ("philosophers", philosophers, (11,)),
    ("kanban", kanban, (2,)),
    ("cycles", cycles, (6, 6)),
    ("token-ring", token_ring, (12, 10)),
    ("philosophers", philosophers, (15,)),
    ("mutex", mutex, (16,)),
    ("kanban", kanban, (3,)),
    ("cycles", cycles, (10, 4)),
]


# ----------------------------------------------------------------------------
# Naive BFS over markings, straight from the net structure.


def naive_bfs(net):
    """Return (reachable markings, (marking, enabled transition) pairs)."""
    index = {pid: i for i, (pid, _) in enumerate(net.places)}
    compiled = []
    for _, pre, post in net.transitions:
        delta = {}
        for p, w in pre.items():
            delta[index[p]] = delta.get(index[p], 0) - w
        for p, w in post.items():
            delta[index[p]] = delta.get(index[p], 0) + w
        compiled.append(([(index[p], w) for p, w in pre.items()],
                         [(i, d) for i, d in sorted(delta.items()) if d]))
    # Markings are stored as bytes (one byte per place) to keep memory low.
    init = bytes(m for _, m in net.places)
    seen = {init}
    queue = deque([init])
    edges = 0
    while queue:
        s = queue.popleft()
        for pre, delta in compiled:
            for i, w in pre:
                if s[i] < w:
                    break
            else:
                edges += 1
                m = bytearray(s)
                for i, d in delta:
                    v = m[i] + d
                    if v > 255:
                        raise OverflowError(f"{net.name}: more than 255 tokens in a place")
                    m[i] = v
                m = bytes(m)
                if m not in seen:
                    seen.add(m)
                    queue.append(m)
    return len(seen), edges


# ----------------------------------------------------------------------------
# PNML writing and read-back check.


def xml_escape(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;")
             .replace(">", "&gt;").replace('"', "&quot;"))


def comment_text(s):
    # "--" is not allowed inside an XML comment.
    while "--" in s:
        s = s.replace("--", "-")
    return s


def to_pnml(net, family, desc):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!--",
           comment_text(f"  {net.name}: written by the statebench project itself"),
           "  (generated by scripts/gen-builtin.py); not taken from any external benchmark.",
           comment_text(f"  Family: {family}; {desc}."),
           "  Do not edit: regenerate with scripts/gen-builtin.py.",
           "-->",
           f'<pnml xmlns="{PNML_NS}">',
           f'  <net id="{xml_escape(net.name)}" type="{PTNET}">',
           f"    <name><text>{xml_escape(net.name)}</text></name>",
           '    <page id="page0">']
    for pid, m in net.places:
        e = xml_escape(pid)
        line = f'      <place id="{e}"><name><text>{e}</text></name>'
        if m:
            line += f"<initialMarking><text>{m}</text></initialMarking>"
        out.append(line + "</place>")
    for tid, _, _ in net.transitions:
        e = xml_escape(tid)
        out.append(f'      <transition id="{e}"><name><text>{e}</text></name></transition>')
    arc = 0
    for tid, pre, post in net.transitions:
        for src, dst, w in ([(p, tid, w) for p, w in pre.items()]
                            + [(tid, p, w) for p, w in post.items()]):
            out.append(f'      <arc id="a{arc}" source="{xml_escape(src)}" '
                       f'target="{xml_escape(dst)}"><inscription><text>{w}</text>'
                       "</inscription></arc>")
            arc += 1
    out += ["    </page>", "  </net>", "</pnml>", ""]
    return "\n".join(out).encode("utf-8")


def read_back(data):
    """Parse PNML bytes into (places, transitions) in the Net's format."""
    ns = {"p": PNML_NS}
    root = ET.fromstring(data)
    page = root.find("p:net/p:page", ns)
    places = []
    for pl in page.findall("p:place", ns):
        t = pl.find("p:initialMarking/p:text", ns)
        places.append((pl.get("id"), int(t.text) if t is not None else 0))
    tids = [t.get("id") for t in page.findall("p:transition", ns)]
    pre = {t: {} for t in tids}
    post = {t: {} for t in tids}
    for a in page.findall("p:arc", ns):
        src, dst = a.get("source"), a.get("target")
        w = int(a.find("p:inscription/p:text", ns).text)
        if src in pre:
            post[src][dst] = post[src].get(dst, 0) + w
        else:
            pre[dst][src] = pre[dst].get(src, 0) + w
    return places, [(t, pre[t], post[t]) for t in tids]


# ----------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "datasets"),
                    help="datasets directory (default: <repo>/datasets); writes "
                         "builtin/<instance>.pnml and builtin.csv there")
    ap.add_argument("--only", default=None,
                    help="only compute instances whose name contains this (dry "
                         "run: nothing is written)")
    ap.add_argument("--no-write", action="store_true",
                    help="compute and check everything but write nothing")
    args = ap.parse_args()
    write = not args.no_write and args.only is None

    out_dir = os.path.join(args.out, "builtin")
    if write:
        os.makedirs(out_dir, exist_ok=True)
    rows = []
    failures = 0
    total_states = 0
    for family, make, params in SUITE:
        net, desc, closed = make(*params)
        name = net.name
        if args.only and args.only not in name:
            continue
        data = to_pnml(net, family, desc)
        if read_back(data) != (net.places, net.transitions):
            print(f"error: {name}: PNML read-back differs from the net", file=sys.stderr)
            failures += 1
            continue
        t0 = time.time()
        bfs_states, bfs_trans = naive_bfs(net)
        dt = time.time() - t0
        if closed is not None:
            states, trans, note = closed
            if (states, trans) != (bfs_states, bfs_trans):
                print(f"error: {name}: closed formula ({states}, {trans}) != "
                      f"naive BFS ({bfs_states}, {bfs_trans})", file=sys.stderr)
                failures += 1
                continue
        else:
            states, trans, note = bfs_states, bfs_trans, BFS_NOTE
        total_states += states
        print(f"{name:22} states={states:>9} transitions={trans:>10} "
              f"({'formula+BFS' if closed else 'BFS'}, {dt:.1f}s)", flush=True)
        rel = f"builtin/{name}.pnml"
        if write:
            with open(os.path.join(args.out, rel), "wb") as f:
                f.write(data)
        rows.append({
            "instance": name, "model": family, "formalism": "pnml", "path": rel,
            "source_url": SOURCE, "sha256": hashlib.sha256(data).hexdigest(),
            "oracle_states": states, "oracle_transitions": trans,
            "complete": "yes", "notes": note,
        })
    if failures:
        print(f"{failures} failure(s); nothing more written", file=sys.stderr)
        return 1
    print(f"{len(rows)} instances, {total_states} states in total")
    if not write:
        return 0

    keep = {r["instance"] + ".pnml" for r in rows}
    for f in sorted(os.listdir(out_dir)):
        if f.endswith(".pnml") and f not in keep:
            os.remove(os.path.join(out_dir, f))
            print(f"removed stale {f}")
    manifest = os.path.join(args.out, "builtin.csv")
    write_manifest(manifest, rows)
    print(f"wrote {len(rows)} nets to {out_dir} and {manifest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
