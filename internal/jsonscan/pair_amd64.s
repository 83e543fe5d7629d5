#include "textflag.h"

// func nextPairAVX2(d []byte, i int, bytes uint32) (p int, found bool)
//
// From d[i], 32 places a turn: the block at p flags its bytes equal to a (VPCMPEQB), the block at p+1
// (an unaligned load one byte on) its bytes equal to b0, b1 or b2; the lowest place flagged in both is
// the first pair. A turn reads 33 bytes, so it runs only while they are in d; where it stops is returned
// with found false, for the word search to go on from.
TEXT ·nextPairAVX2(SB), NOSPLIT, $0-49
	MOVQ d_base+0(FP), SI
	MOVQ d_len+8(FP), DX
	MOVQ i+24(FP), AX
	MOVL bytes+32(FP), BX

	MOVL BX, CX
	ANDL $0xff, CX
	MOVQ CX, X1
	VPBROADCASTB X1, Y1
	MOVL BX, CX
	SHRL $8, CX
	ANDL $0xff, CX
	MOVQ CX, X2
	VPBROADCASTB X2, Y2
	MOVL BX, CX
	SHRL $16, CX
	ANDL $0xff, CX
	MOVQ CX, X3
	VPBROADCASTB X3, Y3
	MOVL BX, CX
	SHRL $24, CX
	MOVQ CX, X4
	VPBROADCASTB X4, Y4

loop:
	LEAQ 33(AX), CX
	CMPQ CX, DX
	JA   stop
	VMOVDQU  (SI)(AX*1), Y0
	VPCMPEQB Y0, Y1, Y0
	VPMOVMSKB Y0, R8
	TESTL    R8, R8
	JZ       next // no first byte in the block: a tool's output, most of a long line, costs no more
	VMOVDQU  1(SI)(AX*1), Y5
	VPCMPEQB Y5, Y2, Y6
	VPCMPEQB Y5, Y3, Y7
	VPCMPEQB Y5, Y4, Y8
	VPOR     Y6, Y7, Y6
	VPOR     Y6, Y8, Y6
	VPMOVMSKB Y6, R9
	ANDL     R9, R8
	JNZ      found

next:
	ADDQ $32, AX
	JMP  loop

found:
	BSFL R8, R8
	ADDQ R8, AX
	MOVQ AX, p+40(FP)
	MOVB $1, found+48(FP)
	VZEROUPPER
	RET

stop:
	MOVQ AX, p+40(FP)
	MOVB $0, found+48(FP)
	VZEROUPPER
	RET
