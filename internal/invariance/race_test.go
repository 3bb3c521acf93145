//go:build race

package invariance

// raceEnabled: the tests run under the race detector, which does not look
// into the command's processes; their paths run in the plain runs.
const raceEnabled = true
