/* ksample.c — the kernel's exploration time from CPU-clock samples with
 * kernel call chains (see ksample.h). perf_event_open(2) and the ring
 * buffer layout are Linux's uapi (include/uapi/linux/perf_event.h); the
 * function names sampled are Linux 6.18's (kernel/bpf/verifier.c). */
#include "oracle/ksample.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ring buffer pages after the control page: 8 MiB, ~30,000 samples of a
 * 64-frame chain; a longer load loses samples (rb_ksample.lost) and is
 * sampled again at a longer period by the caller */
#define RING_PAGES 2048u
#define MAX_STACK 64u

struct rb_ksampler {
	struct rb_ksyms k;
	uint64_t period_ns;
	int fd;
	void *map;
	size_t map_len, page;
};

int rb_ksyms_read(struct rb_ksyms *k, const char *path, struct rb_err *err)
{
	const char *p = path ? path : "/proc/kallsyms";
	FILE *f = fopen(p, "r");
	if (!f)
		return rb_errf(err, "%s: %s", p, strerror(errno));
	memset(k, 0, sizeof(*k));
	/* a function's end: the lowest symbol address above its start */
	uint64_t *lo[2] = {&k->check_lo, &k->explore_lo}, *hi[2] = {&k->check_hi, &k->explore_hi};
	const char *names[2] = {"bpf_check", "do_check_common"};
	uint64_t addr[2] = {0, 0};
	char line[512];
	/* two passes: the starts, then the nearest symbol above each */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || (type != 't' && type != 'T'))
			continue;
		for (int i = 0; i < 2; i++)
			if (!strcmp(name, names[i]) && !addr[i])
				addr[i] = a;
	}
	for (int i = 0; i < 2; i++)
		if (!addr[i]) {
			fclose(f);
			return rb_errf(err, "%s: no %s with an address (hidden addresses or another kernel)", p,
				       names[i]);
		}
	rewind(f);
	uint64_t next[2] = {UINT64_MAX, UINT64_MAX};
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		if (sscanf(line, "%llx", &a) != 1)
			continue;
		for (int i = 0; i < 2; i++)
			if (a > addr[i] && a < next[i])
				next[i] = a;
	}
	fclose(f);
	for (int i = 0; i < 2; i++) {
		if (next[i] == UINT64_MAX || next[i] - addr[i] > (1u << 20))
			return rb_errf(err, "%s: no end for %s", p, names[i]);
		*lo[i] = addr[i];
		*hi[i] = next[i];
	}
	return 0;
}

struct rb_ksampler *rb_ksampler_new(const struct rb_ksyms *k, uint64_t period_ns, struct rb_err *err)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK; /* the thread's CPU time */
	a.sample_period = period_ns ? period_ns : RB_KSAMPLE_PERIOD_NS;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	a.disabled = 1;
	a.exclude_user = 1;
	a.exclude_hv = 1;
	a.exclude_callchain_user = 1;
	a.sample_max_stack = MAX_STACK;
	int fd = (int)syscall(__NR_perf_event_open, &a, 0 /* this thread */, -1, -1, 0);
	if (fd < 0) {
		rb_errf(err, "perf_event_open: %s", strerror(errno));
		return NULL;
	}
	struct rb_ksampler *s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		rb_errf(err, "out of memory");
		return NULL;
	}
	s->k = *k;
	s->period_ns = a.sample_period;
	s->fd = fd;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->map_len = (RING_PAGES + 1) * s->page;
	s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->map == MAP_FAILED) {
		rb_errf(err, "perf ring buffer: %s", strerror(errno));
		s->map = NULL;
		rb_ksampler_free(s);
		return NULL;
	}
	return s;
}

void rb_ksampler_free(struct rb_ksampler *s)
{
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->map_len);
	close(s->fd);
	free(s);
}

void rb_ksampler_start(struct rb_ksampler *s)
{
	ioctl(s->fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

static bool in(uint64_t ip, uint64_t lo, uint64_t hi) { return ip >= lo && ip < hi; }

/* n bytes at ring offset off (wrapping) */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t off, void *dst, size_t n)
{
	uint64_t o = off % size;
	size_t first = n < size - o ? n : (size_t)(size - o);
	memcpy(dst, data + o, first);
	memcpy((unsigned char *)dst + first, data, n - first);
}

void rb_ksampler_stop(struct rb_ksampler *s, struct rb_ksample *out)
{
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
	memset(out, 0, sizeof(*out));
	struct perf_event_mmap_page *mp = s->map;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	const unsigned char *data = (const unsigned char *)s->map + s->page;
	uint64_t size = (uint64_t)RING_PAGES * s->page;
	uint64_t rec[3 + MAX_STACK + 8];
	while (tail < head) {
		struct perf_event_header h;
		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t idlost[2];
			ring_copy(data, size, tail + sizeof(h), idlost, sizeof(idlost));
			out->lost += idlost[1];
		} else if (h.type == PERF_RECORD_SAMPLE) {
			size_t n = h.size - sizeof(h);
			if (n > sizeof(rec))
				n = sizeof(rec);
			ring_copy(data, size, tail + sizeof(h), rec, n);
			size_t words = n / 8;
			out->samples++;
			/* ip, time, nr, ips[nr] */
			if (words >= 3) {
				uint64_t nr = rec[2];
				bool ex = false, ck = false;
				for (uint64_t i = 0; i < nr && 3 + i < words; i++) {
					uint64_t ip = rec[3 + i];
					if (ip >= (uint64_t)PERF_CONTEXT_MAX)
						continue; /* a context marker */
					ex |= in(ip, s->k.explore_lo, s->k.explore_hi);
					ck |= in(ip, s->k.check_lo, s->k.check_hi);
				}
				out->explore += ex;
				out->check += ck || ex;
			}
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}
