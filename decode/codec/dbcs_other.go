//go:build !amd64 || purego

package codec

// dbcsBlockRun is dbcsBlockRunGeneric in this build: the same contract as
// the assembly of dbcs_amd64.s.
func dbcsBlockRun(pair *[1 << 16]uint32, d, s *[dbcsWindow]byte, limit uint) (k, m uint, ok bool) {
	return dbcsBlockRunGeneric(pair, d, s, limit)
}

// dbcsBlockRunAsm reports whether dbcsBlockRun is the assembly: tests that
// compare it with its Go twin skip where it is not.
const dbcsBlockRunAsm = false
