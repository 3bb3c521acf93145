//go:build !purego

package codec

// dbcsBlockRun is dbcsBlockRunGeneric (dbcs.go) in assembly, step for step
// the same, so that its loops sit at the same place in every binary: the
// Go function's timing depended on where the linker put it (7% apart for
// GBK with CR LF at 0 and at 32 bytes past a 64-byte boundary). It uses
// the base amd64 instructions only, and runs on every amd64 CPU.
//
//go:noescape
func dbcsBlockRun(pair *[1 << 16]uint32, d, s *[dbcsWindow]byte, limit uint) (k, m uint, ok bool)

// dbcsBlockRunAsm reports whether dbcsBlockRun is the assembly: tests that
// compare it with its Go twin skip where it is not.
const dbcsBlockRunAsm = true
