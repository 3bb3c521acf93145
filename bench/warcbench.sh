#!/usr/bin/env bash
# warcbench.sh times the charsniff command on a gzip-per-record WARC file
# at several commits, interleaved (every binary once a round), on one core
# (GOMAXPROCS=1) and on all, against Go's gzip reader alone (bench/gunzip),
# and prints for each the median wall time, CPU time (user+sys) and peak RSS
# of the rounds, from /usr/bin/time -v's figures.
#
# Usage: bench/warcbench.sh FILE.warc.gz ROUNDS REV...   (from the repository)
#   RAW=FILE keeps every run's figures in FILE.
#   REV is a commit (built in a temporary worktree) or "." (the work tree).
# Example: bench/warcbench.sh /tmp/cc.warc.gz 5 dc93013 5a3d06a .
set -euo pipefail
file=$1 rounds=$2
shift 2
repo=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'for w in "$tmp"/src-*; do [ -d "$w" ] && git -C "$repo" worktree remove --force "$w"; done; rm -rf "$tmp"' EXIT
(cd "$repo/bench" && go build -o "$tmp/gunzip" ./gunzip)
bins=(gunzip)
for rev in "$@"; do
	name=$(echo "$rev" | tr -c 'a-zA-Z0-9\n' _)
	if [ "$rev" = . ]; then
		(cd "$repo" && go build -o "$tmp/cs-$name" ./cmd/charsniff)
	else
		git -C "$repo" worktree add -f --detach "$tmp/src-$name" "$rev" >/dev/null 2>&1
		(cd "$tmp/src-$name" && go build -o "$tmp/cs-$name" ./cmd/charsniff)
	fi
	bins+=("cs-$name")
done
one() { # label, then the command; appends "label wall cpu rss" to $tmp/raw
	local label=$1
	shift
	/usr/bin/time -v "$@" >/dev/null 2>"$tmp/err"
	awk -v l="$label" -F': ' '/Elapsed \(wall/ {n = split($2, t, ":"); w = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2]}
		/User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {m = $2}
		END {printf "%s %.3f %.3f %.1f\n", l, w, u + s, m / 1024}' "$tmp/err" >>"$tmp/raw"
}
for ((r = 0; r < rounds; r++)); do
	for b in "${bins[@]}"; do
		if [ "$b" = gunzip ]; then
			one "gunzip - P=1" "$tmp/gunzip" "$file"
			continue
		fi
		for mode in --json "--decode --json"; do
			for procs in 1 0; do
				label="$b ${mode// /_} P=${procs/0/all}"
				if [ "$procs" = 1 ]; then
					one "$label" env GOMAXPROCS=1 "$tmp/$b" $mode "$file"
				else
					one "$label" "$tmp/$b" $mode "$file"
				fi
			done
		done
	done
done
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $rounds rounds; $(ls -l "$file" | awk '{print $5}') bytes"
echo "# binary mode cores: median wall s, CPU s, peak RSS MB (min-max wall)"
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
cut -d' ' -f1-3 "$tmp/raw" | sort -u | while read -r b mode procs; do
	rows=$(grep -F "$b $mode $procs " "$tmp/raw")
	w=$(echo "$rows" | cut -d' ' -f4 | median)
	c=$(echo "$rows" | cut -d' ' -f5 | median)
	m=$(echo "$rows" | cut -d' ' -f6 | median)
	lo=$(echo "$rows" | cut -d' ' -f4 | sort -n | head -1)
	hi=$(echo "$rows" | cut -d' ' -f4 | sort -n | tail -1)
	printf '%-18s %-15s %-6s %6.3f %6.3f %6.1f  (%s-%s)\n' "$b" "$mode" "$procs" "$w" "$c" "$m" "$lo" "$hi"
done
if [ -n "${RAW:-}" ]; then cp "$tmp/raw" "$RAW"; fi
