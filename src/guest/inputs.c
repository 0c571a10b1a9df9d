/* inputs.c — decoding what a guest sends as base64 of gzip (see inputs.h). */
#include "guest/inputs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int rb_guest_inflate_b64(const char *b64, size_t len, char **out, size_t *outlen)
{
	*out = NULL;
	*outlen = 0;
	unsigned char *raw = malloc(len / 4 * 3 + 4);
	if (!raw)
		return -1;
	size_t n = 0;
	unsigned acc = 0, bits = 0;
	for (size_t i = 0; i < len; i++) {
		int v = b64val((unsigned char)b64[i]);
		if (v < 0)
			continue; /* newlines, tabs, '=' padding */
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			raw[n++] = (unsigned char)(acc >> bits);
		}
	}
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(raw);
		return -1;
	}
	z.next_in = raw;
	z.avail_in = (uInt)n;
	size_t cap = n * 4 + 4096, got = 0;
	char *buf = malloc(cap + 1);
	int rc = Z_OK;
	while (buf && rc == Z_OK) {
		if (got == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		z.next_out = (unsigned char *)buf + got;
		z.avail_out = (uInt)(cap - got);
		rc = inflate(&z, Z_NO_FLUSH);
		got = cap - z.avail_out;
		if (rc == Z_BUF_ERROR && z.avail_in == 0)
			break;
	}
	inflateEnd(&z);
	free(raw);
	if (rc != Z_STREAM_END || !buf) {
		free(buf);
		return -1;
	}
	buf[got] = 0;
	*out = buf;
	*outlen = got;
	return 0;
}

int rb_guest_inputs_write(const char *path, const char *b64, size_t len, struct rb_err *err)
{
	char *data;
	size_t n;
	if (rb_guest_inflate_b64(b64, len, &data, &n) < 0)
		return rb_errf(err, "%s: the guest's copy is damaged (truncated or not gzip)", path);
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	bool bad = !f || fwrite(data, 1, n, f) != n;
	if (f && fclose(f) != 0)
		bad = true;
	free(data);
	if (bad || rename(tmp, path) != 0) {
		remove(tmp);
		return rb_errf(err, "%s: cannot write: %s", path, strerror(errno));
	}
	return 0;
}
