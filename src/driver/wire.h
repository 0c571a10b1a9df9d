/* wire.h — length-prefixed messages between the driver and its child
 * processes (the scan child, scan.c; the verifier children, child.c).
 *
 * A frame is a 4-byte length (host order: both ends are this executable)
 * and that many bytes of payload; a payload is a sequence of fixed-width
 * integers and strings, each string its 4-byte length and its bytes
 * (plus a NUL, so that a reader can point into the frame). Nothing has a
 * fixed bound but the frame's (RB_WIRE_MAX): names, sections and program
 * lists of any length cross whole.
 *
 * Writes never raise SIGPIPE: a write to a child that died returns an
 * error instead (the signal is blocked around it and a pending one
 * consumed), whatever the caller's signal disposition. */
#ifndef RB_DRIVER_WIRE_H
#define RB_DRIVER_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* the largest frame a reader accepts */
#define RB_WIRE_MAX ((size_t)256 << 20)

/* a frame being built; oom set when a put could not grow it */
struct rb_wbuf {
	char *p;
	size_t n, cap;
	bool oom;
};

void rb_wput_u32(struct rb_wbuf *b, uint32_t v);
void rb_wput_u64(struct rb_wbuf *b, uint64_t v);
void rb_wput_str(struct rb_wbuf *b, const char *s);
void rb_wput_bytes(struct rb_wbuf *b, const void *p, size_t n);
void rb_wbuf_free(struct rb_wbuf *b);

/* write b as one frame to fd; 0, or -1 (errno set; ENOMEM when b->oom) */
int rb_wire_send(int fd, const struct rb_wbuf *b);
/* read one frame into b (replacing its contents): 1 read, 0 end of file
 * before a frame, -1 error, a short frame or one over RB_WIRE_MAX */
int rb_wire_recv(int fd, struct rb_wbuf *b);

/* reading a received frame; bad set at the first field that is missing
 * or malformed, after which every get returns 0 / "" */
struct rb_wcur {
	const char *p;
	size_t n, off;
	bool bad;
};

static inline struct rb_wcur rb_wcur_of(const struct rb_wbuf *b)
{
	return (struct rb_wcur){.p = b->p, .n = b->n};
}
uint32_t rb_wget_u32(struct rb_wcur *c);
uint64_t rb_wget_u64(struct rb_wcur *c);
/* a NUL-terminated string inside the frame (valid while the frame is) */
const char *rb_wget_str(struct rb_wcur *c);
/* n bytes copied out */
void rb_wget_bytes(struct rb_wcur *c, void *out, size_t n);

/* write/read exactly n bytes, retrying on EINTR: read_all returns the
 * bytes read (fewer at end of file) or -1 */
int rb_write_all(int fd, const void *buf, size_t n);
ssize_t rb_read_all(int fd, void *buf, size_t n);

#endif
