#!/usr/bin/env bash
# bench/regress.sh: the regression guard. It builds a base commit and the
# working tree (the command and the test binaries of decode/ and bench/),
# runs the key workloads on both, interleaved round by round (base, new,
# new, base, ...), and prints for each workload the ratio new/base of its
# time: the median of the rounds' ratios, with their min and max, and the
# CPU's name. Ratios below 1 are faster. See bench/README.md.
#
# Usage: bench/regress.sh [--smoke] [--rounds N] [--tags TAGS] [[BASE=]REV]
#
#   REV          the commit to compare with (also BASE=REV as an argument
#                or in the environment); default: the last tag before HEAD, else the
#                merge base of HEAD and origin/main, else of HEAD and main
#                (on main itself with nothing changed: HEAD~1)
#   --rounds N   rounds of A/B pairs (default 5)
#   --tags TAGS  build both sides with -tags TAGS (purego: the portable
#                decoder); GODEBUG=cpu.avx2=off or cpu.avx512f=off in the
#                environment reaches both
#   --smoke      base HEAD, one round, tiny inputs: that the script works,
#                in CI; its numbers mean nothing
#
# Workloads: bench's BenchmarkDecode on UTF-8, windows-1252 and
# windows-1251 with LF and CR LF (the 4 MB corpora of bench/corpus/make.sh
# where present, else the 64 KB samples), BenchmarkDocument's fresh
# charsniff.NewReader on 1 KB
# and 8 KB pages, decode's BenchmarkReadCRLF (LF and CR LF in turn), the
# command's --json and --decode --json on a generated WARC of a gzip
# member per record with GOMAXPROCS=1 and on all cores, and --decode and
# sniffing of an all-NUL page and of an all-letter one. Both sides' test
# binaries run in this tree's directories, on the same inputs.
set -euo pipefail

die() {
	echo "regress.sh: $*" >&2
	exit 2
}

smoke=0
rounds=${ROUNDS:-5}
tags=""
base=${BASE:-}
while [[ $# -gt 0 ]]; do
	case $1 in
	--smoke) smoke=1 ;;
	--rounds) rounds=${2:?--rounds needs a number}; shift ;;
	--rounds=*) rounds=${1#*=} ;;
	--tags | -tags) tags=${2:?--tags needs a value}; shift ;;
	--tags=* | -tags=*) tags=${1#*=} ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	BASE=*) base=${1#BASE=} ;;
	-*) die "unknown flag $1 (see --help)" ;;
	*) base=$1 ;;
	esac
	shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds: not a positive number: $rounds"

cd "$(dirname "$0")/.."
root=$(pwd)
if ! command -v go >/dev/null 2>&1; then
	export PATH="/usr/local/go/bin:$PATH"
fi
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

# default_base prints the commit to compare with when none is given.
default_base() {
	local head tag ref mb
	head=$(git rev-parse HEAD)
	if tag=$(git describe --tags --abbrev=0 HEAD 2>/dev/null); then
		if [[ $(git rev-parse "$tag^{commit}") == "$head" ]] && git diff --quiet HEAD; then
			# HEAD is the tag itself: the one before it.
			tag=$(git describe --tags --abbrev=0 HEAD^ 2>/dev/null) || tag=""
		fi
		if [[ -n $tag ]]; then
			echo "$tag"
			return
		fi
	fi
	for ref in origin/main main; do
		if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
			mb=$(git merge-base HEAD "$ref")
			if [[ $mb == "$head" ]] && git diff --quiet HEAD && git rev-parse -q --verify HEAD^ >/dev/null; then
				mb=$(git rev-parse HEAD^) # on main with nothing changed: its last commit
			fi
			echo "$mb"
			return
		fi
	done
	echo HEAD
}

if ((smoke)); then
	base=${base:-HEAD}
	rounds=1
fi
base=${base:-$(default_base)}
base_rev=$(git rev-parse --verify -q "$base^{commit}") || die "no commit $base"
desc_base="$base ($(git rev-parse --short "$base_rev"))"
desc_new="working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + changes'))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regress.XXXXXX")
cleanup() {
	git -C "$root" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
git worktree add --detach -q "$tmp/src" "$base_rev"

tagflag=()
if [[ -n $tags ]]; then
	tagflag=(-tags "$tags")
fi

# build SRC OUT [FLAGS] builds the command and the two test binaries of
# the tree at SRC into OUT. The base is built with -trimpath, so that the
# build cache knows its packages again however the temporary directory is
# named (the first run compiles the standard library once more); -trimpath
# changes no code, only the file names in the binary.
build() {
	local src=$1 out=$2
	shift 2
	mkdir -p "$out"
	(cd "$src" &&
		go build "$@" "${tagflag[@]}" -o "$out/charsniff" ./cmd/charsniff &&
		go test -c "$@" "${tagflag[@]}" -o "$out/decode.test" ./decode &&
		cd bench && go test -c "$@" "${tagflag[@]}" -o "$out/bench.test" .)
}
t0=$SECONDS
echo "building base $desc_base and new $desc_new ${tags:+(-tags $tags)}" >&2
build "$root" "$tmp/new" || die "the working tree does not build"
if ((smoke)) && git diff --quiet "$base_rev" && [[ -z $(git ls-files --others --exclude-standard) ]]; then
	# The base is the working tree: the same binaries.
	ln -s new "$tmp/base"
else
	build "$tmp/src" "$tmp/base" -trimpath || die "the base does not build"
fi
echo "built in $((SECONDS - t0)) s" >&2

# The inputs, made once, the same for both sides.
if ((smoke)); then
	warc_size=$((256 << 10)) page_size=$((64 << 10)) benchtime=1x
else
	warc_size=${WARC_SIZE:-$((12 << 20))} page_size=${PAGE_SIZE:-$((4 << 20))} benchtime=${BENCHTIME:-200ms}
fi
(cd bench && go run ./mkwarc -size "$warc_size" -o "$tmp/crawl.warc.gz") 2>/dev/null || die "mkwarc failed"
head -c "$page_size" /dev/zero >"$tmp/nul.html"
head -c "$page_size" /dev/zero | tr '\0' 'a' >"$tmp/letters.html"

# The workloads: name, kind and what to run. A bench workload is
# "BINARY|DIR|PATTERN": a test binary run in DIR of this tree with
# -test.bench PATTERN, one benchmark, its ns/op. A cmd workload is a
# command line, in which @CS@ is the side's charsniff (a word no
# temporary path holds: mktemp's random names may hold "CS"); its wall
# time.
workloads=(
	"decode utf-8 LF (WriteTo)|bench|bench.test|bench|^BenchmarkDecode\$/^utf-8-english\$/^decode.NewReader\$"
	"decode utf-8 CR LF (WriteTo)|bench|bench.test|bench|^BenchmarkDecode\$/^utf-8-english-crlf\$/^decode.NewReader\$"
	"decode utf-8 CR LF (Read 32K)|bench|bench.test|bench|^BenchmarkDecode\$/^utf-8-english-crlf\$/^decode.NewReader.Read32K\$"
	"decode windows-1252 LF|bench|bench.test|bench|^BenchmarkDecode\$/^windows-1252\$/^decode.NewReader\$"
	"decode windows-1252 CR LF|bench|bench.test|bench|^BenchmarkDecode\$/^windows-1252-crlf\$/^decode.NewReader\$"
	"decode windows-1251 LF|bench|bench.test|bench|^BenchmarkDecode\$/^windows-1251\$/^decode.NewReader\$"
	"decode windows-1251 CR LF|bench|bench.test|bench|^BenchmarkDecode\$/^windows-1251-crlf\$/^decode.NewReader\$"
	"fresh charsniff.NewReader 1 KB|bench|bench.test|bench|^BenchmarkDocument\$/^utf-8-english\$/^1KB\$/^charsniff.NewReader\$"
	"fresh charsniff.NewReader 8 KB|bench|bench.test|bench|^BenchmarkDocument\$/^utf-8-english\$/^8KB\$/^charsniff.NewReader\$"
	"decode ReadCRLF english (LF+CR LF)|bench|decode.test|decode|^BenchmarkReadCRLF\$/^utf-8\$/^english\$"
	"warc --json, 1 core|cmd|GOMAXPROCS=1 @CS@ --json $tmp/crawl.warc.gz"
	"warc --json, all cores|cmd|@CS@ --json $tmp/crawl.warc.gz"
	"warc --decode --json, 1 core|cmd|GOMAXPROCS=1 @CS@ --decode --json $tmp/crawl.warc.gz"
	"warc --decode --json, all cores|cmd|@CS@ --decode --json $tmp/crawl.warc.gz"
	"all-NUL page --decode|cmd|@CS@ --decode --content-type text/html $tmp/nul.html"
	"all-letter page --decode|cmd|@CS@ --decode --content-type text/html $tmp/letters.html"
	"all-NUL page, sniffing|cmd|@CS@ --content-type text/html $tmp/nul.html"
)

# run SIDE WORKLOAD prints the workload's time on SIDE (base or new), in
# seconds, or "-" if it has no such benchmark or fails.
run() {
	local side=$1 w=$2 kind bin dir pat line
	IFS='|' read -r _ kind bin dir pat <<<"$w"
	case $kind in
	bench)
		line=$(cd "$root/$dir" && "$tmp/$side/$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$benchtime" \
			-test.count 1 -test.cpu 1 2>/dev/null | tee -a "$tmp/$side.out" | grep '^Benchmark' | head -1) || true
		awk '{for (i = 2; i <= NF; i++) if ($i == "ns/op") {print $(i-1) / 1e9; exit}} END {}' <<<"$line" | grep . || echo -
		;;
	cmd)
		local cmd=${bin//@CS@/$tmp/$side/charsniff} t1 t2
		t1=$EPOCHREALTIME
		if env $cmd >/dev/null 2>&1; then
			t2=$EPOCHREALTIME
			awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.6f\n", b - a}'
		else
			echo -
		fi
		;;
	esac
}

# Rounds: base then new, then new then base, and so on, so that a drift of
# the machine's speed weighs on both sides alike.
results=$tmp/results
: >"$results"
for ((r = 1; r <= rounds; r++)); do
	echo "round $r of $rounds" >&2
	for k in "${!workloads[@]}"; do
		w=${workloads[$k]}
		if ((r % 2)); then
			a=$(run base "$w")
			b=$(run new "$w")
		else
			b=$(run new "$w")
			a=$(run base "$w")
		fi
		echo "$k $a $b" >>"$results"
	done
done

cpu=$(grep -m1 '^cpu:' "$tmp/new.out" 2>/dev/null | sed 's/^cpu: *//') || true
[[ -n $cpu ]] || cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: *//') || true
loops=$(grep -m1 '^loops:' "$tmp/new.out" 2>/dev/null | sed 's/^loops: *//') || true
echo
echo "cpu: ${cpu:-unknown} ($(nproc 2>/dev/null || echo ?) cores; decode loops: ${loops:-?}${tags:+; -tags $tags})"
echo "base: $desc_base"
echo "new:  $desc_new"
echo "$rounds round(s); time new/base, median of the rounds (min-max); below 1 is faster"
echo
for k in "${!workloads[@]}"; do
	IFS='|' read -r name _ <<<"${workloads[$k]}"
	awk -v k="$k" -v name="$name" '
	function fmt(s) { return s >= 1 ? sprintf("%.2fs", s) : s >= 1e-3 ? sprintf("%.2fms", s * 1e3) : sprintf("%.1fµs", s * 1e6) }
	$1 == k && $2 != "-" && $3 != "-" && $2 > 0 { n++; r[n] = $3 / $2; a[n] = $2; b[n] = $3 }
	$1 == k && ($2 == "-" || $3 == "-") { miss = ($2 == "-") ? "not in base" : "failed in new" }
	END {
		if (n == 0) { printf "%-38s  %s\n", name, (miss ? miss : "no result"); exit }
		# insertion sorts, for the medians
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j] < r[j-1]; j--) { t = r[j]; r[j] = r[j-1]; r[j-1] = t }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && b[j] < b[j-1]; j--) { t = b[j]; b[j] = b[j-1]; b[j-1] = t }
		m = (n % 2) ? int(n / 2) + 1 : 0
		med = m ? r[m] : (r[n/2] + r[n/2+1]) / 2
		ma = m ? a[m] : (a[n/2] + a[n/2+1]) / 2
		mb = m ? b[m] : (b[n/2] + b[n/2+1]) / 2
		printf "%-38s  %5.2f  (%.2f-%.2f)   base %s, new %s\n", name, med, r[1], r[n], fmt(ma), fmt(mb)
	}' "$results"
done
