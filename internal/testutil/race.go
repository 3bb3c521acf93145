//go:build race

package testutil

// Race reports that the tests run under the race detector. It slows code
// down several times, does not look into processes a test starts, and
// makes sync.Pool drop a quarter of what is put back, so that pooled code
// allocates: allocation counts mean nothing under it.
const Race = true
