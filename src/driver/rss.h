/* rss.h — the process's peak resident set size around one verification
 * (the driver's children verify one program at a time). */
#ifndef RB_DRIVER_RSS_H
#define RB_DRIVER_RSS_H

#include <stdbool.h>
#include <stdint.h>

/* /proc/self/clear_refs and /proc/self/status, opened once and then used
 * with single syscalls: a stdio stream per call (fopen's buffer, the
 * allocator, the kernel's work) measurably slowed the small verifications
 * that followed it */
struct rb_rss {
	int clear_fd, status_fd; /* -1: not open (yet) */
};

#define RB_RSS_INIT {-1, -1}

/* reset the peak (Linux: "5" into /proc/self/clear_refs resets VmHWM to
 * the current RSS, which holds the process's base: the object, vmlinux
 * BTF once parsed, heap glibc kept from earlier verifications); false if
 * it cannot be reset, so no per-verification peak can be measured */
bool rb_rss_reset_peak(struct rb_rss *r);
/* VmHWM of /proc/self/status in KiB (0 if unknown) */
uint64_t rb_rss_peak_kib(struct rb_rss *r);
void rb_rss_close(struct rb_rss *r);
/* after a verification whose peak was at least RB_RSS_TRIM_KIB: give the
 * freed heap back (malloc_trim), so that the next verification in this
 * process (often the same program with the next tracker) does not count
 * it in its own peak. Only then: trimming before every verification
 * made the small ones fault their memory in again, inside their timed
 * part (geometric-mean time of the default corpus up by a third). */
#define RB_RSS_TRIM_KIB (64u << 10)
void rb_rss_after(uint64_t peak_kib);

#endif
