//! NUMA placement of a multi-threaded run's memory.
//!
//! The concurrent tables are shared by every worker, and their bucket
//! arrays and data chunks are zeroed by whichever thread allocates them
//! (mostly the one that grows the table, with the others stopped). Under
//! Linux's default first-touch policy all those pages would land on that
//! thread's node, and on a multi-socket machine the workers of the other
//! sockets would reach every table across the interconnect. So a run with
//! more than one thread on a machine with more than one NUMA node starts
//! its child under `numactl --interleave=all`: its pages are spread round
//! robin over all nodes, as LTSmin's shared tables are, and every worker
//! sees the same mix of local and remote memory. One-thread runs and
//! single-node machines (this one) keep the default policy, so there the
//! mechanism costs nothing. Without `numactl` on a multi-node machine the
//! run proceeds with the default policy and says so in its counters.
//!
//! Every multi-threaded row records `numa_nodes=N` and
//! `numa_interleave=0|1` in `counters`.
//!
//! Owns the node count and the command prefix; must not know engines,
//! models or the CSV beyond those two counters.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How a run's memory is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// NUMA nodes of the machine (1 when the kernel shows none).
    pub nodes: usize,
    /// Whether the child runs under `numactl --interleave=all`.
    pub interleave: bool,
}

impl Placement {
    /// `name=value` pairs for the row's `counters`.
    pub fn counters(&self) -> String {
        format!(
            "numa_nodes={};numa_interleave={}",
            self.nodes,
            u8::from(self.interleave)
        )
    }
}

/// NUMA nodes listed under `sysfs_node_dir` (`node0`, `node1`, ...); 1
/// when the directory is missing or lists none (a kernel without NUMA).
pub fn node_count(sysfs_node_dir: &Path) -> usize {
    let Ok(dir) = std::fs::read_dir(sysfs_node_dir) else {
        return 1;
    };
    let n = dir
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_str()
                .and_then(|s| s.strip_prefix("node"))
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .count();
    n.max(1)
}

/// `program` found in one of the directories of `path`.
fn find_in_path(program: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The command that runs `exe` with `threads` workers, and its placement:
/// `numactl --interleave=all exe` when `threads > 1`, `nodes > 1` and
/// `numactl` is in `path`; else `exe` itself.
pub fn command(
    exe: &Path,
    threads: u32,
    nodes: usize,
    path: Option<&OsStr>,
) -> (Command, Placement) {
    if threads > 1 && nodes > 1 {
        if let Some(numactl) = find_in_path("numactl", path) {
            let mut cmd = Command::new(numactl);
            cmd.arg("--interleave=all").arg(exe);
            return (
                cmd,
                Placement {
                    nodes,
                    interleave: true,
                },
            );
        }
    }
    (
        Command::new(exe),
        Placement {
            nodes,
            interleave: false,
        },
    )
}

/// This machine's NUMA node count.
pub fn machine_nodes() -> usize {
    node_count(Path::new("/sys/devices/system/node"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tempdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("statebench-numa-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn nodes_are_the_numbered_node_directories() {
        let d = tempdir("sysfs");
        for n in [
            "node0", "node1", "node3", "nodex", "node", "possible", "has_cpu",
        ] {
            std::fs::create_dir_all(d.join(n)).unwrap();
        }
        assert_eq!(node_count(&d), 3);
        assert_eq!(node_count(&d.join("absent")), 1);
        let empty = tempdir("empty");
        assert_eq!(node_count(&empty), 1);
        std::fs::remove_dir_all(d).unwrap();
        std::fs::remove_dir_all(empty).unwrap();
    }

    #[test]
    fn interleaves_only_multi_threaded_runs_on_several_nodes_with_numactl() {
        let bin = tempdir("bin");
        let numactl = bin.join("numactl");
        std::fs::write(&numactl, "#!/bin/sh\nexec \"$@\"\n").unwrap();
        let path = Some(bin.as_os_str());
        let exe = Path::new("/opt/statebench");

        let (cmd, p) = command(exe, 2, 2, path);
        assert!(p.interleave);
        assert_eq!(cmd.get_program(), numactl.as_os_str());
        let args: Vec<_> = cmd.get_args().collect();
        assert_eq!(args, [OsStr::new("--interleave=all"), exe.as_os_str()]);
        assert_eq!(p.counters(), "numa_nodes=2;numa_interleave=1");

        for (threads, nodes, path) in [(1, 2, path), (2, 1, path), (2, 2, None)] {
            let (cmd, p) = command(exe, threads, nodes, path);
            assert!(!p.interleave, "{threads} threads, {nodes} nodes");
            assert_eq!(cmd.get_program(), exe.as_os_str());
            assert_eq!(cmd.get_args().count(), 0);
        }
        std::fs::remove_dir_all(bin).unwrap();
    }
}
