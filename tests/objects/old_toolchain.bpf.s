# old_toolchain.bpf.s — what old clang and hand-written assembly gave:
# program symbols of type STT_NOTYPE (libbpf 1.x sees no program in
# them), section names that only libbpf < 1.0 and samples/bpf/bpf_load.c
# matched by prefix ("xdp_prog", "socket1"), a call to memset that the
# compiler did not inline (no loader can resolve it: the verifier gets the
# call as written and rejects it; memcpy likewise), two programs in one
# section, and no BTF. Its make rule also writes em_none.bpf.o: the same object with
# e_machine 0 (EM_NONE), as old LLVM wrote it.
	.section	"xdp_prog","ax"
	.globl	xdp_pass
xdp_pass:
	r0 = 2
	exit
	.globl	xdp_drop
xdp_drop:
	r0 = 1
	exit

	.section	"socket1","ax"
	.globl	sock_memset
sock_memset:
	r1 = r10
	r1 += -8
	r2 = 0
	r3 = 8
	call memset
	r0 = 0
	exit

	.section	"socket2","ax"
	.globl	sock_memcpy
sock_memcpy:
	r1 = r10
	r1 += -16
	r2 = r10
	r2 += -8
	r3 = 8
	call memcpy
	r0 = 0
	exit

	.section	"license","aw"
	.asciz	"GPL"
