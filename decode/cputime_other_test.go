//go:build !linux

package decode_test

// threadCPU returns -1: thread CPU time is measured on Linux only.
func threadCPU() int64 { return -1 }
