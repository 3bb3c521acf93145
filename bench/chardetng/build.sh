#!/bin/sh
# build.sh builds chardetng-guess, the command bench/detectcmp runs for
# Firefox's detector, offline: chardetng's source from CHARDETNG_SRC (a
# checkout of https://github.com/hsivonen/chardetng, v0.1.17 was used) and
# its dependencies from Debian's packaged crates (apt-get install
# librust-encoding-rs-dev librust-memchr-dev librust-cfg-if-dev), so no
# crates.io access is needed. Prints the path of the binary.
set -eu
cd "$(dirname "$0")"
src=${CHARDETNG_SRC:?set CHARDETNG_SRC to a chardetng checkout}
rm -rf chardetng-src && mkdir chardetng-src
if [ -d "$src/.git" ] || [ -f "$src/HEAD" ]; then
	git --git-dir="$( [ -d "$src/.git" ] && echo "$src/.git" || echo "$src")" archive HEAD | tar -x -C chardetng-src
else
	cp -r "$src"/. chardetng-src/
fi
# Debian packages neither rayon nor arrayvec (only the optional
# "multithreading" feature needs them) nor detone (tests only): drop them.
sed -i -e '/^rayon = /d' -e '/^arrayvec = /d' -e '/^multithreading = /d' \
	-e '/^\[dev-dependencies\]/,/^\[/{/^\[dev-dependencies\]/d;/^\[/!d}' chardetng-src/Cargo.toml
mkdir -p .cargo
cat > .cargo/config.toml <<'CFG'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
CFG
cargo build --release -q
echo "$(pwd)/target/release/chardetng-guess"
