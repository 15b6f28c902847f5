//! Symbolic reachability with decision diagrams: the `bdd` engine (oxidd
//! BDDs) and the `mdd` engine (our list decision diagram, or one-hot over
//! an oxidd ZBDD with `encoding=onehot`), after LTSmin's semi-symbolic scheme (one
//! relation per transition group, projected on the group's read ∪ write
//! slots and learned on the fly; the visited set as one diagram).
//!
//! Modules: [`layout`] (variable order), [`diagram`] (the set algebra
//! contract), [`bdd`], [`ldd`] and [`mdd`] (the three encodings), [`learn`] (relation
//! learning), [`search`] (strategies, re-encoding and node sampling). This
//! module owns the engine parameters, the slot order and the
//! [`RunReport`]; it must not know formalisms or the harness.
//!
//! Slot domains are not known in advance (Petri net places are declared
//! 32 bits wide): a search starts with the smallest layout holding the
//! initial state (plus one bit / a doubled domain) and, when learning meets
//! values without variables, moves every live set (visited, frontier,
//! relations, learned projections) to a layout with those slots widened
//! and goes on (counter `reencodings`; [`search`] says where each strategy
//! resumes). Spare binary bits would add nodes to every BDD path, so the
//! binary widths are kept tight this way; one-hot variables for absent
//! values cost no node.
//!
//! Report: `states` is the exact path count of the visited set (u128, no
//! floating point); `transitions` is Σ over groups of the exact number of
//! pairs (state, successor) in visited × relation, plus the transitions to
//! the model's error state (see [`learn`]), which equals the explicit count
//! unless one call of the model emits the same successor twice; where
//! every visited state was learned on directly by every group and no group
//! was applied (`mdd`, [`search`]), it is the number of successors the
//! model emitted from them, the same count without a walk per group.
//! `dd_final_nodes` counts the inner nodes of the final visited set,
//! `dd_peak_nodes` the maximum shared inner-node count of everything live
//! (see [`search`] for the sampling points). `engine_bytes_used` is
//! `dd_final_nodes × 16` and `engine_bytes_alloc` `dd_peak_nodes × 16`:
//! an oxidd index-manager node is 16 bytes (reference count, level, two
//! 32-bit child indices), unique-table and apply-cache memory excluded;
//! an LDD node (value, down, right) is 12 bytes, counted with the same 16
//! so that the columns of all three encodings stay one unit.
//!
//! Choices and the measurements behind them (saturation, one thread;
//! final / peak nodes, seconds; measured while other jobs shared the
//! machine, so times are indicative):
//! - Slot order: FORCE against the model's order, `mdd`:
//!   Philosophers-PT-000010 294 / 951 in 1.0 s against 356,360 / 398,869
//!   in 55.7 s; FMS-PT-00005 446 / 1,445 (1.7 s) against 1,143 / 2,199
//!   (2.5 s); bakery.3 2,189 / 5,964 against 4,487 / 8,781;
//!   leader_filters.2 3,701 / 10,839 against 5,055 / 12,694. Hence
//!   `slot_order=force` by default.
//! - BDD current/next order: the visited set uses current variables only,
//!   so its size does not depend on it (bakery.3 3,906, FMS-PT-00005 667,
//!   adding.1 1,955 final nodes either way); peaks differ by a few percent
//!   either way (bakery.3 11,406 interleaved / 11,382 blocked, FMS 2,159 /
//!   2,303, adding.1 8,398 / 8,188) and interleaved was faster on all three
//!   (1.51 / 1.83 s, 0.87 / 1.08 s, 0.38 / 0.45 s): renaming next → current
//!   moves each variable by one level. Hence `order=interleaved` by default.
//! - MDD encoding (issue 36): the default is now the list decision
//!   diagram of [`ldd`] (one level per slot, values as edges): the
//!   one-hot ZBDD needs a variable per value of a slot's domain and
//!   re-encodes whenever a counter outgrows it (SatelliteMemory: places
//!   holding up to 1,000 tokens); node counts are the same by construction
//!   (SatelliteMemory-PT-X00100Y0003: 20,716 final nodes both ways, 1.6 s
//!   against 2.7 s). The one-hot form stays as `encoding=onehot`.
//!   Groups that a set does not enable (issue 36, point 4): the LDD gives
//!   the search the suffixes of a set below a slot ([`Diagram::suffixes`],
//!   cached per slot, so the groups of one top slot share one walk of the
//!   nodes above it), learns on them ([`Diagram::unseen`]: projection and
//!   difference with the learned projections in one walk that builds
//!   nothing once all are learned) and applies a relation only where one
//!   of them enables it ([`Diagram::enables`]): PermAdmissibility-PT-01
//!   (52,537 states) over 60 s → 16.7 s; PhilosophersDyn-PT-03 726 → 150
//!   images (0.16 s either way). Not enough for issue 36's rows: at
//!   180 s (`saturation`, 2-core VM shared with other jobs) the LDD still
//!   times out on SatelliteMemory-PT-X01000Y0032 (3.94 M of 7.5 M states
//!   reached; one-hot 2.92 M), PhilosophersDyn-PT-10 (36,696 of 199,051;
//!   both encodings at 22,066 after 30 s side by side),
//!   DoubleExponent-PT-003 (272,341; one-hot 166,475), SafeBus-PT-06
//!   (410,395; one-hot 1.18 M), BridgeAndVehicles-PT-V20P10N50 (797,994;
//!   one-hot 205,162), -V20P20N20 (6.02 M; one-hot 8.18 M), -V20P20N50
//!   (960,800; one-hot 219,012); the one-hot figures are the states
//!   reached in `results/paper/dd-mcc`, so only indicative. On SatelliteMemory the visited LDD holds
//!   about one node per four states (X00100Y0003: 20,716 nodes, 76,358
//!   states) and the set-level saturation needs one chaining sweep per
//!   token (about 200 there); on PhilosophersDyn the time goes into the
//!   per-group walks above each group's slots (2,310 groups, 170 slots).
//!   Garbage collection of the LDD's node table (issue 36; [`ldd`]):
//!   three B models had ended `table_full` at 75 M nodes in
//!   `results/paper/b-engines-1e3-1e5` (Counter5000, TestIncLTL_mch,
//!   CSE_Test2: one slot counting to 10⁴, each chaining sweep rebuilding
//!   the visited list of values); with it they run on in a bounded table
//!   but still time out at 120 s (Counter5000: 6,737 of 10,002 states, the
//!   time in the O(values) rebuild per sweep). With the same build,
//!   `strategy=node-saturation` finishes DoubleExponent-PT-003 (2,385,072
//!   states = oracle) in 25.0 s, where `saturation` times out at 180 s;
//!   at 180 s it still times out on PhilosophersDyn-PT-10, SafeBus-PT-06,
//!   SatelliteMemory-PT-X01000Y0032, -X01500Y0046 and
//!   BridgeAndVehicles-PT-V20P10N50, -V20P20N20, -V20P20N50
//!   (2-core VM, 5 other jobs; node saturation reports no progress before
//!   it ends, so no states reached). Set-level saturation before and after
//!   these LDD changes, DoubleExponent-PT-003 at 60 s, two alternating
//!   runs each: 163,531 and 94,420 states reached before, 135,402 and
//!   121,010 after: within the load's noise. Node saturation against set-level
//!   saturation, same load: BridgeAndVehicles-PT-V10P10N10 (259,556
//!   states) 24.1 s against 43.2 s, SatelliteMemory-PT-X00100Y0003 6.6 s
//!   against 2.1 s, PhilosophersDyn-PT-03 1.07 s against 0.60 s: not
//!   the default. Where node saturation goes (perf, V10P10N10): 53% in
//!   the learning walk ([`Diagram::unseen`]) of each fired node, 12% in
//!   `relprod`.
//!   Learning only the dirty groups (issue 36, point 4; [`search`],
//!   `mdd` only): a group is learned again only when a group writing one
//!   of its slots has added states, and then on the visited states added
//!   since (a difference of two versions of the visited set), instead of
//!   on the whole frontier at every application (82% of
//!   PhilosophersDyn-PT-10's time went into that walk); the walk
//!   memoises in a map of its own ([`ldd`]). Counters `applications`,
//!   `learn_ms` and `apply_ms` give the time per group. 90 s side by
//!   side on the loaded 2-core VM, states reached (none finishes):
//!   BridgeAndVehicles-PT-V20P10N50 (2,228 groups) 1,816 before, 70,722
//!   after (learning 29.0 s, 13 ms per group; 85,766 applications, 0.12
//!   ms each); PhilosophersDyn-PT-10 (2,310 groups) 2,135 before, 14,665
//!   after (learning 50.1 s, 22 ms per group; 2,820 applications, 7.6 ms
//!   each). A first form kept per group the set of its pending states,
//!   a union per affected group and image (755 of 2,310 groups on
//!   average): PhilosophersDyn-PT-10 stayed at 2,135 states (224,177
//!   live nodes against 23,085).
//!   Learning on the new states themselves (issue 36; [`search`],
//!   `mdd` except node saturation): a set of at most 2^16 new states is
//!   learned by one `next_all` per state (the slot permutation forwards
//!   it; it went group by group before), at most 2^24 states per run;
//!   the groups no new state enables are not applied until one does.
//!   PhilosophersDyn-PT-10 on the loaded 2-core VM, wall clock, trace
//!   figures (neither finishes): before, 36,696 states at 180 s,
//!   learning 22 ms per group (50.1 s at 90 s); after, 59,763 states at
//!   160 s, learning 7.6 s in all (3.3 ms per group), 12,264
//!   applications for 10,498 images (107,862 applications for 10,985
//!   images with learning alone), 12.6 ms per image: the images of the
//!   frontier from the root (122,852 visited nodes for 59,763 states)
//!   are now the cost. BridgeAndVehicles-PT-V20P10N50: 109,956 states at
//!   180 s before and after; learning 7.9 s (3.6 ms per group), 1,847
//!   images at 74 ms each. Counts, `bdd` and `mdd` at 60 s: MCC nets
//!   of at most 10^4 states 104 -> 106 of 106 equal to the oracle
//!   (GlobalResAllocation-PT-03 `mdd`, IBM703-PT-none `bdd` finish),
//!   BEEM 86 -> 88 of 90 (hanoi.1, plc.1 `mdd` finish), none differs.
//!   Images from the learner's successors (issue 36; [`search`], `mdd`
//!   except node saturation): learning on a small set of new states calls
//!   `next_all` on each, so their successors by every group are known; on
//!   models with at least 4 groups per slot, where building those vectors
//!   costs less than the groups' walks over the set's nodes, they are
//!   added as the set's image (the successors not yet visited learned on
//!   the same way), no relational product, the set not joining the
//!   frontier (counter `explicit_images`). A first form (768b1c4,
//!   reverted) marked groups dirty after a large batch had joined the
//!   visited set, so they never learned on it: 390,050 of
//!   philosophers-15's 551,614 states; `tests/symbolic_builtin.rs` runs
//!   the default suite in every configuration since. 60 s, base and new
//!   alternating, two runs each on the loaded 2-core VM, states reached
//!   (medians; neither finishes): PhilosophersDyn-PT-10 (2,310 groups)
//!   23,130 -> 111,363 (4.8x), BridgeAndVehicles-PT-V20P10N50 (2,228
//!   groups) 70,722 -> 92,911 (1.3x). Counts at 60 s: MCC nets of at most
//!   10^4 states `bdd` and `mdd` 53 of 53 equal to the oracle, BEEM `mdd`
//!   45 of 45, `bdd` 43 (hanoi.1, plc.1 time out), none differs; the
//!   default suite 32 of 32.
//!   Then three costs that grew with the groups or the states, not the
//!   work (loaded 2-core VM, load 13-30, so single runs): (a) the initial
//!   state, learned on as every new set but its successors dropped, left
//!   every group owed, and each was applied once to the whole visited
//!   set when saturation reached its level; PhilosophersDyn-PT-10 had
//!   found all 199,051 states by then and spent 890 images (apply 40.9 s
//!   of 173 s, 17.7 ms per group; 115 s of 213 s under a build) on
//!   nothing new. Its successors are now admitted as any learned set's:
//!   0 images, 0 applications. (b) The transition count walked the
//!   visited set (193,122 nodes) from the root once per group, over 37 s
//!   for 2,310 groups; the prefixes above each level are counted once and
//!   each group walks from its top slot ([`Diagram::count_pairs_each`]).
//!   With both, PhilosophersDyn-PT-10 finishes: 199,051 states, 617,350
//!   transitions (= oracle) in 186.5 s beside a release build (learning
//!   91.4 s of it, 0.46 ms per state; perf: the LDD's hash-consing 31%,
//!   `next_all` 15%, tries 7%; 26.4 s in the 173 s run above), by
//!   the harness at 180 s under load 30: 188,971 states, a timeout; so
//!   not yet a row finished in 180 s on this machine. (c) A set of new
//!   states with more than 16 states per node is learned on projections,
//!   not per state: kanban-3 (633,325 states in at most 283 nodes) `mdd`
//!   19.0 -> 4.1 s, model calls 633,325 -> 21,198 (`bdd` 0.76 / 0.55 s).
//!   Then, measured in processor time (`perf stat` task-clock: the
//!   loaded VM gave a run 7-12% of a core, so 180 s of wall clock was
//!   15-20 s of work): (d) a pair learned on states that the relation
//!   holds already is not rebuilt and joined again ([`Diagram::relates`]),
//!   nor are successors the set itself holds subtracted again; (e) the
//!   transition count's walk allocates nothing, and where every state was
//!   learned on directly it is the count of emitted successors; (f) the
//!   progress count takes at most 5% of the time. PhilosophersDyn-PT-10
//!   `mdd` 16.5 -> 9.1 s (7.1 -> 3.9 ms per group), 199,051 / 617,350 =
//!   oracle, by the harness at 180 s: ok in 105.8 s under load.
//!   Then (set-level saturation, learning on new states off, 25 s of
//!   processor time): a third of the learning walk ([`ldd`]'s `unseen`) was
//!   allocation (a vector of entries per node, a memo grown from
//!   empty per group); it now walks the lists and keeps its memo.
//!   Merged relations per top slot (`merge=top`, [`search`]'s `ddunits`)
//!   cut BridgeAndVehicles-PT-V20P20N20's images 3,885 -> 1,010 but
//!   learn more (figures there): a parameter, not the default. Merging
//!   by equal support would merge nothing on issue 36's rows (2,228
//!   groups, 2,228 supports on V20P10N50; 2,255 of 2,310 on
//!   PhilosophersDyn-PT-10).
//!   Learning on new states has a cap per run, the parameter
//!   `explicit_states` (default 2^24 as before; 0 learns every group on
//!   projections only). Issue 36's BridgeAndVehicles rows (about 9 M
//!   states, every batch small) are learned state by state to the end,
//!   one `next_all` and a trie of the successors per state (perf,
//!   V20P20N20, 60 s: the LDD's unique table 36%, `learn_states` 14%,
//!   `trie` 5%, `next_all` 4%). Processor time (`/usr/bin/time`, both
//!   runs side by side on the 2-core VM at load 7-10, 90 s of wall
//!   clock): V20P20N20 reached 1,865,997 states in 41.8 s by default and
//!   4,107,493 in 42.5 s with `explicit_states=0`; with 0 alone it
//!   reached 5,441,729 in 77.4 s and V20P10N50 974,336 in 80.1 s; run
//!   to the end, V20P20N20 with 0 finishes: 9,783,606 states and
//!   34,320,762 transitions (= oracle) in 213.7 s of processor time
//!   (1,040 s of wall clock at load 7-10). Only a cap on this path, not
//!   yet a default: no timing of the other nets on an idle machine. DoubleExponent-PT-003 (2,385,072 states) is finished by
//!   `strategy=node-saturation` (`mdd`, 4.0 s wall, 1.45 s processor,
//!   count = oracle), a configuration `results/paper/dd-mcc` did not run.
//!   The LDD's node store (issue 36; [`ldd`]'s `unique` and `opcache`):
//!   the unique table is open addressing over one word per bucket (id
//!   and hash tag, the project's word hash) instead of a `std` `HashMap`,
//!   the operation cache grows with the nodes in use instead of starting
//!   at 2²⁴ entries, and the first collection runs at 2²¹ nodes instead
//!   of half the capacity (2²⁸ at 16 GiB: no run collected, and
//!   BridgeAndVehicles-PT-V20P20N20 with `explicit_states=0` peaked at
//!   3.7 GB for 158 K live visited nodes). Measured side by side (three
//!   runs at once, load 10-13), BridgeAndVehicles-PT-V10P10N10
//!   `explicit_states=0`, `perf stat` task-clock: 15.5 s before, 15.6 s
//!   with the table and cache, 16.7 s with the earlier collection too
//!   (noise), peak RSS 668 -> 494 -> 252 MB. The time is not the
//!   table's: waiting on memory at operation-cache probes is 39% of it
//!   (perf, call graphs), 25 points of those in `image_rec` walking each
//!   group's image from the root through the slots above the group
//!   (the cost per group of issue 36's point 4), the unique table's
//!   probe 14%. Side by side with the whole change (default
//!   parameters): PhilosophersDyn-PT-10 10.4 -> 8.3 s (4.5 -> 3.6 ms of
//!   processor time per group of 2,310, learning 93% of the run), peak
//!   RSS 491 -> 136 MB; hanoi.1 6.6 -> 6.1 s, 478 -> 126 MB;
//!   BridgeAndVehicles-PT-V20P10N50 at 300 s of wall clock (30 s of
//!   processor time each) 416,104 -> 551,198 states reached, no finish.
//!   BridgeAndVehicles-PT-V20P20N20 `explicit_states=0` run alone to the
//!   end (= oracle), load 10-15: 292.6 s of processor time and 3.66 GB
//!   peak RSS with the table and cache, 333.5 s and 265 MB (110
//!   collections) with the whole change: not the 180 s asked, and the
//!   load's memory contention is larger than any difference here.
//!   Before,
//!   the one-hot ZBDD was chosen because its nodes are in
//!   one-to-one correspondence with an LDD's (one node per present value
//!   of a slot under a given prefix), which is what LTSmin's `ldd` backend
//!   and the Compact Tree paper's MDD figures count, and because absent
//!   values cost nothing, so domains can be generous. The other candidate,
//!   a ZBDD over the binary encoding, has no such correspondence (a value
//!   becomes a bit pattern with zero-suppressed bits) and was not built;
//!   the binary BDD is the `bdd` engine. Final nodes one-hot / binary:
//!   bakery.3 2,189 / 3,906, FMS-PT-00005 446 / 667.
//!
//! Performance (issue 6; `bdd`, `saturation`, one core of a 2-core VM
//! whose other core ran another benchmark, `nice 19`, so ±20% is noise).
//! Where the time went (perf, gear.2, 3.5 s): oxidd's unique table 18%,
//! relational products 15% and projections 8%, zeroing pages 10% (6% a
//! fresh 4M-entry apply cache for each of the 6 restarts), hashing in the
//! node sampling 12% (a SipHash insert and a cloned edge per node). On
//! frogs.2 the time went into learning: 33,209 pairs added one cube and
//! one union at a time. What changed, and what it gave:
//! - Re-encoding moves the live sets to the wider layout instead of
//!   restarting ([`Diagram::transfer`]): no repeated images or model calls.
//!   cambridge.3 3.25 → 1.60 s (16 restarts before), Kanban-PT-00005
//!   0.73 → 0.48 s, SharedMemory-PT-000010 2.0 → 1.2 s. `dd_final_nodes`
//!   can differ slightly (cambridge.3 6,960 → 6,868): the widths now grow
//!   by the largest misfit of a whole batch, not by the first one. The peak
//!   now covers the whole run, not only the last attempt (Kanban 4,673 →
//!   5,818).
//! - A learned batch is one diagram ([`Diagram::relation`]), joined to the
//!   relation by one union: frogs.2 2.95 → 1.69 s.
//! - Node sampling walks borrowed edges under one lock with an Fx hash set;
//!   the progress state count runs at most every 250 ms. Same sampling
//!   points as before, so peaks stay comparable.
//! - Projection of a set with no variable above the group's top slot (the
//!   node saturation's suffix sets) quantifies a cube of the slots below
//!   the top only; the `mdd` projection stops below the group's last slot
//!   (every ZBDD node has a set) instead of walking to the bottom.
//! - Not taken: forcing oxidd garbage collections when the manager held 4×
//!   the live nodes made at.3 slower (22.7 s against 14.5 s; a collection
//!   empties the apply cache), so collection stays oxidd's (95% of the node
//!   capacity); apply cache of 1M or 16M entries instead of 4M: at.3 18.5
//!   and 20.6 s against 14.5 s. Node-wise saturation is kept as
//!   `strategy=node-saturation` but not made the default (measurements in
//!   [`search`]).
//! - Unchanged, and where the time goes now (at.3, 16 s): oxidd's unique
//!   table 31%, relational products 18%, unions and differences 22%,
//!   projections 9%: the search is bound by oxidd's apply on the
//!   intermediate sets of the set-level strategy (peak 142,885 nodes for a
//!   final 34,032). TokenRing-PT-015 (3.5·10⁷ states) takes 160 s: the
//!   set-level order applies 938,068 whole-set images (`node-saturation`:
//!   15.7 s). Dekker-PT-020 (19 s) is bound by learning: 31.5 million
//!   model calls for 440 transitions, its groups reading many places.

mod bdd;
mod diagram;
mod layout;
mod ldd;
mod learn;
mod mdd;
mod order;
mod search;
mod spec;

pub use diagram::Diagram;
pub use layout::{Encoding, Layout};
pub use search::Strategy;
pub use spec::{SymbolicConfig, BDD, MDD};

use crate::explore::ExploreConfig;
use crate::registry::EngineOptions;
use crate::report::{RunReport, RunStatus};
use diagram::{DdResult, GroupShape};
use learn::Stop;
use pins::{Model, Value};
use search::Search;
use std::collections::BTreeMap;

/// A learned transition of a group: (short source, short target).
type Pair = (Vec<Value>, Vec<Value>);
use std::time::Instant;

/// Bytes of one inner node of oxidd's index-based manager.
pub const BYTES_PER_NODE: u64 = 16;

impl SymbolicConfig {
    fn params(&self, encoding: Encoding) -> String {
        let strategy = crate::registry::word(self.strategy);
        let mut s = format!(
            "strategy={strategy};threads={};slot_order={}",
            self.threads,
            if self.force_order { "force" } else { "model" }
        );
        s += match encoding {
            Encoding::Binary { interleaved: true } => ";order=interleaved",
            Encoding::Binary { interleaved: false } => ";order=blocked",
            Encoding::OneHot => ";encoding=onehot",
            Encoding::List => ";encoding=ldd",
        };
        // Shown only where set: the default's rows keep their parameters.
        if self.merge && encoding == Encoding::List {
            s += ";merge=top";
        }
        let explicit = spec::EXPLICIT_STATES.default.0 as u64;
        if self.explicit_states != explicit && encoding == Encoding::List {
            s += &format!(";explicit_states={}", self.explicit_states);
        }
        s
    }
}

/// An encoding of the slots the symbolic engines run on: its [`Encoding`]
/// and its manager, both from the engines' configuration.
pub(crate) trait Encoded: Diagram {
    fn encoding(config: &SymbolicConfig) -> Encoding;
    fn create(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Self>;
}

impl Encoded for bdd::Bdd {
    fn encoding(config: &SymbolicConfig) -> Encoding {
        Encoding::Binary {
            interleaved: config.interleaved,
        }
    }
    fn create(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Self> {
        bdd::Bdd::new(layout, shapes, config)
    }
}

impl Encoded for mdd::Mdd {
    fn encoding(_: &SymbolicConfig) -> Encoding {
        Encoding::OneHot
    }
    fn create(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Self> {
        mdd::Mdd::new(layout, shapes, config)
    }
}

impl Encoded for ldd::Ldd {
    fn encoding(_: &SymbolicConfig) -> Encoding {
        Encoding::List
    }
    fn create(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Self> {
        ldd::Ldd::new(layout, shapes, config.node_capacity, config.merge)
    }
}

/// The search of the `mdd` engine, in the encoding its parameters choose.
pub(crate) fn search_mdd(
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    if SymbolicConfig::from_options(opts)?.list {
        search_with::<ldd::Ldd>(model, opts, cfg)
    } else {
        search_with::<mdd::Mdd>(model, opts, cfg)
    }
}

/// The search of the `bdd` engine (`D` = [`bdd::Bdd`]) or of the `mdd`
/// engine (`D` = [`mdd::Mdd`]).
pub(crate) fn search_with<D: Encoded>(
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    let config = SymbolicConfig::from_options(opts)?;
    Ok(run::<D>(model, &config, cfg))
}

/// Every state vector reachable in `model`, decoded from the final
/// visited set of engine `engine` (`bdd` or `mdd`), in the diagram's order.
/// For tests that compare with an explicit exploration, vector by vector.
pub fn reachable_vectors(
    engine: &str,
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Vec<Vec<Value>>, String> {
    let config = SymbolicConfig::from_options(opts)?;
    match engine {
        "bdd" => decode::<bdd::Bdd>(model, &config),
        "mdd" if config.list => decode::<ldd::Ldd>(model, &config),
        "mdd" => decode::<mdd::Mdd>(model, &config),
        other => Err(format!("{other} is not a symbolic engine")),
    }
}

fn decode<D: Encoded>(model: &dyn Model, config: &SymbolicConfig) -> Result<Vec<Vec<Value>>, String> {
    let permuted = slot_order(model, config);
    let model: &dyn Model = &permuted;
    let shapes = shapes(model);
    let layout = Layout::for_initial(D::encoding(config), &model.initial_state());
    let make = |layout: Layout| D::create(layout, &shapes, config);
    let mut search =
        Search::new(layout, &make, model, &shapes, None).map_err(|_| "node table too small")?;
    match search.run(config.strategy, config.explicit_states) {
        Ok(()) => {
            let all: Vec<usize> = (0..model.slot_count()).collect();
            let mut out = Vec::new();
            search.d.for_each_vector(&search.visited, &all, &mut |v| {
                out.push(permuted.to_inner(v))
            });
            Ok(out)
        }
        Err(Stop::Widen(_)) => unreachable!("the search re-encodes"),
        Err(Stop::Model(e)) => Err(e.to_string()),
        Err(Stop::Full) => Err("node table full".into()),
    }
}

/// `model` seen through the configured slot order.
fn slot_order<'m>(model: &'m dyn Model, config: &SymbolicConfig) -> order::Permuted<'m> {
    let k = model.slot_count();
    let order = if config.force_order {
        let sets: Vec<Vec<usize>> = shapes(model).into_iter().map(|g| g.proj).collect();
        order::force(k, &sets, 50)
    } else {
        (0..k).collect()
    };
    order::Permuted::new(model, order)
}

/// The group shapes of `model`: read ∪ write and write slots.
fn shapes(model: &dyn Model) -> Vec<GroupShape> {
    model
        .groups()
        .iter()
        .map(|g| {
            let mut proj: Vec<usize> = g.read.iter().chain(&g.write).copied().collect();
            proj.sort_unstable();
            proj.dedup();
            GroupShape {
                proj,
                write: g.write.clone(),
            }
        })
        .collect()
}

fn run<D: Encoded>(model: &dyn Model, config: &SymbolicConfig, cfg: ExploreConfig<'_>) -> RunReport {
    let start = Instant::now();
    let permuted = slot_order(model, config);
    let model: &dyn Model = &permuted;
    let shapes = shapes(model);
    let encoding = D::encoding(config);
    let layout = Layout::for_initial(encoding, &model.initial_state());
    let make = |layout: Layout| D::create(layout, &shapes, config);
    if let Some(announce) = cfg.configured {
        announce(&config.params(encoding));
    }
    let cb = cfg.progress.map(|c| c as &mut dyn FnMut(&_));
    let mut report = match Search::new(layout, &make, model, &shapes, cb) {
        Err(_) => RunReport::failed(RunStatus::TableFull, "node table too small".into()),
        Ok(mut search) => match search.run(config.strategy, config.explicit_states) {
            Err(Stop::Widen(_)) => unreachable!("the search re-encodes"),
            Err(Stop::Model(e)) => {
                summarize(&search, &shapes, RunStatus::ModelError, e.to_string())
            }
            Err(Stop::Full) => summarize(
                &search,
                &shapes,
                RunStatus::TableFull,
                format!(
                    "decision-diagram node table full ({} nodes)",
                    config.node_capacity
                ),
            ),
            Ok(()) => summarize(&search, &shapes, RunStatus::Ok, String::new()),
        },
    };
    if config.strategy != Strategy::Bfs {
        report.levels = None;
    }
    report.explore_time_s = start.elapsed().as_secs_f64();
    report.engine_params = config.params(encoding);
    report
}

/// The transitions from the visited set: every group's relation, its
/// transitions to the error state and the extra events of pairs it
/// produced several times, counted in one [`Diagram::count_pairs_each`]
/// (`None` where a count does not fit or a relation runs out of nodes).
fn transitions<D: Diagram>(search: &Search<'_, '_, D>, shapes: &[GroupShape]) -> Option<u128> {
    if let Some(n) = search.explicit_transitions {
        return Some(u128::from(n));
    }
    let d = &search.d;
    // (group, relation, events per pair); `None` for a relation not built.
    let mut counted: Vec<(usize, Option<D::Set>, u128)> = Vec::new();
    for (g, rel) in search.rels.iter().enumerate().take(shapes.len()) {
        counted.push((g, Some(rel.clone()), 1));
        // Transitions to the error state: one per visited state whose
        // projection reaches it, counted through the identity relation
        // on those projections.
        let sources = &search.learner.escape_sources[g];
        if !sources.is_empty() {
            let shape = &shapes[g];
            let pairs: Vec<(Vec<Value>, Vec<Value>)> = sources
                .iter()
                .map(|cur| {
                    let write = shape
                        .write
                        .iter()
                        .map(|w| cur[shape.proj.binary_search(w).expect("write ⊆ proj")])
                        .collect();
                    (cur.clone(), write)
                })
                .collect();
            counted.push((g, d.relation(shape, &pairs).ok(), 1));
        }
        // Pairs the group produces several times from one source: the
        // relation holds each once; add the extra events of those
        // reached, one relation per multiplicity.
        let mut by_extra: BTreeMap<u64, Vec<Pair>> = BTreeMap::new();
        for (from, to, extra) in &search.learner.repeats[g] {
            by_extra
                .entry(*extra)
                .or_default()
                .push((from.clone(), to.clone()));
        }
        for (extra, pairs) in by_extra {
            counted.push((g, d.relation(&shapes[g], &pairs).ok(), u128::from(extra)));
        }
    }
    let built: Option<Vec<(usize, &D::Set)>> =
        counted.iter().map(|(g, r, _)| Some((*g, r.as_ref()?))).collect();
    let counts = d.count_pairs_each(&search.visited, &built?);
    counted
        .iter()
        .zip(counts)
        .try_fold(0u128, |t, ((_, _, events), c)| t.checked_add(c?.checked_mul(*events)?))
}

fn summarize<D: Diagram>(
    search: &Search<'_, '_, D>,
    shapes: &[GroupShape],
    status: RunStatus,
    mut message: String,
) -> RunReport {
    let d = &search.d;
    let states = d.count_states(&search.visited);
    let transitions = if status == RunStatus::Ok {
        transitions(search, shapes)
    } else {
        Some(0)
    };
    let to_u64 = |c: Option<u128>| c.and_then(|c| u64::try_from(c).ok());
    let states = match to_u64(states) {
        Some(s) => s,
        None => {
            message = "state count does not fit 64 bits".into();
            u64::MAX
        }
    };
    let final_nodes = d.shared_nodes(&[&search.visited]);
    let f = &search.figures;
    let peak = f.peak_nodes.max(final_nodes);
    RunReport {
        status,
        message,
        states,
        transitions: to_u64(transitions).unwrap_or(u64::MAX),
        // BFS levels; chaining and saturation have no level structure
        // (the caller clears it), their sweeps are the `rounds` counter.
        levels: Some(f.rounds.saturating_sub(1)),
        engine_bytes_used: final_nodes * BYTES_PER_NODE,
        engine_bytes_alloc: peak * BYTES_PER_NODE,
        max_slot_bits: Value::BITS - search.learner.value_bits_or.leading_zeros(),
        universe_log2: None,
        explore_time_s: 0.0,
        engine_params: String::new(),
        dd_final_nodes: Some(final_nodes),
        dd_peak_nodes: Some(peak),
        op_latency: None,
        counters: vec![
            (
                "dd_peak_visited_nodes".into(),
                f.peak_visited_nodes.max(final_nodes),
            ),
            ("learned_transitions".into(), search.learner.learned),
            ("model_calls".into(), search.learner.calls),
            ("images".into(), f.images),
            ("rounds".into(), f.rounds),
            ("fires".into(), f.fires),
            ("applications".into(), f.applications),
            ("learn_ms".into(), f.learn_ns / 1_000_000),
            ("apply_ms".into(), f.apply_ns / 1_000_000),
            ("explicit_states".into(), f.explicit_states),
            ("explicit_images".into(), f.explicit_images),
            ("reencodings".into(), f.reencodings),
            ("dd_collections".into(), f.collections),
            (
                "relation_nodes".into(),
                d.shared_nodes(&search.rels.iter().collect::<Vec<_>>()),
            ),
        ],
    }
}
