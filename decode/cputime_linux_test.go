package decode_test

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used, in
// nanoseconds (CLOCK_THREAD_CPUTIME_ID), or -1. The benchmarks that use it
// lock their goroutine to its thread.
func threadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
