//! `statebench-child`: one isolated run (load a model, run one engine,
//! report on stdout), the lean form of `statebench child` that the parent
//! runs when it lies beside `statebench` (see the library's `child`).

fn main() {
    std::process::exit(statebench_child::child::main_from(
        std::env::args_os().skip(1),
    ));
}
