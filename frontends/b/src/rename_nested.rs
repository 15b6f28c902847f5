//! Renamed instances of machines that include others (`INCLUDES r.M`
//! where `M` includes `q.N`: LustreTranslations' speed_verif). The
//! instance `r.M` has its own variables and operations renamed; the
//! machines it includes are loaded under their own names, not renamed a
//! second time (`r.q.x` in B). With one instance of `M` in the
//! composition, that is the same model up to names; with two (or `M`
//! beside an instance of it) they would share the included machines'
//! variables: unsupported.
//!
//! Owns that check; `load` reads and renames the instances.

use crate::ast::Machine;
use crate::error::{BError, ErrorKind};
use crate::parse::err_at;

/// Refuses a renamed instance that includes, extends or imports a
/// machine beside another instance of the same machine.
pub(crate) fn check_single_instances(machines: &[Machine], files: &[String]) -> Result<(), BError> {
    let base = |m: &Machine| m.name.rsplit('.').next().unwrap_or_default().to_owned();
    for m in machines.iter().filter(|m| m.name.contains('.')) {
        let Some(r) = m.includes.iter().chain(&m.extends).chain(&m.imports).next() else {
            continue;
        };
        let b = base(m);
        if machines.iter().filter(|x| base(x) == b).count() > 1 {
            return Err(err_at(
                files,
                ErrorKind::Unsupported,
                r.pos,
                format!(
                    "a renamed instance of {b} using {} beside another instance of {b} \
                     (they would share its variables)",
                    r.name
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Writes `files` in a fresh folder and reads `main` from it.
    fn read(tag: &str, files: &[(&str, &str)], main: &str) -> Result<(usize, usize), String> {
        let dir = std::env::temp_dir().join(format!("brename-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for (name, text) in files {
            std::fs::write(dir.join(name), text).expect("write");
        }
        let r = crate::parse_file(&dir.join(main)).map(|m| frontend_testkit::bfs::count(&m));
        let _ = std::fs::remove_dir_all(&dir);
        r.map_err(|e| e.to_string())
    }

    const BIT: &str = "MACHINE Bit VARIABLES b INITIALISATION b := 0
        OPERATIONS flip = PRE b = 0 THEN b := 1 END END";
    const PAIR: &str = "MACHINE Pair INCLUDES n.Bit VARIABLES c INITIALISATION c := 0
        OPERATIONS step = PRE c = 0 THEN c := 1 || n.flip END END";

    /// One instance `r.Pair` of a machine including `n.Bit`: states
    /// (c, n.b) root, 00, 11; the initialisation and `go` once.
    #[test]
    fn one_renamed_instance_including_another_is_counted() {
        let top = "MACHINE Top INCLUDES r.Pair OPERATIONS go = SELECT r.c = 0 THEN r.step END END";
        let files = [("Bit.mch", BIT), ("Pair.mch", PAIR), ("Top.mch", top)];
        assert_eq!(read("one", &files, "Top.mch"), Ok((3, 2)));
    }

    /// Two instances of `Pair` would share `n.Bit`: refused.
    #[test]
    fn two_renamed_instances_including_another_are_refused() {
        let top = "MACHINE Top INCLUDES r.Pair, s.Pair OPERATIONS go = r.step END";
        let files = [("Bit.mch", BIT), ("Pair.mch", PAIR), ("Top.mch", top)];
        let e = read("two", &files, "Top.mch").expect_err("refused");
        assert!(e.contains("beside another instance of Pair"), "{e}");
    }
}
