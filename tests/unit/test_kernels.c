/* test_kernels.c — the kernel rows of the registry (src/kernels/): the
 * kernels.conf format, its errors, the names beside the engine's trackers;
 * the guest's result lines (src/guest/rowtext.h) read back as rows; and
 * the bzImage payload and PVH note the guest boots by (src/guest/pvh.h);
 * the hashes the runner remembers by file identity (src/guest/memo.h);
 * the initramfs's cpio entries (src/guest/cpio.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "guest/cpio.h"
#include "guest/memo.h"
#include "guest/pvh.h"
#include "guest/rowtext.h"
#include "kernels/conf_default.h"
#include "kernels/kernels.h"
#include "tracker/tracker.h"
#include "util/array_size.h"
#include "util/file.h"

static void test_parse_lines(void **state)
{
	(void)state;
	struct rb_kernel k[4];
	size_t n = 9;
	struct rb_err e = {{0}};
	const char *conf = "# comment\n\n"
			   "kernel-7.2  debian:sid/linux-image-7.2.13+deb14-cloud-amd64  qemu 2G  # trailing\n"
			   "mine\t/home/me/linux/arch/x86/boot/bzImage\tqemu\t1536M\n";
	assert_int_equal(rb_kernels_parse(conf, "t.conf", k, 4, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_string_equal(k[0].name, "kernel-7.2");
	assert_string_equal(k[0].suite, "sid");
	assert_string_equal(k[0].package, "linux-image-7.2.13+deb14-cloud-amd64");
	assert_int_equal(k[0].backend, RB_KBACK_QEMU);
	assert_int_equal(k[0].mem_mib, 2048);
	assert_string_equal(k[0].where, "t.conf:3");
	assert_string_equal(k[1].name, "mine");
	assert_string_equal(k[1].package, "");
	assert_string_equal(k[1].image, "/home/me/linux/arch/x86/boot/bzImage");
	assert_int_equal(k[1].mem_mib, 1536);
}

static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *conf, *want;
	} bad[] = {
		{"a debian:sid/x qemu\n", "t.conf:1: 3 fields"},
		{"kernel debian:sid/x qemu 1G\n", "running kernel's name"},
		{"a-name-far-too-long debian:sid/x qemu 1G\n", "bad name"},
		{"a debian:sid qemu 1G\n", "bad image"},
		{"a relative/bzImage qemu 1G\n", "bad image"},
		{"a debian:sid/x uml 1G\n", "backend 'uml'"},
		{"a debian:sid/x qemu 12\n", "bad memory"},
		{"a debian:sid/x qemu 1G\n\na debian:sid/y qemu 1G\n", "t.conf:3: 'a' defined twice (first at t.conf:1)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct rb_kernel k[4];
		size_t n;
		struct rb_err e = {{0}};
		assert_int_equal(rb_kernels_parse(bad[i].conf, "t.conf", k, 4, &n, &e), -1);
		if (!strstr(e.msg, bad[i].want))
			fail_msg("'%s': got '%s', want '%s'", bad[i].conf, e.msg, bad[i].want);
	}
}

/* the project's own kernels.conf: valid, and no kernel named like an
 * engine tracker */
static void test_embedded_conf(void **state)
{
	(void)state;
	struct rb_kernel k[RB_KERNELS_MAX];
	size_t n;
	struct rb_err e = {{0}};
	assert_int_equal(rb_kernels_parse(rb_kernels_conf_embedded, "kernels.conf", k, RB_KERNELS_MAX, &n, &e), 0);
	assert_true(n >= 1);
	bool has72 = false;
	for (size_t i = 0; i < n; i++) {
		assert_null(rb_tracker_get(k[i].name, 64));
		has72 |= !strcmp(k[i].name, "kernel-7.2");
	}
	assert_true(has72);
	assert_true(rb_kernel_is_running(RB_KERNEL_RUNNING));
	assert_true(rb_tracker_known(RB_KERNEL_RUNNING, true));
	assert_false(rb_tracker_known(RB_KERNEL_RUNNING, false));
}

static void test_rowtext_round_trip(void **state)
{
	(void)state;
	struct rb_result r;
	memset(&r, 0, sizeof(r));
	r.verdict = RB_REJECT;
	r.err_insn = 12;
	r.sys_errno = 13;
	r.insns_processed = 96552;
	r.total_states = 6462;
	r.peak_states = 367;
	r.max_states_per_insn = 13;
	r.verify_us = 1248415.5;
	r.reg_state_bytes = 88;
	r.state_bytes = 1264;
	snprintf(r.msg, sizeof(r.msg), "R1\tinvalid\nmem access 'scalar' \\ done");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char sha[65];
	memset(sha, 'a', 64);
	sha[64] = 0;
	rb_rowtext_put_row(f, 7, sha, "xdp/prog", "name\twith tab", 6, 1234, &r);
	fclose(f);
	assert_int_equal(buf[len - 1], '\n');
	assert_null(memchr(buf, '\n', len - 1));
	buf[len - 1] = 0;
	struct rb_result_row row;
	unsigned idx = 0;
	assert_int_equal(rb_rowtext_parse_row(buf, &idx, &row), 0);
	assert_int_equal(idx, 7);
	assert_string_equal(row.prog.obj_sha256, sha);
	assert_string_equal(row.prog.section, "xdp/prog");
	assert_string_equal(row.prog.name, "name\twith tab");
	assert_int_equal(row.prog.prog_type, 6);
	assert_int_equal(row.prog.insn_cnt, 1234);
	assert_int_equal(row.res.verdict, RB_REJECT);
	assert_int_equal(row.res.err_insn, 12);
	assert_int_equal(row.res.sys_errno, 13);
	assert_int_equal(row.res.insns_processed, 96552);
	assert_int_equal(row.res.total_states, 6462);
	assert_int_equal(row.res.reg_state_bytes, 88);
	assert_int_equal(row.res.state_bytes, 1264);
	assert_true(row.res.verify_us == 1248415.5);
	assert_string_equal(row.res.msg, r.msg);
	free(buf);
	/* cut short (the guest died mid-line) or with a bad field: refused */
	char cut[] = "RBR\t7\tabc\tsec\tname\t6";
	assert_int_equal(rb_rowtext_parse_row(cut, &idx, &row), -1);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* a bzImage header (boot protocol 2.15, one setup sector) whose payload
 * (at 0x400 + 0x40, 24 bytes) is a zstd frame and its 32-bit size */
static void bzimage(uint8_t *img, size_t len)
{
	memset(img, 0, len);
	img[0x1f1] = 1;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;
	img[0x207] = 0x02;
	put32(img + 0x248, 0x40);
	put32(img + 0x24c, 24);
	static const uint8_t zstd[4] = {0x28, 0xb5, 0x2f, 0xfd};
	memcpy(img + 0x440, zstd, 4);
	put32(img + 0x440 + 20, 62093508);
}

static void test_pvh_payload(void **state)
{
	(void)state;
	uint8_t img[0x800];
	size_t off = 0, plen = 0;
	uint32_t size = 0;
	bzimage(img, sizeof(img));
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), 0);
	assert_int_equal(off, 0x440);
	assert_int_equal(plen, 20);
	assert_int_equal(size, 62093508);
	/* setup_sects 0 means 4: the payload would be at 0xa00 + 0x40, past the end */
	img[0x1f1] = 0;
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), -1);
	/* not a bzImage, too old a protocol, a payload past the end, gzip */
	bzimage(img, sizeof(img));
	img[0x202] = 'X';
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), -1);
	bzimage(img, sizeof(img));
	img[0x206] = 0x07;
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), -1);
	bzimage(img, sizeof(img));
	put32(img + 0x24c, 0x800);
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), -1);
	bzimage(img, sizeof(img));
	img[0x440] = 0x1f;
	img[0x441] = 0x8b;
	assert_int_equal(rb_pvh_payload(img, sizeof(img), &off, &plen, &size), -1);
	assert_int_equal(rb_pvh_payload(img, 0x240, &off, &plen, &size), -1);
}

/* an ELF64 x86-64 header, one PT_NOTE program header at 64, and at 0x100
 * two notes: GNU/3 (a build id) then Xen/TYPE */
static void elf(uint8_t *e, size_t len, uint32_t type)
{
	memset(e, 0, len);
	memcpy(e, "\177ELF", 4);
	e[4] = 2;
	e[5] = 1;
	e[18] = 62;
	e[32] = 64;  /* e_phoff */
	e[54] = 56;  /* e_phentsize */
	e[56] = 1;   /* e_phnum */
	put32(e + 64, 4);           /* PT_NOTE */
	put32(e + 64 + 8, 0x100);   /* p_offset */
	put32(e + 64 + 32, 16 + 8 + 16 + 8); /* p_filesz */
	uint8_t *n = e + 0x100;
	put32(n, 4);
	put32(n + 4, 8);
	put32(n + 8, 3);
	memcpy(n + 12, "GNU", 4);
	n += 24;
	put32(n, 4);
	put32(n + 4, 4);
	put32(n + 8, type);
	memcpy(n + 12, "Xen", 4);
}

static void test_pvh_note(void **state)
{
	(void)state;
	uint8_t e[0x200];
	elf(e, sizeof(e), 18);
	assert_true(rb_pvh_has_entry(e, sizeof(e)));
	/* another Xen note only, another name, another machine, a note
	 * segment past the end, a truncated file */
	elf(e, sizeof(e), 17);
	assert_false(rb_pvh_has_entry(e, sizeof(e)));
	elf(e, sizeof(e), 18);
	e[0x100 + 24 + 14] = 'm';
	assert_false(rb_pvh_has_entry(e, sizeof(e)));
	elf(e, sizeof(e), 18);
	e[18] = 3;
	assert_false(rb_pvh_has_entry(e, sizeof(e)));
	elf(e, sizeof(e), 18);
	put32(e + 64 + 32, 0x200);
	assert_false(rb_pvh_has_entry(e, sizeof(e)));
	elf(e, sizeof(e), 18);
	assert_false(rb_pvh_has_entry(e, 0x100 + 30));
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_hash_memo(void **state)
{
	(void)state;
	char dir[] = "/tmp/rb-test-memo-XXXXXX", a[64], b[64], memo[64], hex[65];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(memo, sizeof(memo), "%s/sha256-memo", dir);
	const char *ha = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	const char *hb = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	write_text(a, "one");
	write_text(b, "two");
	struct stat sa, sb;
	assert_int_equal(stat(a, &sa), 0);
	assert_int_equal(stat(b, &sb), 0);
	assert_false(rb_gst_memo_get(dir, a, hex));
	rb_gst_memo_put(dir, a, &sa, ha);
	rb_gst_memo_put(dir, b, &sb, hb);
	assert_true(rb_gst_memo_get(dir, a, hex));
	assert_string_equal(hex, ha);
	assert_true(rb_gst_memo_get(dir, b, hex));
	assert_string_equal(hex, hb);
	/* written since (same size): its ctime moved, hashed again */
	usleep(10 * 1000);
	write_text(a, "uno");
	assert_false(rb_gst_memo_get(dir, a, hex));
	/* read while it changed: not recorded */
	rb_gst_memo_put(dir, a, &sa, ha);
	assert_false(rb_gst_memo_get(dir, a, hex));
	/* another file at the path */
	assert_int_equal(rename(b, a), 0);
	assert_false(rb_gst_memo_get(dir, a, hex));
	assert_false(rb_gst_memo_get(dir, b, hex));
	unlink(a);
	unlink(memo);
	assert_int_equal(rmdir(dir), 0);
}

/* a host file's entry (copied by the kernel, rb_cpio_file) is byte for
 * byte the entry of the same bytes from memory (rb_cpio_data): the
 * 110-byte header, the name and the data, each 4-aligned; here 200,001
 * bytes, over the writer's 64 KiB buffer and of an odd length */
static void test_cpio_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/rb-test-cpio-XXXXXX", f[64], a[64], b[64];
	assert_non_null(mkdtemp(dir));
	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(a, sizeof(a), "%s/a.cpio", dir);
	snprintf(b, sizeof(b), "%s/b.cpio", dir);
	size_t n = 200001;
	uint8_t *data = malloc(n);
	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (uint8_t)(i * 7 + i / 251);
	FILE *w = fopen(f, "wb");
	assert_non_null(w);
	assert_int_equal(fwrite(data, 1, n, w), n);
	assert_int_equal(fclose(w), 0);
	struct rb_err err = {0};
	struct rb_cpio c;
	assert_int_equal(rb_cpio_open(&c, a, &err), 0);
	assert_int_equal(rb_cpio_dir(&c, "o"), 0);
	assert_int_equal(rb_cpio_file(&c, "o/f", f, 0644, &err), 0);
	assert_int_equal(rb_cpio_data(&c, "o/list", 0644, "0 /o/f\n", 7), 0);
	assert_int_equal(rb_cpio_close(&c, &err), 0);
	assert_int_equal(rb_cpio_open(&c, b, &err), 0);
	assert_int_equal(rb_cpio_dir(&c, "o"), 0);
	assert_int_equal(rb_cpio_data(&c, "o/f", 0644, data, n), 0);
	assert_int_equal(rb_cpio_data(&c, "o/list", 0644, "0 /o/f\n", 7), 0);
	assert_int_equal(rb_cpio_close(&c, &err), 0);
	uint8_t *ba, *bb;
	size_t la, lb;
	assert_int_equal(rb_read_file(a, 1 << 20, &ba, &la, &err), 0);
	assert_int_equal(rb_read_file(b, 1 << 20, &bb, &lb, &err), 0);
	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	/* "o" (110 + 2 bytes), then o/f's header (c_filesize at 54: 200,001),
	 * its name (110 + 4, padded to 116), its data */
	assert_memory_equal(ba, "070701", 6);
	assert_memory_equal(ba + 112, "070701", 6);
	assert_memory_equal(ba + 112 + 54, "00030D41", 8);
	assert_memory_equal(ba + 228, data, n);
	assert_int_equal(la % 4, 0);
	free(ba);
	free(bb);
	/* a file that is not there: an error naming it */
	assert_int_equal(rb_cpio_open(&c, a, &err), 0);
	assert_int_equal(rb_cpio_file(&c, "o/g", "/nonexistent/g", 0644, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/g: cannot open"));
	rb_cpio_close(&c, NULL);
	free(data);
	unlink(f);
	unlink(a);
	unlink(b);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lines),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_embedded_conf),
		cmocka_unit_test(test_rowtext_round_trip),
		cmocka_unit_test(test_pvh_payload),
		cmocka_unit_test(test_pvh_note),
		cmocka_unit_test(test_hash_memo),
		cmocka_unit_test(test_cpio_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
