//go:build !purego

#include "textflag.h"

// func sweepAVX2(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int)
//
// sweepBlocks with AVX2 and POPCNT (sweep_amd64.go says what it does),
// and with sweepLatin1 AVX-512 F, BW, VBMI, VBMI2 and BMI2 too (the loop
// latinAVX512), with sweepWide AVX-512 F, BW and VBMI2 (wideCR). It goes one 32-byte block a step, in two loops: noCR until the text has a CR (all the way when newlines
// are kept), then withCR. Each first asks whether the block is ASCII with
// nothing to do (no NUL, no CR in noCR, no sequence carried into it) and
// stores it. If not, UTF-8 is checked with VALIDATE and stored as it is;
// the bytes from 80 of a single-byte encoding, and LFs to drop, are
// events: the block is stored, then each event in turn writes its UTF-8
// (or nothing) and stores the rest of the block again after it. A third
// loop, latinAVX512, takes windows-1252 text with AVX-512 64 bytes a step; a
// fourth, tableNoCR, is noCR for a single-byte encoding until a block has
// a CR or NUL (latin runs only after that). With sweepWide a fifth,
// wideCR, takes UTF-8 ASCII with line ends 64 bytes a step from withCR.
//
// Registers: SI, DI the bases of s and d; R8 i; R9 j; BX 1 if the block
// before ended in a CR; R12 bits 0 and 1: trail bytes the block before
// expects at those bits; R13 (R14) bit 0: the first of them is after E0
// (ED), or with a table, R13 1 if latin runs and R14 its count of ASCII
// steps, or in tableNoCR the table; R11 the bytes from 80 seen. On the
// stack: 0(SP) the last j and 8(SP) the last i at which a block with
// events may start (it needs 65 bytes of s, and 64 of d, 80 with a
// table), 48(SP) and 56(SP) those for a block stored once (32 of each),
// 72(SP) and 64(SP) those for a step of latin (128 of d, 64 of s); 80(SP)
// the i before which latin does not start again; 16(SP) the mask of CR bits that count (all or none);
// 24(SP) scratch; 32(SP) 0 in noCR, non-zero in withCR; 88(SP) wideCR's
// backoff, 80(SP) its i as latin's; 40(SP) the
// table; 96(SP) how many blocks noCR takes one at a time after its next
// failed try of four (BX counts them down in noCR, where no CR has been).
// Y15 CR, Y14 LF, Y13 07 (CR XOR LF) or 0, Y12 FF where NUL stops the
// sweep or 0, Y11 E0, Y10 ED, Y9 FE, Y8 C0, Y7 0; Z16 to Z24 latin's.

// VALIDATE sets AX to the bits of the bytes of the block in Y0 that the
// sweep stops at on UTF-8: NUL (if Y12), bytes from F0, C0 and C1, trail
// bytes where no lead expects one and the reverse, and first trail bytes
// out of range after E0 and ED. The masks of bytes from 80, from C0 and
// from E0 give the trail bytes the block has and those its leads expect
// (bit p+1 for a lead at p, and bit p+2 for a three-byte lead); E0 wants
// its first trail byte from A0, ED below A0: bit 5 of that byte, the mask
// of 4x. Expectations past bit 31 carry into the next block (R12, R13,
// R14). It uses Y1 to Y5, CX, DX and R10, and notes the bytes from 80 in
// R11.
#define VALIDATE \
	VPADDB    Y0, Y0, Y2; \
	VPAND     Y0, Y2, Y3; \
	VPADDB    Y2, Y2, Y4; \
	VPAND     Y3, Y4, Y5; \
	VPADDB    Y4, Y4, Y2; \
	VPAND     Y5, Y2, Y1; \
	VPCMPEQB  Y0, Y7, Y2; \
	VPAND     Y2, Y12, Y2; \
	VPOR      Y2, Y1, Y1; \
	VPAND     Y0, Y9, Y2; \
	VPCMPEQB  Y2, Y8, Y2; \
	VPOR      Y2, Y1, Y1; \
	VPMOVMSKB Y0, AX; \
	ORQ       AX, R11; \
	VPMOVMSKB Y3, CX; \
	VPMOVMSKB Y5, DX; \
	MOVQ      AX, R10; \
	XORQ      CX, R10; \
	XORQ      AX, AX; \
	SHLQ      $1, CX; \
	SHLQ      $2, DX; \
	ORQ       DX, CX; \
	ORQ       R12, CX; \
	MOVQ      CX, R12; \
	SHRQ      $32, R12; \
	XORQ      R10, CX; \
	MOVL      CX, CX; \
	ORQ       CX, AX; \
	VPMOVMSKB Y1, CX; \
	ORQ       CX, AX; \
	VPCMPEQB  Y0, Y11, Y2; \
	VPMOVMSKB Y2, CX; \
	VPCMPEQB  Y0, Y10, Y2; \
	VPMOVMSKB Y2, DX; \
	VPMOVMSKB Y4, R10; \
	SHLQ      $1, CX; \
	ORQ       R13, CX; \
	MOVQ      CX, R13; \
	SHRQ      $32, R13; \
	SHLQ      $1, DX; \
	ORQ       R14, DX; \
	MOVQ      DX, R14; \
	SHRQ      $32, R14; \
	ANDQ      R10, DX; \
	NOTQ      R10; \
	ANDQ      R10, CX; \
	ORQ       DX, CX; \
	MOVL      CX, CX; \
	ORQ       CX, AX

// VALIDATE_START sets the constants VALIDATE uses (Y7 to Y11; Y12 is the
// caller's) and clears its carries and R11.
#define VALIDATE_START \
	VPBROADCASTB sweepBytes<>+2(SB), Y11; \
	VPBROADCASTB sweepBytes<>+3(SB), Y10; \
	VPBROADCASTB sweepBytes<>+4(SB), Y9; \
	VPBROADCASTB sweepBytes<>+5(SB), Y8; \
	VPXOR        Y7, Y7, Y7; \
	XORQ         R11, R11; \
	XORQ         R12, R12; \
	XORQ         R13, R13; \
	XORQ         R14, R14

// CHECK loads the block at R8 into Y0 (its CRs into Y6) and sets CX to
// the bits of its CRs that count (crmask) and AX to those and the bits of
// its bytes from 80 and NUL (if Y12), or to non-zero if a sequence
// carries into it (R12): AX is 0 for a block to store as it is.
#define CHECK(crmask) \
	VMOVDQU   (SI)(R8*1), Y0; \
	VPCMPEQB  Y0, Y7, Y1; \
	VPAND     Y1, Y12, Y1; \
	VPOR      Y0, Y1, Y1; \
	VPCMPEQB  Y0, Y15, Y6; \
	VPMOVMSKB Y1, AX; \
	VPMOVMSKB Y6, CX; \
	ANDQ      crmask, CX; \
	ORQ       CX, AX; \
	ORQ       R12, AX

// CHECK4 is CHECK for the four blocks at R8 at once, into Y0 to Y3,
// without R12 (the caller has it 0): it sets AX to the bits of the bytes
// from 80 and the NULs (if Y12) of any of them, ORed place by place, and
// those of their CRs that count (crmask). Y4 and Y5 are scratch.
#define CHECK4(crmask) \
	VMOVDQU   (SI)(R8*1), Y0; \
	VMOVDQU   32(SI)(R8*1), Y1; \
	VMOVDQU   64(SI)(R8*1), Y2; \
	VMOVDQU   96(SI)(R8*1), Y3; \
	VPCMPEQB  Y0, Y15, Y4; \
	VPCMPEQB  Y1, Y15, Y5; \
	VPOR      Y4, Y5, Y4; \
	VPCMPEQB  Y2, Y15, Y5; \
	VPOR      Y4, Y5, Y4; \
	VPCMPEQB  Y3, Y15, Y5; \
	VPOR      Y4, Y5, Y4; \
	VPMOVMSKB Y4, CX; \
	ANDQ      crmask, CX; \
	VPMINUB   Y0, Y1, Y4; \
	VPMINUB   Y2, Y3, Y5; \
	VPMINUB   Y4, Y5, Y4; \
	VPCMPEQB  Y4, Y7, Y4; \
	VPAND     Y4, Y12, Y4; \
	VPOR      Y0, Y1, Y5; \
	VPOR      Y5, Y4, Y4; \
	VPOR      Y2, Y3, Y5; \
	VPOR      Y5, Y4, Y4; \
	VPMOVMSKB Y4, AX; \
	ORQ       CX, AX

// DROPS sets DX to the bits of the LFs of the block in Y0 to drop (right
// after a CR: its CRs are in Y6, BX says one ended the block before) and
// CX to its CR bits.
#define DROPS \
	VPCMPEQB  Y0, Y14, Y2; \
	VPMOVMSKB Y6, CX; \
	VPMOVMSKB Y2, DX; \
	LEAQ      (BX)(CX*2), R10; \
	ANDQ      R10, DX

// ROOM jumps to out unless i (R8) is at most ilast and j (R9) at most
// jlast: the room a step needs in s and d. BLOCK_ROOM is that of a block
// stored once, EVENTS_ROOM that of a block with events.
#define ROOM(ilast, jlast, out) \
	CMPQ R8, ilast; \
	JGT  out; \
	CMPQ R9, jlast; \
	JGT  out
#define BLOCK_ROOM ROOM(56(SP), 48(SP), done)
#define EVENTS_ROOM ROOM(8(SP), 0(SP), done)

// LOWER_FROM replaces the bytes of the block in Y0 from index R10 (0 to
// 32) on by the block a byte lower: the byte at R10 is left out, and the
// last byte, then, is the next store's to write. It uses Y1 to Y3.
#define LOWER_FROM \
	VMOVQ        R10, X2; \
	VPBROADCASTB X2, Y2; \
	VPCMPGTB     sweepIndex<>(SB), Y2, Y3; \
	VPERM2I128   $0x81, Y0, Y0, Y1; \
	VPALIGNR     $1, Y0, Y1, Y1; \
	VPBLENDVB    Y3, Y0, Y1, Y0

// NEXT_EVENT takes the lowest bit out of AX, the events of the block:
// R10 is its index in the block, and CX the byte of s there.
#define NEXT_EVENT \
	BSFQ    AX, R10; \
	LEAQ    -1(AX), CX; \
	ANDQ    CX, AX; \
	LEAQ    (R8)(R10*1), CX; \
	MOVBLZX (SI)(CX*1), CX

// PUT_LETTER writes the UTF-8 of the byte in CX from table (its entry
// has the length in the top byte) at the event's place in d, and moves j
// (R9) by that length less one. It uses DX.
#define PUT_LETTER(table) \
	MOVL (table)(CX*4), CX; \
	LEAQ (R9)(R10*1), DX; \
	MOVL CX, (DI)(DX*1); \
	SHRL $24, CX; \
	LEAQ -1(R9)(CX*1), R9

// MAXEVENTS is the most bytes from 80 of a single-byte encoding that a
// block may have: text denser than that (Cyrillic, Greek) is left to
// tableDense, faster there than an event a byte.
#define MAXEVENTS 6

// sweepIndex is 0 to 31, the index of each byte of a block.
DATA sweepIndex<>+0(SB)/8, $0x0706050403020100
DATA sweepIndex<>+8(SB)/8, $0x0F0E0D0C0B0A0908
DATA sweepIndex<>+16(SB)/8, $0x1716151413121110
DATA sweepIndex<>+24(SB)/8, $0x1F1E1D1C1B1A1918
GLOBL sweepIndex<>(SB), RODATA|NOPTR, $32

// latinPairs are the indexes with which latin's VPERMT2B spreads the
// leads of 64 bytes (0 to 63) and their trail bytes (64 to 127) into
// pairs: lead 0, trail 0, lead 1, trail 1 and so on, for bytes 0 to 31,
// then 32 to 63.
DATA latinPairs<>+0(SB)/8, $0x4303420241014000
DATA latinPairs<>+8(SB)/8, $0x4707460645054404
DATA latinPairs<>+16(SB)/8, $0x4B0B4A0A49094808
DATA latinPairs<>+24(SB)/8, $0x4F0F4E0E4D0D4C0C
DATA latinPairs<>+32(SB)/8, $0x5313521251115010
DATA latinPairs<>+40(SB)/8, $0x5717561655155414
DATA latinPairs<>+48(SB)/8, $0x5B1B5A1A59195818
DATA latinPairs<>+56(SB)/8, $0x5F1F5E1E5D1D5C1C
DATA latinPairs<>+64(SB)/8, $0x6323622261216020
DATA latinPairs<>+72(SB)/8, $0x6727662665256424
DATA latinPairs<>+80(SB)/8, $0x6B2B6A2A69296828
DATA latinPairs<>+88(SB)/8, $0x6F2F6E2E6D2D6C2C
DATA latinPairs<>+96(SB)/8, $0x7333723271317030
DATA latinPairs<>+104(SB)/8, $0x7737763675357434
DATA latinPairs<>+112(SB)/8, $0x7B3B7A3A79397838
DATA latinPairs<>+120(SB)/8, $0x7F3F7E3E7D3D7C3C
GLOBL latinPairs<>(SB), RODATA|NOPTR, $128

// latinMasks are the even bits, and the odd bits, of 64.
DATA latinMasks<>+0(SB)/8, $0x5555555555555555
DATA latinMasks<>+8(SB)/8, $0xAAAAAAAAAAAAAAAA
GLOBL latinMasks<>(SB), RODATA|NOPTR, $16

// The bytes that sweepAVX2 broadcasts into vectors.
DATA sweepBytes<>+0(SB)/1, $0x0D
DATA sweepBytes<>+1(SB)/1, $0x0A
DATA sweepBytes<>+2(SB)/1, $0xE0
DATA sweepBytes<>+3(SB)/1, $0xED
DATA sweepBytes<>+4(SB)/1, $0xFE
DATA sweepBytes<>+5(SB)/1, $0xC0
DATA sweepBytes<>+6(SB)/1, $0xA0
DATA sweepBytes<>+7(SB)/1, $0xBF
DATA sweepBytes<>+8(SB)/1, $0xC2
DATA sweepBytes<>+9(SB)/1, $0x01
GLOBL sweepBytes<>(SB), RODATA|NOPTR, $16

TEXT sweepAVX2<>(SB), NOSPLIT, $104-88
	MOVQ d_base+0(FP), DI
	MOVQ s_base+24(FP), SI
	MOVQ table+48(FP), R10
	MOVQ R10, 40(SP)
	MOVQ flags+56(FP), DX
	MOVQ d_len+8(FP), AX
	SUBQ $64, AX
	TESTQ R10, R10
	JZ   room
	SUBQ $16, AX             // six letters of three bytes: 12 more

room:
	MOVQ AX, 0(SP)
	MOVQ s_len+32(FP), AX
	SUBQ $32, AX
	MOVQ AX, 56(SP)
	SUBQ $33, AX
	MOVQ AX, 8(SP)
	MOVQ d_len+8(FP), AX
	SUBQ $32, AX
	MOVQ AX, 48(SP)
	SUBQ $96, AX
	MOVQ AX, 72(SP)
	MOVQ s_len+32(FP), AX
	SUBQ $64, AX
	MOVQ AX, 64(SP)
	MOVQ $0, 80(SP)
	MOVQ $0, 32(SP)
	MOVQ $4, 96(SP)

	// 16(SP): all 32 bits if CR counts, else none; its low byte, 07 or 0,
	// makes Y13.
	XORQ    AX, AX
	MOVL    $0xFFFFFFFF, CX
	TESTQ   $1, DX
	CMOVQNE CX, AX
	MOVQ    AX, 16(SP)
	ANDQ    $7, AX
	MOVQ    AX, 24(SP)
	VPBROADCASTB 24(SP), Y13
	XORQ    AX, AX
	TESTQ   $2, DX
	CMOVQNE CX, AX
	MOVQ    AX, 24(SP)
	VPBROADCASTB 24(SP), Y12

	VPBROADCASTB sweepBytes<>+0(SB), Y15
	VPBROADCASTB sweepBytes<>+1(SB), Y14
	VALIDATE_START
	XORQ R8, R8
	XORQ R9, R9
	XORQ BX, BX

	// With sweepLatin1 or sweepWide, Z17, Z18 and Z24 hold the bytes the
	// AVX-512 loops compare with: a NUL's, 00 if NUL stops the sweep, else
	// 80 (a byte that stops them anyway); a CR's, 0D or 80 alike
	// (sweepWide comes with sweepCR); LF. With sweepWide (UTF-8 with CR),
	// 88(SP) is how many bytes withCR takes after wideCR stops at a byte
	// from 80 or a NUL (64, doubled after each such stop in a row, up to
	// 1024; 0 without sweepWide: wideCR does not run).
	MOVQ  $0, 88(SP)
	TESTQ $24, DX
	JZ    pick
	MOVQ    $0x80, AX
	XORQ    CX, CX
	TESTQ   $2, DX
	CMOVQNE CX, AX
	VPBROADCASTB AX, Z17
	MOVQ    $0x80, AX
	MOVQ    $0x0D, CX
	TESTQ   $1, DX
	CMOVQNE CX, AX
	VPBROADCASTB AX, Z18
	VPBROADCASTB sweepBytes<>+1(SB), Z24
	TESTQ $16, DX
	JZ    latinSetup
	MOVQ  $64, 88(SP)

latinSetup:
	// With sweepLatin1, R13 is 1 and Z16 to Z23 hold the rest of latin's
	// constants: A0; Z17 and Z18 as above; C2, 01, BF; latinPairs. (R13
	// is VALIDATE's, for UTF-8 only.)
	TESTQ $8, DX
	JZ    pick
	MOVQ  $1, R13
	VPBROADCASTB sweepBytes<>+6(SB), Z16
	VPBROADCASTB sweepBytes<>+8(SB), Z19
	VPBROADCASTB sweepBytes<>+9(SB), Z20
	VPBROADCASTB sweepBytes<>+7(SB), Z21
	VMOVDQU64    latinPairs<>+0(SB), Z22
	VMOVDQU64    latinPairs<>+64(SB), Z23

	// A table: tableNoCR, with the table in R14, until a block has a CR
	// or NUL; latin, if it runs, only after that. On text with no CR
	// latin was no faster than tableNoCR (windows-1252 English with LF:
	// 9 % slower on Intel Emerald Rapids), on text with CR LF it is up to
	// 2.5 times as fast (bench/results/2026-12-01-asm-ratios.md).
pick:
	MOVQ  40(SP), R14
	TESTQ R14, R14
	JNZ   tableNoCR

	// noCR: text with no CR so far, or whose CRs are kept. A block
	// stored as it is needs only its own 32 bytes of s and d. Four
	// blocks at a time go through noCRFour while they are ASCII with no
	// CR or NUL that counts and no sequence runs into them (R12 is 0),
	// as in cleanAVX2: after a failed try, 4 to 64 ASCII blocks one at a
	// time (BX counts them down, 96(SP) doubles while tries fail; BX is
	// 0 again before withCR, whose it is); a block with bytes from 80
	// goes on to the next one at a time, so that UTF-8 text of another
	// script pays neither the tries nor the count.
noCR:
	DECQ BX
	JGT  noCROne

noCRFour:
	LEAQ      96(R8), R10
	CMPQ      R10, 56(SP)
	JGT       noCROne
	LEAQ      96(R9), R10
	CMPQ      R10, 48(SP)
	JGT       noCROne
	TESTQ     R12, R12
	JNZ       noCRFail
	CHECK4(16(SP))
	JNZ       noCRFail
	VMOVDQU   Y0, (DI)(R9*1)
	VMOVDQU   Y1, 32(DI)(R9*1)
	VMOVDQU   Y2, 64(DI)(R9*1)
	VMOVDQU   Y3, 96(DI)(R9*1)
	ADDQ      $128, R8
	ADDQ      $128, R9
	MOVQ      $4, 96(SP)
	JMP       noCRFour

noCRFail:
	MOVQ 96(SP), R10
	MOVQ R10, BX
	SHLQ $1, R10
	CMPQ R10, $64
	JLE  noCRBack
	MOVQ $64, R10

noCRBack:
	MOVQ R10, 96(SP)

noCROne:
	BLOCK_ROOM
	CHECK(16(SP))
	JNZ  noCRCheck
	VMOVDQU   Y0, (DI)(R9*1)
	ADDQ      $32, R8
	ADDQ      $32, R9
	JMP       noCR

noCRCheck:
	TESTQ CX, CX
	JZ    noCRText
	XORQ  BX, BX               // no CR before this block
	MOVQ  $1, 32(SP)           // the first CR: withCR takes the block again
	JMP   withCR

noCRTable:
	XORQ BX, BX
	JMP  table

noCRText:
	CMPQ  40(SP), $0
	JNE   noCRTable
	VALIDATE
	TESTQ AX, AX
	JNZ   done
	VMOVDQU Y0, (DI)(R9*1)
	ADDQ    $32, R8
	ADDQ    $32, R9
	JMP     noCROne

	// table: a block of either loop with a table's letters (or a NUL, or
	// in withCR line ends): latin takes it if it runs and has not just
	// stopped there, else events, through the loop's own look at it.
table:
	EVENTS_ROOM
	TESTQ     R13, R13
	JZ        tableEvents
	CMPQ      R8, 80(SP)       // not where latin has just stopped
	JLT       tableEvents
	XORQ      R14, R14
	JMP       latinAVX512

tableEvents:
	CMPQ      32(SP), $0
	JNE       withCREvents
	VPMOVMSKB Y0, AX           // bytes from 80
	POPCNTL   AX, CX
	CMPL      CX, $MAXEVENTS
	JHI       done
	XORQ      DX, DX           // no LF to drop
	JMP       events

	// withCR: each CR is written as LF, and an LF right after a CR is
	// dropped: the bytes of the block from that LF on are replaced by the
	// block shifted a byte lower (its last byte, then, is the next step's
	// to write), so that a block of text with one line end is one
	// store, with no branch on where. A block with more LFs to drop
	// (withCRMany) takes a LOWER_FROM for each; a block with neither
	// CR nor an LF to drop (withCRPlain) is stored as noCR stores it.
withCR:
	BLOCK_ROOM
	CHECK(16(SP))              // AX: bytes from 80, NUL, a sequence carried in, CRs
	MOVQ      AX, R10
	ORQ       BX, R10
	JZ        withCRPlain      // no line end, and no CR just before
	NOTQ      CX
	ANDQ      CX, AX
	ORQ       R12, AX          // AX without the CRs
	JZ        withCRASCII
	CMPQ      40(SP), $0
	JNE       table
	VALIDATE
	TESTQ AX, AX
	JNZ   done

withCRClean:
	DROPS
	SHRQ      $31, CX
	MOVQ      CX, BX
	LEAQ      -1(DX), R10
	TESTQ     DX, R10
	JNZ       withCRMany       // two or more
	VPAND        Y6, Y13, Y6
	VPXOR        Y0, Y6, Y0    // CRs as LF
	BTSQ         $32, DX
	BSFQ         DX, R10       // where the LF is dropped, or 32
	LOWER_FROM
	VMOVDQU      Y0, (DI)(R9*1)
	CMPQ         R10, $32      // carry: an LF dropped
	SBBQ         $0, R9
	ADDQ         $32, R8
	ADDQ         $32, R9
	JMP          withCR

	// withCRASCII: a block of ASCII with a line end (and R12 0): wideCR
	// takes it if it runs and has not just stopped there.
withCRASCII:
	CMPQ 88(SP), $0
	JEQ  withCRClean
	CMPQ R8, 80(SP)
	JLT  withCRClean
	JMP  wideCR

	// withCRPlain: a block of ASCII with no CR after a block that did
	// not end in one, most blocks of text with long lines, stored as it
	// is.
withCRPlain:
	VMOVDQU Y0, (DI)(R9*1)
	ADDQ    $32, R8
	ADDQ    $32, R9
	JMP     withCR

	// withCRMany: two or more LFs to drop (an empty line, short lines),
	// and no letter of a table: each is left out with LOWER_FROM in
	// turn, its index less the LFs left out before it, and the block is
	// stored once, as for one (events took a store for each, and the
	// room of a block with events).
withCRMany:
	VPAND     Y6, Y13, Y6
	VPXOR     Y0, Y6, Y0       // CRs as LF
	XORQ      AX, AX           // the LFs left out so far

withCRDrop:
	BSFQ      DX, R10
	SUBQ      AX, R10
	LOWER_FROM
	INCQ      AX
	LEAQ      -1(DX), CX
	ANDQ      CX, DX
	JNZ       withCRDrop
	VMOVDQU   Y0, (DI)(R9*1)
	ADDQ      $32, R8
	ADDQ      $32, R9
	SUBQ      AX, R9
	JMP       withCR

withCREvents:
	DROPS
	VPMOVMSKB Y0, AX           // bytes from 80
	POPCNTL   AX, R10
	CMPL      R10, $MAXEVENTS
	JHI       done
	SHRQ      $31, CX
	MOVQ      CX, BX

	// events: the block in Y0 (its CRs in Y6) is stored, with CRs as LF;
	// then each event in turn, in AX (a byte from 80 to look up in the
	// table) or DX (an LF to drop), writes its UTF-8 or nothing, and the
	// rest of the block is stored again right after it. R9 moves by what
	// each event adds or takes away.
events:
	VPCMPEQB  Y0, Y7, Y1
	VPAND     Y1, Y12, Y1
	VPMOVMSKB Y1, CX
	TESTQ     CX, CX
	JNZ       done             // NUL
	ORQ       AX, R11
	VPAND     Y6, Y13, Y1
	VPXOR     Y0, Y1, Y1
	VMOVDQU   Y1, (DI)(R9*1)
	ORQ       DX, AX

event:
	NEXT_EVENT
	CMPL    CX, $0x80
	JCS     eventLF
	MOVQ    40(SP), DX
	PUT_LETTER(DX)
	JMP     eventRest

eventLF:
	DECQ R9

eventRest:
	LEAQ     1(R8)(R10*1), CX
	VMOVDQU  (SI)(CX*1), Y1
	VPCMPEQB Y1, Y15, Y2
	VPAND    Y2, Y13, Y2
	VPXOR    Y1, Y2, Y1
	LEAQ     1(R9)(R10*1), CX
	VMOVDQU  Y1, (DI)(CX*1)
	TESTQ    AX, AX
	JNZ      event
	ADDQ     $32, R8
	ADDQ     $32, R9
	CMPQ     32(SP), $0
	JEQ      noCR
	JMP      withCR

	// tableNoCR: noCR for a single-byte encoding, the table in R14
	// (R13 1 if latin runs, as it may from noCR on). A block with no CR
	// and no NUL (kept or not) is stored as it is; if it has bytes from 80, each is an
	// event as in events, with no LF to drop or CR to write as LF. A
	// block with a CR or NUL goes to noCR, which stays in charge from
	// there. The usual text, ASCII with a few letters, takes one load,
	// two compares and one store a block, and 16 instructions a letter.
	// (The order of the event loop matters: with the load of the rest
	// of the block before the store of the letter, and AX cleared last,
	// the same instructions took twice the time on Rocket Lake.)
tableNoCR:
	BLOCK_ROOM
	VMOVDQU   (SI)(R8*1), Y0
	VPCMPEQB  Y0, Y15, Y1      // CR
	VPCMPEQB  Y0, Y7, Y2       // NUL
	VPOR      Y1, Y2, Y1
	VPMOVMSKB Y1, CX
	TESTL     CX, CX
	JNZ       tableNoCRNoCR
	VPMOVMSKB Y0, AX           // bytes from 80
	VMOVDQU   Y0, (DI)(R9*1)
	TESTL     AX, AX
	JNZ       tableNoCREvents
	ADDQ      $32, R8
	ADDQ      $32, R9
	JMP       tableNoCR

tableNoCREvents:
	EVENTS_ROOM
	POPCNTL AX, CX
	CMPL    CX, $MAXEVENTS
	JHI     done
	ORQ     AX, R11

	// Each byte from 80 writes its UTF-8 from the table, and the rest of
	// the block is stored again right after it.
tableNoCREvent:
	NEXT_EVENT
	PUT_LETTER(R14)
	LEAQ    1(R8)(R10*1), CX
	VMOVDQU (SI)(CX*1), Y1
	LEAQ    1(R9)(R10*1), CX
	VMOVDQU Y1, (DI)(CX*1)
	TESTQ   AX, AX
	JNZ     tableNoCREvent
	ADDQ    $32, R8
	ADDQ    $32, R9
	JMP     tableNoCR

tableNoCRNoCR:
	XORQ R14, R14
	JMP  noCR

	// wideCR: withCR for UTF-8 text with AVX-512 (sweepWide), 64 bytes a
	// step while they are ASCII with no NUL that stops the sweep: each CR
	// is written as LF and each LF right after a CR (BX as in withCR) is
	// left out by VPCOMPRESSB, the same way for any number of line ends
	// (withCR takes a LOWER_FROM for each, 32 bytes a step). withCR comes
	// here from a block of ASCII with a line end (withCRASCII), R12 0,
	// and takes the 64 bytes (88(SP)) from a step with a byte from 80 or
	// a NUL, and the rest when there is too little room for a step: 64
	// bytes of s, 128 of d (latin's marks).
wideCR:
	ROOM(64(SP), 72(SP), wideCRRoom)
	VMOVDQU64   (SI)(R8*1), Z0
	VPMOVB2M    Z0, K1           // bytes from 80
	VPCMPEQB    Z0, Z17, K2      // NULs that stop the sweep
	KORTESTQ    K1, K2
	JNZ         wideCROut
	VPCMPEQB    Z0, Z18, K3      // CRs
	VPCMPEQB    Z0, Z24, K2      // LFs
	KMOVQ       K3, CX
	KMOVQ       K2, DX
	LEAQ        (BX)(CX*2), R10
	ANDQ        R10, DX          // the LFs to drop
	SHRQ        $63, CX
	MOVQ        CX, BX
	VMOVDQU8    Z24, K3, Z0      // CRs as LF
	KMOVQ       DX, K4
	KNOTQ       K4, K4
	VPCOMPRESSB Z0, K4, Z0
	VMOVDQU64   Z0, (DI)(R9*1)
	POPCNTQ     DX, DX
	SUBQ        DX, R9
	ADDQ        $64, R9
	ADDQ        $64, R8
	MOVQ        $64, 88(SP)
	JMP         wideCR

wideCROut:
	MOVQ    88(SP), R10
	LEAQ    (R8)(R10*1), CX
	MOVQ    CX, 80(SP)
	SHLQ    $1, R10
	MOVQ    $1024, CX
	CMPQ    R10, CX
	CMOVQGT CX, R10
	MOVQ    R10, 88(SP)
	JMP     withCR

wideCRRoom:
	LEAQ 64(R8), R10
	MOVQ R10, 80(SP)
	JMP  withCR

	// latin: windows-1252 text (sweepLatin1, on CPUs with AVX-512
	// VBMI2) whose bytes from 80 are A0 to FF, the Latin-1 letters,
	// whose UTF-8 is two bytes: C2, or C3 from C0, then the byte with
	// bit 6 cleared. It goes 64 bytes a step, the same way for any
	// number of letters and line ends, with no branch on how many: the
	// bytes (a letter's lead, a CR as LF) and their trail bytes are
	// spread into pairs, and VPCOMPRESSB keeps each pair's first byte
	// (but an LF's right after a CR, BX as in withCR) and a letter's
	// trail byte. It goes back to noCR (withCR once it has met a CR)
	// after four steps in a row of ASCII (R14 counts them), where those
	// loops' blocks cost less; and for 64 bytes (80(SP)) at a step with
	// a byte from 80 to 9F or a NUL that stops the sweep, or with too
	// little room: 64 bytes of s, 128 of d.
latinAVX512:
	ROOM(64(SP), 72(SP), latinOut)
	VMOVDQU64 (SI)(R8*1), Z0
	VPCMPGTB  Z0, Z16, K1      // 80 to 9F
	VPCMPEQB  Z0, Z17, K2      // NUL
	KORTESTQ  K1, K2
	JNZ       latinOut
	VPCMPEQB  Z0, Z18, K3      // CRs that count
	VPCMPEQB  Z0, Z24, K2      // LFs
	VPMOVB2M  Z0, K4           // letters
	KMOVQ     K4, AX
	KMOVQ     K3, CX
	KMOVQ     K2, DX
	ORQ       CX, 32(SP)       // a CR met: withCR from now on
	LEAQ      (BX)(CX*2), R10
	ANDQ      R10, DX          // the LFs to drop
	SHRQ      $63, CX
	MOVQ      CX, BX
	VPSRLW     $6, Z0, Z1
	VPTERNLOGD $0xEA, Z19, Z20, Z1 // leads: C2 OR bit 6
	VPBLENDMB  Z1, Z0, K4, Z1      // ASCII as it is
	VMOVDQU8   Z24, K3, Z1         // CRs as LF
	VPANDD     Z0, Z21, Z2         // trail bytes
	VMOVDQA64  Z1, Z3
	VPERMT2B   Z2, Z22, Z3         // the pairs of bytes 0 to 31
	VMOVDQA64  Z1, Z4
	VPERMT2B   Z2, Z23, Z4         // and of 32 to 63
	MOVL       AX, CX
	PDEPQ      latinMasks<>+8(SB), CX, CX // the trail bytes of letters
	ORQ        latinMasks<>+0(SB), CX     // every lead
	MOVL       DX, R10
	PDEPQ      latinMasks<>+0(SB), R10, R10
	XORQ       R10, CX                    // but LFs dropped
	KMOVQ      CX, K5
	POPCNTQ    CX, CX
	VPCOMPRESSB Z3, K5, Z3
	VMOVDQU64  Z3, (DI)(R9*1)
	ADDQ       CX, R9
	MOVQ       AX, CX
	SHRQ       $32, CX
	PDEPQ      latinMasks<>+8(SB), CX, CX
	ORQ        latinMasks<>+0(SB), CX
	SHRQ       $32, DX
	PDEPQ      latinMasks<>+0(SB), DX, DX
	XORQ       DX, CX
	KMOVQ      CX, K6
	POPCNTQ    CX, CX
	VPCOMPRESSB Z4, K6, Z4
	VMOVDQU64  Z4, (DI)(R9*1)
	ADDQ       CX, R9
	ORQ        AX, R11
	ADDQ       $64, R8
	INCQ       R14
	XORL       CX, CX
	TESTQ      AX, AX
	CMOVQNE    CX, R14
	CMPQ       R14, $4
	JB         latinAVX512
	JMP        latinBack

latinOut:
	LEAQ 64(R8), R10
	MOVQ R10, 80(SP)

latinBack:
	CMPQ 32(SP), $0
	JEQ  noCR
	JMP  withCR

done:
	VZEROUPPER
	MOVQ R9, j+64(FP)
	MOVQ R8, i+72(FP)
	MOVQ R11, high+80(FP)
	RET

// func cleanAVX2(s []byte, flags uint64) (n, high int)
//
// cleanAVX2 is sweepAVX2 on UTF-8 without the copy: it stops at the first
// 32-byte block with a CR (if flags has sweepCR) or anything VALIDATE
// stops at, or with fewer than 32 bytes left. Registers as in sweepAVX2;
// R9 is the mask of CR bits that count, R10 the last i. Four blocks at a
// time go through cleanFour while they are ASCII with no CR or NUL that
// counts and no sequence runs into them (R12 is 0): what CHECK finds in
// each, found for the four with their ORs and minimum. Where that fails,
// the next ASCII blocks go one at a time (DI counts them down): 4 after
// a success, twice as many after each failure in a row, up to 64 (BX);
// blocks with bytes from 0x80 go one at a time uncounted. So text with a
// letter from 0x80 every few blocks seldom pays for a try, and text of
// another script never.
TEXT cleanAVX2<>(SB), NOSPLIT, $8-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), R10
	SUBQ $32, R10
	MOVQ R10, 0(SP)
	MOVQ flags+24(FP), DX
	XORQ    R9, R9
	MOVL    $0xFFFFFFFF, CX
	TESTQ   $1, DX
	CMOVQNE CX, R9
	XORQ    AX, AX
	MOVQ    $0xFF, CX
	TESTQ   $2, DX
	CMOVQNE CX, AX
	VMOVQ   AX, X12
	VPBROADCASTB X12, Y12
	VPBROADCASTB sweepBytes<>+0(SB), Y15
	VALIDATE_START
	XORQ R8, R8
	// The first four blocks one at a time: WriteTo calls cleanBlocks at
	// each stop (a CR of CR LF text, every line), where a try of four
	// would seldom pay. Then with fewer than 128 bytes left, one block
	// at a time to the end.
	MOVQ $4, DI
	MOVQ $4, BX // blocks to take one at a time after a failed try

cleanFour:
	LEAQ      96(R8), CX
	CMPQ      CX, 0(SP)
	JGT       cleanLoop
	TESTQ     R12, R12
	JNZ       cleanOne
	CHECK4(R9)
	JNZ       cleanOne
	MOVQ      $4, BX
	ADDQ      $128, R8
	JMP       cleanFour

cleanOne:
	MOVQ BX, DI
	SHLQ $1, BX
	CMPQ BX, $64
	JLE  cleanLoop
	MOVQ $64, BX

cleanLoop:
	CMPQ      R8, 0(SP)
	JGT       cleanDone
	CHECK(R9)
	JNZ       cleanCheck
	ADDQ      $32, R8
	DECQ      DI
	JGT       cleanLoop
	JMP       cleanFour

cleanCheck:
	TESTQ CX, CX
	JNZ   cleanDone
	VALIDATE
	TESTQ AX, AX
	JNZ   cleanDone
	ADDQ  $32, R8
	JMP   cleanLoop

cleanDone:
	VZEROUPPER
	MOVQ R8, n+32(FP)
	MOVQ R11, high+40(FP)
	RET

// func indexPairAVX2(s []byte, a, b byte) int
TEXT indexPairAVX2<>(SB), NOSPLIT, $0-40
	MOVQ         s_base+0(FP), SI
	MOVQ         s_len+8(FP), BX
	VPBROADCASTB a+24(FP), Y1
	VPBROADCASTB b+25(FP), Y2
	XORQ         AX, AX

pairLoop:
	LEAQ      32(AX), CX
	CMPQ      CX, BX
	JGT       pairTail
	VMOVDQU   (SI)(AX*1), Y0
	VPCMPEQB  Y0, Y1, Y3
	VPCMPEQB  Y0, Y2, Y4
	VPOR      Y3, Y4, Y3
	VPMOVMSKB Y3, DX
	TESTL     DX, DX
	JNZ       pairFound
	MOVQ      CX, AX
	JMP       pairLoop

pairFound:
	VZEROUPPER
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+32(FP)
	RET

pairTail:
	VZEROUPPER
	MOVBLZX a+24(FP), R8
	MOVBLZX b+25(FP), R9

pairByte:
	CMPQ    AX, BX
	JGE     pairNone
	MOVBLZX (SI)(AX*1), DX
	CMPL    DX, R8
	JEQ     pairDone
	CMPL    DX, R9
	JEQ     pairDone
	INCQ    AX
	JMP     pairByte

pairDone:
	MOVQ AX, ret+32(FP)
	RET

pairNone:
	MOVQ $-1, ret+32(FP)
	RET

// func squeezeCRAVX2(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64)
//
// See sweep_amd64.go. withCR of sweepAVX2 in place, for UTF-8 that needs
// no check: a block of 32 bytes at r, with CRs as LF and each LF right
// after a CR left out (the bytes from it on replaced by the block a byte
// lower, once for each), is stored once at w, which is never past r, so
// that the store only covers bytes already loaded. The first LF to leave
// out (or none) costs no branch; each further one a turn of squeezeMore.
// Registers: SI the base of b, R8 r, R9 w, BX 1 if the byte before r is a
// CR, DX the last r for a block, R12 the LFs left out of the block; Y15
// CR, Y14 LF, Y13 07 (CR XOR LF).
TEXT squeezeCRAVX2<>(SB), NOSPLIT, $0-72
	MOVQ         b_base+0(FP), SI
	MOVQ         b_len+8(FP), DX
	SUBQ         $32, DX
	MOVQ         r+24(FP), R8
	MOVQ         w+32(FP), R9
	MOVQ         cr+40(FP), BX
	VPBROADCASTB sweepBytes<>+0(SB), Y15
	VPBROADCASTB sweepBytes<>+1(SB), Y14
	VPXOR        Y14, Y15, Y13
	PCALIGN      $64

squeeze:
	CMPQ         R8, DX
	JGT          squeezeDone
	VMOVDQU      (SI)(R8*1), Y0
	VPCMPEQB     Y0, Y15, Y6   // CRs
	VPCMPEQB     Y0, Y14, Y2   // LFs
	VPMOVMSKB    Y6, CX
	VPMOVMSKB    Y2, AX
	LEAQ         (BX)(CX*2), R10
	ANDQ         R10, AX       // the LFs to leave out
	MOVQ         CX, BX
	SHRQ         $31, BX
	VPAND        Y6, Y13, Y6
	VPXOR        Y0, Y6, Y0    // CRs as LF
	MOVQ         AX, R11
	BTSQ         $32, R11
	BSFQ         R11, R10      // the first LF left out, or 32
	XORL         R12, R12
	CMPQ         R10, $32
	ADCQ         $0, R12
	LOWER_FROM
	LEAQ         -1(AX), R11
	ANDQ         R11, AX
	JNZ          squeezeMore

squeezeStore:
	VMOVDQU Y0, (SI)(R9*1)
	SUBQ    R12, R9
	ADDQ    $32, R8
	ADDQ    $32, R9
	JMP     squeeze

	// Each further LF to leave out, now R12 bytes lower.
squeezeMore:
	BSFQ         AX, R10
	SUBQ         R12, R10
	LOWER_FROM
	INCQ         R12
	LEAQ         -1(AX), R11
	ANDQ         R11, AX
	JNZ          squeezeMore
	JMP          squeezeStore

squeezeDone:
	VZEROUPPER
	MOVQ R8, r2+48(FP)
	MOVQ R9, w2+56(FP)
	MOVQ BX, cr2+64(FP)
	RET

// The functions of sweep_amd64.go: each jumps to its loop above where the
// CPU has what the loop uses (sweepOK, set in sweep_amd64.go), else to
// its Go twin (sweep_generic.go), as internal/bytealg's do.

// func sweepBlocks(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int)
TEXT ·sweepBlocks(SB), NOSPLIT, $0-88
	CMPB ·sweepOK(SB), $0
	JEQ  generic
	JMP  sweepAVX2<>(SB)

generic:
	JMP ·sweepBlocksGeneric(SB)

// func cleanBlocks(s []byte, flags uint64) (n, high int)
TEXT ·cleanBlocks(SB), NOSPLIT, $0-48
	CMPB ·sweepOK(SB), $0
	JEQ  generic
	JMP  cleanAVX2<>(SB)

generic:
	JMP ·cleanBlocksGeneric(SB)

// func indexPair(s []byte, a, b byte) int
TEXT ·indexPair(SB), NOSPLIT, $0-40
	CMPB ·sweepOK(SB), $0
	JEQ  generic
	JMP  indexPairAVX2<>(SB)

generic:
	JMP ·indexPairGeneric(SB)

// func squeezeBlocks(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64)
TEXT ·squeezeBlocks(SB), NOSPLIT, $0-72
	CMPB ·sweepOK(SB), $0
	JEQ  generic
	JMP  squeezeCRAVX2<>(SB)

generic:
	JMP ·squeezeBlocksGeneric(SB)
