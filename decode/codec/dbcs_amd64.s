//go:build !purego

#include "textflag.h"

// dbcsLeads has the high bit of bytes 0, 2, 4 and 6 of eight: the lead
// bytes of four pairs.
DATA dbcsLeads<>+0(SB)/8, $0x0080008000800080
GLOBL dbcsLeads<>(SB), RODATA|NOPTR, $8

// STORE4 stores R10 to R13 with mov at m (BX) in d, w bytes apart.
#define STORE4(mov, w) \
	mov R10, (DI)(BX*1); \
	mov R11, w(DI)(BX*1); \
	mov R12, (2*w)(DI)(BX*1); \
	mov R13, (3*w)(DI)(BX*1)

// func dbcsBlockRun(pair *[1 << 16]uint32, d, s *[dbcsWindow]byte, limit uint) (k, m uint, ok bool)
//
// dbcsBlockRunGeneric (dbcs.go), step for step; see its comments for what
// each step does and why k and m stay below 256. The loops start at
// 64-byte boundaries (PCALIGN), so that they sit at the same place in the
// processor's fetch and decoded-instruction windows in every binary.
//
// It takes two steps of two characters each at once where it can, which
// gives the same k, m and bytes as the two steps one after the other.
//
// Registers: R8 pair, DI d, SI s, CX limit (at most dbcsBlock, 160), AX
// k, BX m, R9 the high bit of each of eight bytes; DX, R10 to R13 scratch.
TEXT ·dbcsBlockRun(SB), NOSPLIT, $0-49
	MOVQ    pair+0(FP), R8
	MOVQ    d+8(FP), DI
	MOVQ    s+16(FP), SI
	MOVQ    limit+24(FP), CX
	MOVL    $160, DX
	CMPQ    CX, DX
	CMOVQHI DX, CX
	XORL    AX, AX
	XORL    BX, BX
	MOVQ    $0x8080808080808080, R9
	TESTQ   CX, CX
	JZ      runOK
	JMP     step

	// The step: four bytes, read big-endian, hold the indexes of two
	// pairs (eight are loaded, for the step after it too).
	PCALIGN $64
step:
	MOVQ (SI)(AX*1), DX        // lx, and the next four bytes
	MOVL DX, R10
	ANDL $0x800080, R10
	CMPL R10, $0x800080
	JNE  stepASCII

	// Two lead bytes. If the next step is two lead bytes too (and k+4 is
	// below the limit, as it needs) and all four characters are three
	// bytes of UTF-8 (hanzi, kanji, kana, hangul), both steps at once:
	// the same k, m and bytes as one after the other.
	MOVQ    DX, R10
	NOTQ    R10
	TESTQ   dbcsLeads<>(SB), R10
	JNZ     stepTwo
	LEAQ    4(AX), R10
	CMPQ    R10, CX
	JAE     stepTwo
	BSWAPQ  DX                 // the four pairs' indexes, big-endian
	MOVQ    DX, R10
	SHRQ    $48, R10
	MOVQ    DX, R11
	SHRQ    $32, R11
	MOVWLZX R11, R11
	MOVL    DX, R12
	SHRL    $16, R12
	MOVWLZX DX, R13
	MOVL    (R8)(R10*4), R10
	MOVL    (R8)(R11*4), R11
	MOVL    (R8)(R12*4), R12
	MOVL    (R8)(R13*4), R13
	MOVL    R10, DX
	ANDL    R11, DX
	ANDL    R12, DX
	ANDL    R13, DX
	TESTL   $0x40000000, DX    // dbcsThree
	JZ      stepReload
	STORE4(MOVL, 3)
	ADDQ    $8, AX
	ADDQ    $12, BX
	CMPQ    AX, CX
	JB      step
	JMP     runOK

stepReload:
	MOVL (SI)(AX*1), DX

	// One step of two lead bytes: two characters at once if both are
	// three bytes of UTF-8.
stepTwo:
	BSWAPL  DX                 // x
	MOVL    DX, R10
	SHRL    $16, R10
	MOVWLZX DX, R11
	MOVL    (R8)(R10*4), R10   // e1
	MOVL    (R8)(R11*4), R11   // e2
	MOVL    R10, R12
	ANDL    R11, R12
	TESTL   $0x40000000, R12   // dbcsThree
	JZ      stepOne
	MOVL    R10, (DI)(BX*1)
	MOVL    R11, 3(DI)(BX*1)
	ADDQ    $4, AX
	ADDQ    $6, BX
	CMPQ    AX, CX
	JB      step
	JMP     runOK

	// A character of two bytes of UTF-8, or a pair off the fast path.
stepOne:
	MOVL  R10, R12
	SHRL  $30, R12             // n1
	JZ    runStop
	MOVL  R10, (DI)(BX*1)
	ADDQ  $2, AX
	ADDQ  R12, BX
	CMPQ  AX, CX
	JB    step
	JMP   runOK

	// Byte 0 or byte 2 is ASCII. Byte 0 is one character if it is a lead
	// byte (a is 2), then ASCII follows.
stepASCII:
	MOVL  DX, R11
	BSWAPL R11
	SHRL  $16, R11
	MOVL  (R8)(R11*4), R10     // e1
	MOVL  R10, R12
	SHRL  $30, R12             // n1
	MOVL  DX, R11
	SHRL  $6, R11
	ANDL  $2, R11              // a
	MOVL  R12, R13
	NOTL  R13
	TESTL R13, R11             // a &^ n1: a lead byte off the fast path
	JNZ   runStop
	MOVL  R10, (DI)(BX*1)
	ADDQ  R11, AX
	ADDQ  R12, BX

	// Store eight bytes and keep their ASCII prefix, and go on while they
	// are all ASCII.
run8:
	MOVQ    (SI)(AX*1), DX
	MOVQ    DX, (DI)(BX*1)
	ANDQ    R9, DX
	MOVL    $64, R11
	BSFQ    DX, R10
	CMOVQEQ R11, R10           // TrailingZeros64: 64 for 0
	SHRQ    $3, R10            // n
	ADDQ    R10, AX
	ADDQ    R10, BX
	CMPQ    R10, $8
	JB      runNext
	CMPQ    AX, CX
	JAE     runOK

	// A long run (English, markup): 32 bytes at a time while they are
	// all ASCII.
run32:
	LEAQ  32(AX), R10
	CMPQ  R10, CX
	JHI   run8
	MOVQ  (SI)(AX*1), R10
	MOVQ  8(SI)(AX*1), R11
	MOVQ  16(SI)(AX*1), R12
	MOVQ  24(SI)(AX*1), R13
	MOVQ  R10, DX
	ORQ   R11, DX
	ORQ   R12, DX
	ORQ   R13, DX
	TESTQ R9, DX
	JNZ   run8
	STORE4(MOVQ, 8)
	ADDQ  $32, AX
	ADDQ  $32, BX
	JMP   run32

runNext:
	CMPQ AX, CX
	JB   step

runOK:
	MOVQ AX, k+32(FP)
	MOVQ BX, m+40(FP)
	MOVB $1, ok+48(FP)
	RET

runStop:
	MOVQ AX, k+32(FP)
	MOVQ BX, m+40(FP)
	MOVB $0, ok+48(FP)
	RET
