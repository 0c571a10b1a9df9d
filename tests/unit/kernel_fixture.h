/* kernel_fixture.h — the running kernel's answer for the engine tests that
 * compare with it: load one program through bpf() and classify the result
 * as rangebench's kernel tracker does (callers check rb_bpf_available). */
#ifndef RB_TEST_KERNEL_FIXTURE_H
#define RB_TEST_KERNEL_FIXTURE_H

#include <stdbool.h>
#include <unistd.h>

#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

/* whether bpf() loads programs here, asked once per test process (each
 * question is a program load; the answer does not change while it runs) */
static inline bool fx_bpf_available(void)
{
	static int avail = -1;
	if (avail < 0) {
		const char *why;
		avail = rb_bpf_available(&why);
	}
	return avail;
}

/* the kernel's verdict, instruction and message for the program a
 * describes. One log buffer serves every load of the process: under ASan a
 * 1 MiB buffer allocated and freed per load (an mmap, a shadow fill and a
 * quarantine recycle each) was three quarters of test_engine_ctx's time. */
static inline void fx_kernel_result(const struct rb_kload_args *a, struct rb_result *kr)
{
	static struct rb_klog log;
	int e = 0;
	int fd = rb_kload_raw(a, &log, &e);
	rb_kload_classify(fd, e, log.buf, a->prog_type, a->expected_attach_type, kr);
	if (fd >= 0)
		close(fd);
}

#endif
