//go:build !unix

package warc

// cpuSeconds is not measured here.
func cpuSeconds() float64 { return 0 }
