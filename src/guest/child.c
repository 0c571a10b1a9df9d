/* child.c — verifying one object inside the guest (see child.h). */
#include "guest/child.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "engine/vmlinux.h"
#include "guest/rowtext.h"
#include "kernels/kernels.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "verify/verify.h"

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* the log of one program, gzip-compressed (verifier logs shrink about
 * twentyfold: the serial port under TCG carries some 70 KB/s), as RBZ
 * lines of base64 */
static void put_log(unsigned idx, const char *name, const char *log, size_t len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	size_t cap = deflateBound(&z, (uLong)len) + 64;
	unsigned char *gz = malloc(cap);
	if (!gz) {
		deflateEnd(&z);
		return;
	}
	z.next_in = (unsigned char *)(uintptr_t)log;
	z.avail_in = (uInt)len;
	z.next_out = gz;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t n = cap - z.avail_out;
	deflateEnd(&z);
	for (size_t i = 0; rc == Z_STREAM_END && i < n; i += 57) {
		printf("RBZ\t%u\t", idx);
		rb_rowtext_put_escaped(stdout, name);
		putchar('\t');
		for (size_t j = i; j < i + 57 && j < n; j += 3) {
			unsigned v = (unsigned)gz[j] << 16 | (j + 1 < n ? (unsigned)gz[j + 1] << 8 : 0) |
				     (j + 2 < n ? gz[j + 2] : 0);
			putchar(b64chars[v >> 18 & 63]);
			putchar(b64chars[v >> 12 & 63]);
			putchar(j + 1 < n ? b64chars[v >> 6 & 63] : '=');
			putchar(j + 2 < n ? b64chars[v & 63] : '=');
		}
		putchar('\n');
	}
	free(gz);
}

int rb_guest_child_main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: rangebench guest-verify IDX OBJ [--prog-type T] [--prog NAME] [--log]\n");
		return 2;
	}
	unsigned idx = (unsigned)strtoul(argv[1], NULL, 10);
	const char *path = argv[2], *want = NULL;
	bool want_log = false;
	struct rb_load_opts lo = {0};
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--prog-type") && i + 1 < argc)
			lo.prog_type = argv[++i];
		else if (!strcmp(argv[i], "--prog") && i + 1 < argc)
			want = argv[++i];
		else if (!strcmp(argv[i], "--log"))
			want_log = true;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("RBO\t%u\tbegin\n", idx);
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	if (rb_object_open(path, &lo, &obj, &err) < 0) {
		printf("RBE\t%u\t", idx);
		rb_rowtext_put_escaped(stdout, err.msg);
		printf("\nRBO\t%u\tend\n", idx);
		return 0;
	}
	struct rb_vmlinux *vm = rb_vmlinux_new();
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, true);
	for (size_t p = 0; p < obj->prog_cnt; p++) {
		const struct rb_prog *pr = &obj->progs[p];
		if (want && strcmp(pr->name, want))
			continue;
		char *logbuf = NULL;
		size_t loglen = 0;
		FILE *logf = want_log ? open_memstream(&logbuf, &loglen) : NULL;
		struct rb_verify_opts vo = {
			.tracker = RB_KERNEL_RUNNING, .log = logf, .vmlinux = vm, .helpers = &hp.src};
		struct rb_result res;
		memset(&res, 0, sizeof(res));
		res.err_insn = -1;
		if (rb_verify(obj, p, &vo, &res, &err) < 0) {
			memset(&res, 0, sizeof(res));
			res.verdict = RB_LOAD_ERROR;
			res.err_insn = -1;
			snprintf(res.msg, sizeof(res.msg), "%.255s", err.msg);
		}
		if (logf) {
			fclose(logf);
			put_log(idx, pr->name, logbuf ? logbuf : "", loglen);
			free(logbuf);
		}
		rb_rowtext_put_row(stdout, idx, obj->sha256, pr->section, pr->name, pr->prog_type,
				   (unsigned long long)pr->insn_cnt, &res);
	}
	printf("RBO\t%u\tend\n", idx);
	rb_vmlinux_free(vm);
	rb_object_free(obj);
	return 0;
}
