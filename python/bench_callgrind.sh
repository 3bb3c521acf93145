#!/usr/bin/env bash
# bench_callgrind.sh: the instructions of one 1 KB sniff, from Python
# (charsniff.sniff) and inside Go (charsniff_bench_sniff), counted by
# callgrind, which machine load does not change: each mode run with 1,000
# and 3,000 calls, the difference divided by 2,000. Needs valgrind and the
# package importable (installed, or PYTHONPATH=python).
#   python/bench_callgrind.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-python3}
prog='
import sys, charsniff
from charsniff import _native
mode, n, name, enc = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
data = open(f"bench/testdata/sample/utf-8-{name}.html", "rb").read().decode().encode(enc, "replace")[:1024]
charsniff.sniff(data)
if mode == "python":
    for _ in range(n):
        charsniff.sniff(data)
else:
    _native.lib().charsniff_bench_sniff(data, len(data), n)
'
count() {
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" -c "$prog" "$@" 2>&1 |
		sed -n 's/.*Collected : //p'
}
for doc in "english utf-8" "russian windows-1251" "japanese shift_jis"; do
	for mode in go python; do
		a=$(count $mode 1000 $doc)
		b=$(count $mode 3000 $doc)
		echo "$doc $mode $(((b - a) / 2000))"
	done
done
