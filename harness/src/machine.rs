//! The machine and code a campaign runs on: host, CPU, cores, memory, OS
//! (via sysinfo) and the project's git commit. Recorded in every row so a
//! CSV alone says where it came from. Must not measure runs.

/// Facts about the machine and the code version.
#[derive(Clone, Debug)]
pub struct Machine {
    pub host: String,
    pub cpu_model: String,
    pub cores: u32,
    pub mem_total_bytes: u64,
    pub os: String,
    pub git_commit: String,
}

impl Machine {
    pub fn detect() -> Machine {
        let mut sys = sysinfo::System::new();
        sys.refresh_cpu_all();
        sys.refresh_memory();
        let cpu_model = sys
            .cpus()
            .first()
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "unknown".into());
        Machine {
            host: sysinfo::System::host_name().unwrap_or_else(|| "unknown".into()),
            cpu_model,
            cores: sys.cpus().len() as u32,
            mem_total_bytes: sys.total_memory(),
            os: sysinfo::System::long_os_version().unwrap_or_else(|| "unknown".into()),
            git_commit: git_commit(),
        }
    }
}

/// The commit the binary was built from (stamped by `build.rs`, with
/// `-dirty` when tracked files differed); for a build outside a checkout,
/// `HEAD` of the project checkout at run time; `unknown` when neither exists.
fn git_commit() -> String {
    let built = env!("STATEBENCH_BUILD_COMMIT");
    if built != "unknown" {
        return built.to_string();
    }
    crate::git::commit(&crate::datasets::project_root())
}
