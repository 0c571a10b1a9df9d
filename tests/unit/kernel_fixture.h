/* kernel_fixture.h — the running kernel's answer for the engine tests that
 * compare with it: load one program through bpf() and classify the result
 * as rangebench's kernel tracker does (callers check rb_bpf_available). */
#ifndef RB_TEST_KERNEL_FIXTURE_H
#define RB_TEST_KERNEL_FIXTURE_H

#include <unistd.h>

#include "oracle/kload.h"

/* the kernel's verdict, instruction and message for the program a describes */
static inline void fx_kernel_result(const struct rb_kload_args *a, struct rb_result *kr)
{
	struct rb_klog log = {0};
	int e = 0;
	int fd = rb_kload_raw(a, &log, &e);
	rb_kload_classify(fd, e, log.buf, a->prog_type, a->expected_attach_type, kr);
	if (fd >= 0)
		close(fd);
	rb_klog_free(&log);
}

#endif
