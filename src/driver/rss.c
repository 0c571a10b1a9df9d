/* rss.c — peak RSS per verification (see rss.h). */
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/rss.h"

static int proc_fd(int *fd, const char *path, int flags)
{
	if (*fd == -1)
		*fd = open(path, flags | O_CLOEXEC);
	return *fd;
}

bool rb_rss_reset_peak(struct rb_rss *r)
{
	/* no malloc_trim() first (see rb_rss_after) */
	int fd = proc_fd(&r->clear_fd, "/proc/self/clear_refs", O_WRONLY);
	return fd >= 0 && pwrite(fd, "5", 1, 0) == 1;
}

uint64_t rb_rss_peak_kib(struct rb_rss *r)
{
	int fd = proc_fd(&r->status_fd, "/proc/self/status", O_RDONLY);
	char buf[4096];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = strstr(buf, "\nVmHWM:");
	return p ? strtoull(p + 7, NULL, 10) : 0;
}

void rb_rss_after(uint64_t peak_kib)
{
	if (peak_kib >= RB_RSS_TRIM_KIB)
		malloc_trim(0);
}

void rb_rss_close(struct rb_rss *r)
{
	if (r->clear_fd >= 0)
		close(r->clear_fd);
	if (r->status_fd >= 0)
		close(r->status_fd);
	r->clear_fd = r->status_fd = -1;
}
