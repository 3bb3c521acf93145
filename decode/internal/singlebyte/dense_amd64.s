//go:build amd64 && !purego

#include "textflag.h"

// pairIndex are the indexes with which denseVector's VPERMT2B interleaves
// 64 first bytes (indexes 0 to 63: a byte as it is, or a lead) and their
// trail bytes (64 to 127) into pairs, first 0, trail 0, first 1, trail 1
// and so on: for bytes 0 to 31 in the first 64 indexes, 32 to 63 in the
// next.
DATA pairIndex<>+0(SB)/8, $0x4303420241014000
DATA pairIndex<>+8(SB)/8, $0x4707460645054404
DATA pairIndex<>+16(SB)/8, $0x4B0B4A0A49094808
DATA pairIndex<>+24(SB)/8, $0x4F0F4E0E4D0D4C0C
DATA pairIndex<>+32(SB)/8, $0x5313521251115010
DATA pairIndex<>+40(SB)/8, $0x5717561655155414
DATA pairIndex<>+48(SB)/8, $0x5B1B5A1A59195818
DATA pairIndex<>+56(SB)/8, $0x5F1F5E1E5D1D5C1C
DATA pairIndex<>+64(SB)/8, $0x6323622261216020
DATA pairIndex<>+72(SB)/8, $0x6727662665256424
DATA pairIndex<>+80(SB)/8, $0x6B2B6A2A69296828
DATA pairIndex<>+88(SB)/8, $0x6F2F6E2E6D2D6C2C
DATA pairIndex<>+96(SB)/8, $0x7333723271317030
DATA pairIndex<>+104(SB)/8, $0x7737763675357434
DATA pairIndex<>+112(SB)/8, $0x7B3B7A3A79397838
DATA pairIndex<>+120(SB)/8, $0x7F3F7E3E7D3D7C3C
GLOBL pairIndex<>(SB), RODATA|NOPTR, $128

// func denseVector(dst, src []byte, t *[256]uint32, v *Vector) (i, j int)
//
// denseVector is denseWords (dense.go: the contract) with AVX-512 VBMI2:
// the same i and j, the same bytes in dst[:j]. It goes 64 bytes a step
// while src has 64 bytes and dst 192 of room (blockRoom), as eight of
// denseWords's steps would; then, and for eight words after a block with
// a byte from 0x80 whose UTF-8 is not two bytes, eight bytes a step as
// denseWords does.
//
// A block of ASCII is stored as it is. Otherwise the leads and trail bytes
// of its bytes from 0x80 are looked up in v with VPERMI2B (their low seven
// bits index the 128 entries of each table); a byte from 0x80 with no pair
// (trail byte 0) sends the block to the words. Each byte (a lead where it
// has one) and its trail byte are interleaved into pairs, bytes 0 to 31 in
// one vector and 32 to 63 in another, and VPCOMPRESSB keeps each pair's
// first byte and the trail bytes of those from 0x80: the mask of each half
// has every even bit, and at odd bit 2k+1 the high bit of byte k (PDEP).
// Each half is stored whole, 64 bytes, and j moves on by its population
// count.
//
// Registers: SI src, DI dst, BX t, R8 i, R9 j, CX len(src), DX len(dst),
// R11 the words left before the next block; Z16 and Z17 the leads of v
// (bytes 0x80 to 0xBF, 0xC0 to 0xFF), Z18 and Z19 its trail bytes, Z20
// and Z21 pairIndex; R12 the even bits, R13 the odd bits, R14 the high
// bits of a word.
TEXT ·denseVector(SB), NOSPLIT, $0-80
	MOVQ      dst_base+0(FP), DI
	MOVQ      dst_len+8(FP), DX
	MOVQ      src_base+24(FP), SI
	MOVQ      src_len+32(FP), CX
	MOVQ      t+48(FP), BX
	MOVQ      v+56(FP), AX
	VMOVDQU64 0(AX), Z16
	VMOVDQU64 64(AX), Z17
	VMOVDQU64 128(AX), Z18
	VMOVDQU64 192(AX), Z19
	VMOVDQU64 pairIndex<>+0(SB), Z20
	VMOVDQU64 pairIndex<>+64(SB), Z21
	MOVQ      $0x5555555555555555, R12
	MOVQ      $0xAAAAAAAAAAAAAAAA, R13
	MOVQ      $0x8080808080808080, R14
	XORQ      R8, R8
	XORQ      R9, R9

block:
	LEAQ      64(R8), R10
	CMPQ      R10, CX
	JGT       tail
	LEAQ      192(R9), R10
	CMPQ      R10, DX
	JGT       tail
	VMOVDQU64 (SI)(R8*1), Z0
	VPMOVB2M  Z0, K1             // the bytes from 0x80
	KORTESTQ  K1, K1
	JNZ       pairs
	VMOVDQU64 Z0, (DI)(R9*1)
	ADDQ      $64, R8
	ADDQ      $64, R9
	JMP       block

pairs:
	VMOVDQA64   Z0, Z1
	VPERMI2B    Z17, Z16, Z1     // leads
	VMOVDQA64   Z0, Z2
	VPERMI2B    Z19, Z18, Z2     // trail bytes
	VPTESTNMB   Z2, Z2, K1, K2   // bytes from 0x80 without a pair
	KORTESTQ    K2, K2
	JNZ         backoff
	VPBLENDMB   Z1, Z0, K1, Z1   // ASCII as it is, the others' leads
	VMOVDQA64   Z1, Z3
	VPERMT2B    Z2, Z20, Z3      // the pairs of bytes 0 to 31
	VPERMT2B    Z2, Z21, Z1      // and of 32 to 63
	KMOVQ       K1, AX
	MOVL        AX, R10
	PDEPQ       R13, R10, R10    // the trail bytes of bytes 0 to 31
	ORQ         R12, R10         // and every first byte
	KMOVQ       R10, K3
	POPCNTQ     R10, R10
	VPCOMPRESSB Z3, K3, Z3
	VMOVDQU64   Z3, (DI)(R9*1)
	ADDQ        R10, R9
	SHRQ        $32, AX
	PDEPQ       R13, AX, AX
	ORQ         R12, AX
	KMOVQ       AX, K4
	POPCNTQ     AX, AX
	VPCOMPRESSB Z1, K4, Z1
	VMOVDQU64   Z1, (DI)(R9*1)
	ADDQ        AX, R9
	ADDQ        $64, R8
	JMP         block

// BYTE writes the table entry of the low byte of AX at j, moves j on by
// its length, and shifts AX to the next byte.
#define BYTE \
	MOVBLZX AL, R10; \
	MOVL    (BX)(R10*4), R10; \
	MOVL    R10, (DI)(R9*1); \
	SHRL    $24, R10; \
	ADDQ    R10, R9; \
	SHRQ    $8, AX

	// backoff: eight words, then blocks again; tail: words to the end
	// (R11 counts down from -1, never to 0). A word is a step of
	// denseWords: the eight bytes at i, ASCII stored as they are, else
	// each through the table; done once src has fewer than eight bytes
	// left or dst fewer than 64 of room.
backoff:
	MOVQ $8, R11
	JMP  word

tail:
	MOVQ $-1, R11

word:
	LEAQ  8(R8), R10
	CMPQ  R10, CX
	JGT   done
	LEAQ  64(R9), R10
	CMPQ  R10, DX
	JGT   done
	MOVQ  (SI)(R8*1), AX
	ADDQ  $8, R8
	TESTQ R14, AX
	JNZ   wordHigh
	MOVQ  AX, (DI)(R9*1)
	ADDQ  $8, R9
	JMP   wordNext

wordHigh:
	BYTE
	BYTE
	BYTE
	BYTE
	BYTE
	BYTE
	BYTE
	BYTE

wordNext:
	DECQ R11
	JNZ  word
	JMP  block

done:
	VZEROUPPER
	MOVQ R8, i+64(FP)
	MOVQ R9, j+72(FP)
	RET
