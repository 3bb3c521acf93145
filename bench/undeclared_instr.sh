#!/bin/sh
# undeclared_instr.sh counts the instructions per page of BenchmarkUndeclared
# (undeclared_test.go) for two test binaries, with callgrind: the count of
# a run of N+1 iterations minus that of 1 iteration, divided by N. The
# machine the results were measured on is shared and its wall-clock times
# vary by ±50 %; instruction counts do not. (Go's asynchronous preemption is
# off: its signals crash callgrind.)
#
#   go test -c -o new.test .            # and base.test from the base commit
#   sh undeclared_instr.sh base.test new.test > instr.txt
set -eu
n=${N:-400}
benches="windows-1252/512 windows-1252-head/8192 windows-1252-late/8192 windows-1252/8192
windows-1251/512 windows-1251/8192 shift_jis/512 shift_jis/8192 euc-jp/512 euc-jp/8192
gbk/512 gbk/8192 utf-8-french/512 utf-8-french/8192"
ir() { # ir BINARY BENCH ITERATIONS: total instructions of the run
	out=$(mktemp)
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -test.run XXX \
		-test.bench "^BenchmarkUndeclared\$/^${2%%/*}\$/^${2##*/}\$" -test.benchtime "${3}x" -test.cpu 1 2>"$out" >/dev/null || { tail -5 "$out" >&2; exit 1; }
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"
	rm -f "$out"
}
printf 'page'
for bin in "$@"; do printf '\t%s' "$bin"; done
echo
for b in $benches; do
	printf '%s' "$b"
	for bin in "$@"; do
		one=$(ir "$bin" "$b" 1)
		many=$(ir "$bin" "$b" $((n + 1)))
		printf '\t%d' $(((many - one) / n))
	done
	echo
done
