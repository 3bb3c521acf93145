//go:build !race

package invariance

const raceEnabled = false
