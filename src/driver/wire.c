/* wire.c — length-prefixed messages to and from child processes (see wire.h). */
#include "driver/wire.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void put(struct rb_wbuf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n > b->cap) {
		size_t nc = b->cap ? b->cap : 256;
		while (nc < b->n + n)
			nc *= 2;
		char *q = realloc(b->p, nc);
		if (!q) {
			b->oom = true;
			return;
		}
		b->p = q;
		b->cap = nc;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void rb_wput_u32(struct rb_wbuf *b, uint32_t v) { put(b, &v, sizeof(v)); }
void rb_wput_u64(struct rb_wbuf *b, uint64_t v) { put(b, &v, sizeof(v)); }
void rb_wput_bytes(struct rb_wbuf *b, const void *p, size_t n) { put(b, p, n); }

void rb_wput_str(struct rb_wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > RB_WIRE_MAX) {
		b->oom = true;
		return;
	}
	rb_wput_u32(b, (uint32_t)n);
	put(b, s ? s : "", n);
	put(b, "", 1);
}

void rb_wbuf_free(struct rb_wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int rb_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t rb_read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int rb_wire_send(int fd, const struct rb_wbuf *b)
{
	if (b->oom || b->n > RB_WIRE_MAX) {
		errno = ENOMEM;
		return -1;
	}
	/* SIGPIPE blocked in this thread for the write; one it raised is
	 * consumed before the mask is restored (unless one was pending already) */
	sigset_t pipe_set, old, pending;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	bool was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	uint32_t len = (uint32_t)b->n;
	int rc = rb_write_all(fd, &len, sizeof(len));
	if (rc == 0)
		rc = rb_write_all(fd, b->p, b->n);
	int saved = errno;
	if (rc < 0 && saved == EPIPE && !was_pending) {
		struct timespec zero = {0, 0};
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return rc;
}

int rb_wire_recv(int fd, struct rb_wbuf *b)
{
	uint32_t len;
	b->n = 0;
	b->oom = false;
	ssize_t r = rb_read_all(fd, &len, sizeof(len));
	if (r == 0)
		return 0;
	if (r != (ssize_t)sizeof(len) || len > RB_WIRE_MAX)
		return -1;
	if (len > b->cap) {
		char *q = realloc(b->p, len);
		if (!q)
			return -1;
		b->p = q;
		b->cap = len;
	}
	if (len && rb_read_all(fd, b->p, len) != (ssize_t)len)
		return -1;
	b->n = len;
	return 1;
}

static bool take(struct rb_wcur *c, void *out, size_t n)
{
	if (c->bad || c->n - c->off < n) {
		c->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, c->p + c->off, n);
	c->off += n;
	return true;
}

uint32_t rb_wget_u32(struct rb_wcur *c)
{
	uint32_t v;
	take(c, &v, sizeof(v));
	return v;
}

uint64_t rb_wget_u64(struct rb_wcur *c)
{
	uint64_t v;
	take(c, &v, sizeof(v));
	return v;
}

void rb_wget_bytes(struct rb_wcur *c, void *out, size_t n) { take(c, out, n); }

const char *rb_wget_str(struct rb_wcur *c)
{
	uint32_t n = rb_wget_u32(c);
	if (c->bad || c->n - c->off < (size_t)n + 1 || c->p[c->off + n] != 0) {
		c->bad = true;
		return "";
	}
	const char *s = c->p + c->off;
	c->off += (size_t)n + 1;
	return s;
}
