//! Helpers shared by the integration tests: where the BEEM Promela corpus
//! lives (`../shared/datasets/beem/promela/` next to the workspace root), a
//! naive breadth-first search over `next_all`, and SPIN itself as the
//! oracle when it is installed. Tests only; writes only into temporary
//! directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use frontend_testkit::corpus;
use pins::Model;

/// `<workspace>/../shared/datasets/beem/promela`, or `None` when absent
/// (see [`frontend_testkit::missing`]: a failure under CI).
pub fn promela_dir() -> Option<PathBuf> {
    corpus::dataset("beem/promela", "BEEM Promela corpus", &[])
}

/// Every `.pm` file of `dir`, sorted.
pub fn pm_files(dir: &Path) -> Vec<PathBuf> {
    corpus::files_with_extension(dir, "pm")
}

/// Reachable states of `m` (breadth-first, every successor of every group,
/// each checked against its group's write set: a successor changing a slot
/// outside it panics, naming the group and the slot).
pub fn count(m: &dyn Model) -> usize {
    frontend_testkit::bfs::count(m).0
}

/// Whether `spin` and `gcc` can be run.
pub fn spin_available() -> bool {
    let ok = |cmd: &str, arg: &str| {
        Command::new(cmd)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    ok("spin", "-V") && ok("gcc", "--version")
}

/// SPIN's `states, stored` for the model `text`, computed by SPIN itself:
/// `spin -a m.pml; gcc -O0 -DNOREDUCE -DSAFETY -o pan pan.c; ./pan -m100000 -E -c0`
/// (no partial-order reduction, invalid end states ignored, no stop at errors).
pub fn spin_states(text: &str) -> u64 {
    let dir = std::env::temp_dir().join(format!(
        "statebench-promela-{}-{:x}",
        std::process::id(),
        fxhash(text)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("m.pml"), text).expect("write model");
    let run = |cmd: &str, args: &[&str]| {
        let o = Command::new(cmd)
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("run");
        assert!(
            o.status.success(),
            "{cmd} {args:?} failed: {}",
            String::from_utf8_lossy(&o.stdout)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    run("spin", &["-a", "m.pml"]);
    run(
        "gcc",
        &["-O0", "-w", "-DNOREDUCE", "-DSAFETY", "-o", "pan", "pan.c"],
    );
    let out = run("./pan", &["-m100000", "-E", "-c0"]);
    let _ = std::fs::remove_dir_all(&dir);
    out.lines()
        .find(|l| l.contains("states, stored"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no state count in pan's output:\n{out}"))
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}
