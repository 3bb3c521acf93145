//go:build race

package fuzz

// raceEnabled reports that the tests run under the race detector.
const raceEnabled = true
