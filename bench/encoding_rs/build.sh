#!/bin/sh
# build.sh builds encoding_rs-bench, the Rust side of run.sh, offline with the
# nightly toolchain (simd-accel needs core::simd): encoding_rs 0.8.35 and its
# dependencies come from git checkouts or bare mirrors, vendored into
# vendor/ as a directory source, so no crates.io access is needed:
#
#	ENCODING_RS_SRC     https://github.com/hsivonen/encoding_rs (tag v0.8.35)
#	ANY_ALL_SRC         https://github.com/hsivonen/any_all_workaround (tag v0.1.0)
#	CFG_IF_SRC          https://github.com/rust-lang/cfg-if (tag v1.0.4)
#
# Each defaults to the snapshot that the fetch tool leaves under
# /work/.mirror. Prints the path of the binary; exits 2 without cargo.
set -eu
cd "$(dirname "$0")"
command -v cargo >/dev/null 2>&1 || { echo "build.sh: no cargo" >&2; exit 2; }
m=/work/.mirror
ENCODING_RS_SRC=${ENCODING_RS_SRC:-$m/hsivonen+encoding_rs/repo}
ANY_ALL_SRC=${ANY_ALL_SRC:-$m/hsivonen+any_all_workaround/repo}
CFG_IF_SRC=${CFG_IF_SRC:-$m/rust-lang+cfg-if/repo}

# vendor NAME SRC TAG: the tree of TAG in the repository SRC (a work tree or
# a bare git directory) as vendor/NAME, with the empty checksum file that a
# directory source asks for.
vendor() {
	gitdir=$2
	[ -d "$2/.git" ] && gitdir=$2/.git
	mkdir -p "vendor/$1"
	git --git-dir="$gitdir" archive "$3" | tar -x -C "vendor/$1"
	echo '{"files":{}}' >"vendor/$1/.cargo-checksum.json"
}
rm -rf vendor && mkdir vendor
vendor encoding_rs "$ENCODING_RS_SRC" v0.8.35
vendor any_all_workaround "$ANY_ALL_SRC" v0.1.0
vendor cfg-if "$CFG_IF_SRC" v1.0.4
mkdir -p .cargo
cat >.cargo/config.toml <<'CFG'
[source.crates-io]
replace-with = "vendored"
[source.vendored]
directory = "vendor"
[net]
offline = true
CFG
# target-cpu=native: encoding_rs picks its SIMD width at compile time
# (no run-time dispatch), so it gets this CPU's AVX2 as charsniff does.
export RUSTFLAGS="${RUSTFLAGS:--C target-cpu=native}"
if ! cargo +nightly build --release -q 2>build.log; then
	# Nightlies from 2026 moved Mask::select into the core::simd::Select
	# trait: x_user_defined.rs, the one caller, needs it in scope.
	sed -i 's/^\( *\)use core::simd::cmp::SimdPartialOrd;/&\n\1use core::simd::Select;/' \
		vendor/encoding_rs/src/x_user_defined.rs
	cargo +nightly build --release -q || { cat build.log >&2; exit 1; }
fi
rm -f build.log
echo "$(pwd)/target/release/encoding_rs-bench"
