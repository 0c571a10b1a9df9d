/* dynptr.bpf.c — dynamic pointers (the engine's dynptr.c): ringbuf and
 * local dynptrs, their slices, their release, what writing into or
 * reading a dynptr's stack bytes does, and bpf_user_ringbuf_drain's
 * callback dynptr. Each program must give the running kernel's (Linux
 * 6.18.44) level-2 log line for line, its verdict and its counts
 * (tests/cli/dynptr.sh runs `rangebench kdiff` on every program here);
 * the rejected ones are rejected at the same instruction with the same
 * message. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} urb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[4]);
} arr SEC(".maps");

__u64 out;

/* dynptr kfuncs (the engine's dynptr_kfuncs.c), as vmlinux BTF declares them */
extern __u32 bpf_dynptr_size(const struct bpf_dynptr *p) __ksym;
extern _Bool bpf_dynptr_is_null(const struct bpf_dynptr *p) __ksym;
extern _Bool bpf_dynptr_is_rdonly(const struct bpf_dynptr *p) __ksym;
extern int bpf_dynptr_adjust(const struct bpf_dynptr *p, __u32 start, __u32 end) __ksym;

/* declares key and v; d = a local dynptr over the first `size` bytes of
 * arr's value, and the program returns 0 where there is no value */
#define LOCAL_DYNPTR_OR_RETURN(d, size)                 \
	__u32 key = 0;                                  \
	__u64 *v = bpf_map_lookup_elem(&arr, &key);     \
	if (!v)                                         \
		return 0;                               \
	bpf_dynptr_from_mem(v, size, 0, &(d))

/* reserve, write through a slice, submit */
SEC("raw_tp")
int ringbuf_slice(void *ctx)
{
	struct bpf_dynptr d;
	__u64 *p;

	if (bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d)) {
		bpf_ringbuf_discard_dynptr(&d, 0);
		return 0;
	}
	p = bpf_dynptr_data(&d, 0, 16);
	if (p) {
		p[0] = 1;
		p[1] = out;
	}
	bpf_ringbuf_submit_dynptr(&d, 0);
	return 0;
}

/* a local dynptr over a map value: read and write through helpers; the
 * slice's size bounds a variable index */
SEC("raw_tp")
int local_from_map(void *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0;
	__u64 buf[2] = {}, *v, *s;

	v = bpf_map_lookup_elem(&arr, &key);
	if (!v)
		return 0;
	bpf_dynptr_from_mem(v, 32, 0, &d);
	bpf_dynptr_read(buf, sizeof(buf), &d, 0, 0);
	bpf_dynptr_write(&d, 16, buf, sizeof(buf), 0);
	s = bpf_dynptr_data(&d, 8, 24);
	if (!s)
		return 1;
	return s[(buf[0] & 1) + 1] == 3;
}

/* both branches build a dynptr in the same slots: the states meet */
SEC("raw_tp")
int two_paths(void *ctx)
{
	struct bpf_dynptr d;
	__u32 n = bpf_get_prandom_u32();

	if (n & 1)
		bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	else
		bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

/* ... each with a slice when they meet: 6.18.44 compares a slice's
 * dynptr_id exactly, so the second path is explored again; 7.2.13 maps it
 * through the id map (profile.h dynptr_parent_ids) and prunes
 * (tests/cli/dynptr.sh pins both kernels' counts) */
SEC("raw_tp")
int slice_two_paths(void *ctx)
{
	struct bpf_dynptr d;
	__u32 n = bpf_get_prandom_u32();
	__u32 *p;

	/* two different instructions end the branches, so that the compiler
	 * does not sink the calls into one */
	if (n & 1) {
		bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
		p = bpf_dynptr_data(&d, 0, 4);
		asm volatile("r1 = 0; r1 = 1; r1 = 2" ::: "r1");
	} else {
		bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
		p = bpf_dynptr_data(&d, 4, 4);
		asm volatile("r2 = 0" ::: "r2");
	}
	asm volatile("" : "+r"(p)); /* the slice checked once, after the paths meet */
	if (p)
		*p = n;
	bpf_ringbuf_submit_dynptr(&d, 0);
	return 0;
}

/* a slice of 8 bytes read at offset 8: rejected */
SEC("raw_tp")
int slice_out_of_bounds(void *ctx)
{
	struct bpf_dynptr d;
	__u8 *p;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (p)
		out = p[8];
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

/* a slice used after its dynptr was submitted: rejected */
SEC("raw_tp")
int slice_after_submit(void *ctx)
{
	struct bpf_dynptr d;
	__u64 *p;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (!p) {
		bpf_ringbuf_discard_dynptr(&d, 0);
		return 0;
	}
	bpf_ringbuf_submit_dynptr(&d, 0);
	return *p;
}

/* a ringbuf dynptr never submitted: a leaked reference */
SEC("raw_tp")
int ringbuf_leak(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	return 0;
}

/* writing into a local dynptr destroys it (and its slice) */
SEC("raw_tp")
int local_overwritten(void *ctx)
{
	struct bpf_dynptr d;
	LOCAL_DYNPTR_OR_RETURN(d, 8);

	*(volatile __u32 *)&d = 0;
	return bpf_dynptr_data(&d, 0, 8) != 0;
}

/* writing into a ringbuf dynptr is refused */
SEC("raw_tp")
int ringbuf_overwritten(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	*((volatile __u8 *)&d + 9) = 1;
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

/* reading a dynptr's bytes is refused */
SEC("raw_tp")
int read_dynptr_bytes(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	out = *(volatile __u64 *)&d;
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

/* released twice: the second is an unacquired reference */
SEC("raw_tp")
int release_twice(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	bpf_ringbuf_submit_dynptr(&d, 0);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

static long drain_cb(struct bpf_dynptr *d, void *ctx)
{
	__u64 v = 0;

	if (bpf_dynptr_read(&v, sizeof(v), d, 0, 0))
		return 1;
	*(__u64 *)ctx += v;
	return 0;
}

/* user ringbuf: the callback gets a local dynptr (CONST_PTR_TO_DYNPTR) */
SEC("raw_tp")
int user_ringbuf(void *ctx)
{
	__u64 sum = 0;

	bpf_user_ringbuf_drain(&urb, drain_cb, &sum, 0);
	out = sum;
	return 0;
}

static long drain_cb_release(struct bpf_dynptr *d, void *ctx)
{
	bpf_ringbuf_discard_dynptr(d, 0);
	return 0;
}

/* the callback's dynptr is not the program's to release */
SEC("raw_tp")
int user_ringbuf_release(void *ctx)
{
	bpf_user_ringbuf_drain(&urb, drain_cb_release, NULL, 0);
	return 0;
}

/* the kfuncs on a local dynptr: its size bounds nothing, adjust narrows it */
SEC("raw_tp")
int kfuncs_local(void *ctx)
{
	struct bpf_dynptr d;
	LOCAL_DYNPTR_OR_RETURN(d, 32);

	if (bpf_dynptr_is_null(&d) || bpf_dynptr_is_rdonly(&d))
		return 1;
	if (bpf_dynptr_adjust(&d, 8, 16))
		return 2;
	out = bpf_dynptr_size(&d);
	return 0;
}

/* a kfunc given stack that holds no dynptr */
SEC("raw_tp")
int kfunc_uninit(void *ctx)
{
	struct bpf_dynptr d;

	out = bpf_dynptr_size(&d);
	return 0;
}

static long drain_size(struct bpf_dynptr *d, void *ctx)
{
	out += bpf_dynptr_size(d);
	return 0;
}

/* the kfuncs on the callback's CONST_PTR_TO_DYNPTR */
SEC("raw_tp")
int kfunc_user_ringbuf(void *ctx)
{
	bpf_user_ringbuf_drain(&urb, drain_size, NULL, 0);
	return 0;
}
