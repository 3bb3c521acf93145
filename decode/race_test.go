//go:build race

package decode_test

// raceEnabled reports that the tests run under the race detector, where
// sync.Pool drops items at random, so the pooled buffers allocate.
const raceEnabled = true
