# statebench artifact image: Debian bookworm, a pinned Rust toolchain, the
# project built in release mode. Every step after the toolchain is one CI
# runs (.ci/run): scripts/install-deps.sh (as root it apt-installs python3,
# curl, spin, gcc, fonts-dejavu-core...), then cargo build --release.
#
#   docker build -t statebench .
#   docker run --rm -v "$PWD/results:/statebench/results" statebench
#       the README's main command (statebench run: the embedded built-in
#       suite, no dataset needed); CSV and report under ./results/
#   docker run --rm -v /path/to/shared/datasets:/data:ro \
#       -v "$PWD/results:/statebench/results" statebench \
#       statebench run --suite beem --max-states 1e7
#       BEEM/MCC/Promela models: mount a datasets directory (laid out as
#       ../shared/datasets: beem/dve, beem/promela, mcc/pnml) at /data;
#       STATEBENCH_DATA=/data is where model files are looked up first.
#       Without a mount, fetch them inside a container:
#       bash scripts/fetch-datasets.sh --manifest datasets/mcc.csv --dest /data
#   docker run --rm statebench cargo test --workspace --release
#
# The toolchain is pinned to the one the project's CI and development
# machines run (Cargo.toml's rust-version, 1.91, is the minimum).
FROM debian:bookworm

ARG RUST_VERSION=1.95.0
ENV RUSTUP_HOME=/usr/local/rustup \
    CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:$PATH \
    STATEBENCH_DATA=/data

# What install-deps.sh itself needs to run plus rustup's download; git
# records the project's commit in every CSV row.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends ca-certificates curl git \
 && rm -rf /var/lib/apt/lists/*
RUN curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
    | sh -s -- -y --no-modify-path --profile minimal \
        --default-toolchain "$RUST_VERSION" --component rustfmt,clippy

WORKDIR /statebench
COPY . .
RUN bash scripts/install-deps.sh \
 && rm -rf /var/lib/apt/lists/*
RUN cargo build --release \
 && ln -s /statebench/target/release/statebench /usr/local/bin/statebench \
 && mkdir -p /data

CMD ["statebench", "run"]
