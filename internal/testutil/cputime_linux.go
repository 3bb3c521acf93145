package testutil

import (
	"syscall"
	"unsafe"
)

// ThreadCPU returns the CPU time the calling thread has used, in
// nanoseconds (CLOCK_THREAD_CPUTIME_ID), or -1. Benchmarks that use it
// lock their goroutine to its thread (runtime.LockOSThread). On a shared
// machine it leaves out the time other processes hold the core, which
// wall-clock ns/op counts.
func ThreadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
