#!/bin/sh
# run.sh compares charsniff's decoder with encoding_rs 0.8.35 (simd-accel)
# on every bench corpus, in one interleaved run, and prints a Markdown
# report: the CPU, the toolchains, and for each corpus the median MB/s over
# CPU time of each side and their ratio (above 1: charsniff is faster).
# build.sh builds the Rust side offline; without cargo run.sh says so and
# exits 0, so that nothing else depends on the Rust build.
#
# Usage: sh bench/encoding_rs/run.sh [-rounds N] [-time SECONDS] [-only NAME]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v cargo >/dev/null 2>&1; then
	echo "run.sh: no cargo, skipping the encoding_rs comparison" >&2
	exit 0
fi
rust=$(sh "$here/build.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -o "$tmp/cmp" ./encoding_rs)
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "- CPU: ${cpu:-unknown} ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
echo "- charsniff: $(git -C "$here" describe --always --dirty 2>/dev/null), $(go version | cut -d' ' -f3-)"
echo "- encoding_rs 0.8.35, features alloc + simd-accel, $(rustc +nightly --version), RUSTFLAGS=${RUSTFLAGS:--C target-cpu=native}"
echo "- command: sh bench/encoding_rs/run.sh $*"
echo
(cd "$here/.." && "$tmp/cmp" -rust "$rust" "$@")
