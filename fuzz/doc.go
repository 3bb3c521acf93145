// Package fuzz holds charsniff's fuzz targets, one per invariant. It has no
// code of its own: the targets are in its _test.go files and run with
//
//	go test -run=^$ -fuzz=^FuzzDecode$ -fuzztime=10m ./fuzz
//
// See README.md for the invariants, how long each target has run, and how a
// crasher becomes a regression test.
package fuzz
