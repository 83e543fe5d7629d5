#include "textflag.h"

// NOTPLAIN flags in R8 (and the flags) the bytes of the 32 at addr that are not plain: Y1, Y2 and Y3
// hold the quote, the backslash and 0x1F in every byte.
#define NOTPLAIN(addr) \
	VMOVDQU   addr, Y0; \
	VPCMPEQB  Y0, Y1, Y4; \
	VPCMPEQB  Y0, Y2, Y5; \
	VPCMPGTB  Y3, Y0, Y6; \
	VPOR      Y4, Y5, Y4; \
	VPMOVMSKB Y4, R8; \
	VPMOVMSKB Y6, R9; \
	NOTL      R9; \
	ORL       R9, R8

// func plainEndAVX2(d []byte, i int) int
//
// Steps 32 bytes a turn from d[i] and returns the index of the first byte that is not plain (a byte
// below 0x20 or from 0x80 up — the two fall outside a signed compare above 0x1F — or '"' or '\\'), or
// len(d) when there is none. The last bytes are read in one load that ends at len(d) and overlaps
// bytes already read, the bytes before i masked off, so no byte past the slice is read. The caller
// passes i+32 <= len(d).
TEXT ·plainEndAVX2(SB), NOSPLIT, $0-40
	MOVQ d_base+0(FP), SI
	MOVQ d_len+8(FP), DX
	MOVQ i+24(FP), AX

	MOVL $0x22, BX
	MOVQ BX, X1
	VPBROADCASTB X1, Y1
	MOVL $0x5c, BX
	MOVQ BX, X2
	VPBROADCASTB X2, Y2
	MOVL $0x1f, BX
	MOVQ BX, X3
	VPBROADCASTB X3, Y3

loop:
	LEAQ 32(AX), BX
	CMPQ BX, DX
	JA   last
	NOTPLAIN((SI)(AX*1))
	JNZ found
	MOVQ     BX, AX
	JMP      loop

found:
	BSFL R8, R8
	ADDQ R8, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

last:
	// Fewer than 32 bytes are left: the 32 that end at len(d), the CX bytes before i shifted out.
	CMPQ AX, DX
	JEQ  none
	LEAQ -32(DX), BX
	MOVQ AX, CX
	SUBQ BX, CX
	NOTPLAIN((SI)(BX*1))
	SHRL     CX, R8
	TESTL    R8, R8
	JNZ      found

none:
	MOVQ DX, ret+32(FP)
	VZEROUPPER
	RET
