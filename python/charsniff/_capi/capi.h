// capi.h: the types of charsniff's C ABI, shared by the Go files' preambles.
#ifndef CHARSNIFF_CAPI_H
#define CHARSNIFF_CAPI_H
#include <stdint.h>
#include <stdlib.h>

// The status codes.
enum {
	CS_OK = 0,
	CS_EOF = 1,
	CS_ERR_ARG = -1,      // a bad argument: an unknown label, a bad option
	CS_ERR_IO = -2,       // reading the input failed (the callback's or the file's error)
	CS_ERR_ARCHIVE = -3,  // not an archive, or an archive the library does not read
	CS_ERR_HANDLE = -4,   // a closed or unknown handle
	CS_ERR_INTERNAL = -5, // a bug: a Go panic, recovered
	CS_ERR_SHORT = -6,    // an output buffer too small
};

// A result is a decision: indexes into the tables charsniff_names gives.
typedef struct {
	int32_t encoding;   // override.Encoding (names: kind 0)
	int32_t confidence; // sniff.Confidence (kind 1)
	int32_t source;     // sniff.Source (kind 2)
	int32_t bom;        // length of the byte order mark
	int32_t late_kind;  // decode.ChangeKind (kind 3); 0: no change after the window
	int32_t late_from;  // override.Encoding the change was made from
	int64_t late_offset;
	int32_t decided;    // decode.Result.Decided
	int32_t pad;
} cs_result;

typedef int64_t (*cs_read_fn)(uintptr_t ctx, char *buf, int64_t n);

static inline int64_t cs_call_read(cs_read_fn f, uintptr_t ctx, char *buf, int64_t n) {
	return f(ctx, buf, n);
}
#endif
