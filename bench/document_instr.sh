#!/bin/sh
# document_instr.sh counts the instructions per page of BenchmarkDocument
# (document_test.go): a fresh charsniff.NewReader and x/net's
# charset.NewReader on the same 1 KB and 8 KB pages, for each test binary
# given, with callgrind: the count of a run of N+1 iterations minus that of
# 1 iteration, divided by N, and the ratio x/net over charsniff. Each is
# counted with the collector off (GOGC=off: the code alone, repeatable to a
# few instructions a page) and on (GOGC=100: with the collector's work for
# the bytes each allocates, which CPU time holds too). Go's asynchronous
# preemption is off: its signals crash callgrind.
#
#   (cd bench && go test -c -o new.test .)   # and base.test from the base commit
#   sh document_instr.sh base.test new.test > instr.txt   # from bench/
#
# CORPUS (default utf-8-english), SIZES (default "1KB 8KB") and N (default
# 20000) change what it counts.
set -eu
n=${N:-20000}
corpus=${CORPUS:-utf-8-english}
sizes=${SIZES:-1KB 8KB}
ir() { # ir BINARY GOGC READER SIZE ITERATIONS: total instructions of the run
	out=$(mktemp)
	GOGC=$2 GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -test.run XXX \
		-test.bench "^BenchmarkDocument\$/^$corpus\$/^$4\$/^$3\$" -test.benchtime "${5}x" -test.cpu 1 2>"$out" >/dev/null || { tail -5 "$out" >&2; exit 1; }
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"
	rm -f "$out"
}
page() { # page BINARY GOGC READER SIZE: instructions a page
	one=$(ir "$1" "$2" "$3" "$4" 1)
	many=$(ir "$1" "$2" "$3" "$4" $((n + 1)))
	echo $(((many - one) / n))
}
printf 'binary\tGOGC\tpage\tcharsniff\tx/net\tratio\n'
for bin in "$@"; do
	for gc in off 100; do
		for s in $sizes; do
			cs=$(page "$bin" $gc charsniff.NewReader "$s")
			xn=$(page "$bin" $gc x-net-charset.NewReader "$s")
			printf '%s\t%s\t%s/%s\t%d\t%d\t%s\n' "$bin" $gc "$corpus" "$s" "$cs" "$xn" "$(echo "$xn $cs" | awk '{printf "%.2f", $1/$2}')"
		done
	done
done
