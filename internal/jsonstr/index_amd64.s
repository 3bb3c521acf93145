//go:build !purego

#include "textflag.h"

// SPECIALS sets DX to the bits of the bytes of the 32 at AX that need a
// look: at most 0x1F (its unsigned minimum with 0x1F is itself), '"',
// '\\' or 0xE2 (Y1 to Y4 hold the four bytes broadcast).
#define SPECIALS \
	VMOVDQU   (SI)(AX*1), Y0; \
	VPMINUB   Y0, Y1, Y5; \
	VPCMPEQB  Y0, Y5, Y5; \
	VPCMPEQB  Y0, Y2, Y6; \
	VPCMPEQB  Y0, Y3, Y7; \
	VPCMPEQB  Y0, Y4, Y8; \
	VPOR      Y5, Y6, Y5; \
	VPOR      Y7, Y8, Y7; \
	VPOR      Y5, Y7, Y5; \
	VPMOVMSKB Y5, DX

// func indexSpecialAVX2(s []byte) int
//
// See index_amd64.go. 32 bytes a step: a byte needs a look if it is at
// most 0x1F (its unsigned minimum with 0x1F is itself), or '"', '\\' or
// 0xE2. A last block of fewer than 32 bytes is looked at again as the
// last 32 bytes of s, whose first bytes were clean; s shorter than 32
// bytes is looked at a byte at a time. Registers: SI the base of s, BX
// its length, AX the offset of the block, Y1-Y4 the four bytes broadcast.
TEXT indexSpecialAVX2<>(SB), NOSPLIT, $0-32
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	XORQ AX, AX
	CMPQ BX, $32
	JLT  short

	MOVL         $0x1f1f1f1f, DX
	VMOVD        DX, X1
	VPBROADCASTD X1, Y1
	MOVL         $0x22222222, DX
	VMOVD        DX, X2
	VPBROADCASTD X2, Y2
	MOVL         $0x5c5c5c5c, DX
	VMOVD        DX, X3
	VPBROADCASTD X3, Y3
	MOVL         $0xe2e2e2e2, DX
	VMOVD        DX, X4
	VPBROADCASTD X4, Y4

loop:
	LEAQ      32(AX), CX
	CMPQ      CX, BX
	JGT       last
	SPECIALS
	TESTL     DX, DX
	JNZ       found
	MOVQ      CX, AX
	JMP       loop

last:
	// Fewer than 32 bytes left (AX < BX) or none (AX == BX).
	CMPQ      AX, BX
	JEQ       none
	LEAQ      -32(BX), AX
	SPECIALS
	TESTL     DX, DX
	JNZ       found

none:
	VZEROUPPER
	MOVQ $-1, ret+24(FP)
	RET

found:
	VZEROUPPER
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	RET

short:
	CMPQ    AX, BX
	JGE     shortNone
	MOVBLZX (SI)(AX*1), DX
	CMPL    DX, $0x20
	JLT     shortFound
	CMPL    DX, $0x22
	JEQ     shortFound
	CMPL    DX, $0x5c
	JEQ     shortFound
	CMPL    DX, $0xe2
	JEQ     shortFound
	INCQ    AX
	JMP     short

shortFound:
	MOVQ AX, ret+24(FP)
	RET

shortNone:
	MOVQ $-1, ret+24(FP)
	RET

// func IndexSpecial(s []byte) int
TEXT ·IndexSpecial(SB), NOSPLIT, $0-32
	CMPB ·avx2OK(SB), $0
	JEQ  generic
	JMP  indexSpecialAVX2<>(SB)

generic:
	JMP ·indexSpecialGeneric(SB)
