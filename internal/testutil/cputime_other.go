//go:build !linux

package testutil

// ThreadCPU returns -1: thread CPU time is measured on Linux only.
func ThreadCPU() int64 { return -1 }
