#!/usr/bin/env bash
# Installs what statebench needs beyond a Rust toolchain, and checks the
# tools its tests and scripts use. Idempotent; used by .ci/run and the README.
set -euo pipefail

need=()
# spin and gcc: the SPIN peer engines (spin -a generates a C verifier, gcc
# compiles it) and scripts/spin-oracle.py.
for tool in cargo python3 curl sha256sum tar spin gcc; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
missing_pkgs=()
for tool in "${need[@]}"; do
  case "$tool" in
    cargo) echo "install-deps: a Rust toolchain (cargo) is required: see https://rustup.rs" >&2; exit 1 ;;
    python3) missing_pkgs+=(python3) ;;
    curl) missing_pkgs+=(curl) ;;
    sha256sum) missing_pkgs+=(coreutils) ;;
    tar) missing_pkgs+=(tar) ;;
    spin) missing_pkgs+=(spin) ;;
    gcc) missing_pkgs+=(gcc libc6-dev) ;;
  esac
done
# The font of the figures' text: `statebench plot`/`report` read a TrueType
# file at run time (harness/src/plot/font.rs lists where it looks;
# STATEBENCH_FONT overrides). Debian: fonts-dejavu-core.
font_found=no
for font in "${STATEBENCH_FONT:-}" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
  /usr/share/fonts/dejavu/DejaVuSans.ttf /usr/share/fonts/TTF/DejaVuSans.ttf \
  /usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf \
  /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf \
  /System/Library/Fonts/Supplemental/Arial.ttf /Library/Fonts/Arial.ttf; do
  if [ -n "$font" ] && [ -f "$font" ]; then font_found=yes; break; fi
done
[ "$font_found" = yes ] || missing_pkgs+=(fonts-dejavu-core)
# numactl: multi-threaded runs on a machine with several NUMA nodes start
# under `numactl --interleave=all` (harness/src/numa.rs); not needed on a
# single-node machine.
numa_nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$numa_nodes" -gt 1 ] && ! command -v numactl >/dev/null 2>&1; then
  missing_pkgs+=(numactl)
fi
if [ "${#missing_pkgs[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing_pkgs[@]}"
  else
    echo "install-deps: please install: ${missing_pkgs[*]}" >&2
    exit 1
  fi
fi
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done
echo "install-deps: ok"
