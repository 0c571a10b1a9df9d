/* test_extract.c — the embedded BPF object scanner (src/corpus/embedded.c)
 * on synthetic buffers: well-formed objects at various offsets, look-alikes
 * that must be ignored, and malformed candidates that must be reported,
 * never read out of bounds (the test build runs under ASan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus/embedded.h"

static void w16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void w32(uint8_t *p, uint32_t v)
{
	w16(p, (uint16_t)v);
	w16(p + 2, (uint16_t)(v >> 16));
}
static void w64(uint8_t *p, uint64_t v)
{
	w32(p, (uint32_t)v);
	w32(p + 4, (uint32_t)(v >> 32));
}

/* Layout of the synthetic object built by mk_obj():
 *   0   ELF header (64)
 *   64  .shstrtab contents (32 bytes)
 *   96  "prog" section contents (16 bytes: two BPF insns)
 *   112 section headers: [0] NULL, [1] .shstrtab, [2] prog, [3] .bss (NOBITS, huge)
 *   368 end (+ trailing section, see tail_sec)
 * With tail_sec, a 4th PROGBITS section's contents sit after the section
 * header table, so the object's end is that section's end, not the table's. */
enum { OBJ_SHOFF = 112, OBJ_SHNUM = 4 };

static size_t mk_obj(uint8_t *b, int tail_sec)
{
	size_t shnum = OBJ_SHNUM + (tail_sec ? 1 : 0);
	size_t end = OBJ_SHOFF + shnum * 64;
	memset(b, 0, end + (tail_sec ? 40 : 0));
	memcpy(b, "\x7f" "ELF", 4);
	b[4] = 2; /* 64-bit */
	b[5] = 1; /* little-endian */
	b[6] = 1; /* EV_CURRENT */
	w16(b + 16, 1); /* ET_REL */
	w16(b + 18, RB_EM_BPF);
	w32(b + 20, 1);
	w64(b + 40, OBJ_SHOFF);
	w16(b + 52, 64);
	w16(b + 58, 64);
	w16(b + 60, (uint16_t)shnum);
	w16(b + 62, 1);
	memcpy(b + 64, "\0.shstrtab\0prog\0.bss\0tail\0", 26);
	b[96] = 0xb7; /* r0 = 0 */
	b[104] = 0x95; /* exit */
	uint8_t *sh = b + OBJ_SHOFF;
	/* [1] .shstrtab */
	w32(sh + 64 + 0, 1);
	w32(sh + 64 + 4, 3);
	w64(sh + 64 + 24, 64);
	w64(sh + 64 + 32, 32);
	/* [2] prog */
	w32(sh + 128 + 0, 11);
	w32(sh + 128 + 4, 1);
	w64(sh + 128 + 8, 6); /* SHF_ALLOC|SHF_EXECINSTR */
	w64(sh + 128 + 24, 96);
	w64(sh + 128 + 32, 16);
	/* [3] .bss: NOBITS with an absurd size and offset: must not count */
	w32(sh + 192 + 0, 16);
	w32(sh + 192 + 4, 8);
	w64(sh + 192 + 24, 0xffffffffff000000ull);
	w64(sh + 192 + 32, 0x7fffffffffffffffull);
	if (tail_sec) {
		w32(sh + 256 + 0, 21);
		w32(sh + 256 + 4, 1);
		w64(sh + 256 + 24, end);
		w64(sh + 256 + 32, 40);
		end += 40;
	}
	return end;
}

static void scan(const uint8_t *b, size_t n, struct rb_embedded_list *l)
{
	struct rb_err err = {{0}};
	assert_int_equal(rb_embedded_scan(b, n, "test", l, &err), 0);
}

static void test_plain_object(void **state)
{
	(void)state;
	uint8_t b[1024];
	size_t n = mk_obj(b, 0);
	assert_int_equal(n, OBJ_SHOFF + OBJ_SHNUM * 64);
	struct rb_embedded_list l;
	scan(b, n, &l);
	assert_int_equal(l.cnt, 1);
	assert_int_equal(l.bad_cnt, 0);
	assert_int_equal(l.objs[0].offset, 0);
	assert_int_equal(l.objs[0].size, n);
	rb_embedded_list_free(&l);
}

static void test_size_includes_section_after_table(void **state)
{
	(void)state;
	uint8_t b[1024];
	size_t n = mk_obj(b, 1);
	struct rb_embedded_list l;
	scan(b, n + 100, &l); /* trailing garbage (zeros) after the object */
	assert_int_equal(l.cnt, 1);
	assert_int_equal(l.objs[0].size, n);
	assert_int_equal(n, OBJ_SHOFF + 5 * 64 + 40);
	rb_embedded_list_free(&l);
}

/* Two objects embedded in an "executable" among look-alike headers that
 * must be ignored: 32-bit class, big-endian, another e_machine. */
static void test_embedded_among_lookalikes(void **state)
{
	(void)state;
	uint8_t obj[1024];
	size_t on = mk_obj(obj, 1);
	size_t n = 8192;
	uint8_t *b = calloc(1, n);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 7 + 3);
	memcpy(b, "\x7f" "ELF\x02\x01\x01", 7); /* the host executable: x86-64 */
	w16(b + 18, 62);
	memcpy(b + 1000, obj, on);
	memcpy(b + 1000 + on, obj, on); /* adjacent second copy */
	uint8_t *la = b + 3000;
	memcpy(la, obj, 64);
	la[4] = 1; /* ELFCLASS32 */
	la = b + 3100;
	memcpy(la, obj, 64);
	la[5] = 2; /* big-endian */
	la = b + 3200;
	memcpy(la, obj, 64);
	w16(la + 18, 62); /* EM_X86_64 */
	memcpy(b + n - on, obj, on); /* object ending exactly at end of file */
	struct rb_embedded_list l;
	scan(b, n, &l);
	assert_int_equal(l.bad_cnt, 0);
	assert_int_equal(l.cnt, 3);
	assert_int_equal(l.objs[0].offset, 1000);
	assert_int_equal(l.objs[1].offset, 1000 + on);
	assert_int_equal(l.objs[2].offset, n - on);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(l.objs[i].size, on);
		assert_memory_equal(b + l.objs[i].offset, obj, on);
	}
	rb_embedded_list_free(&l);
	free(b);
}

/* Candidate with a defect: it must be reported, with a reason naming it. */
static void expect_bad(uint8_t *b, size_t n, const char *needle)
{
	struct rb_embedded_list l;
	scan(b, n, &l);
	assert_int_equal(l.cnt, 0);
	assert_int_equal(l.bad_cnt, 1);
	assert_int_equal(l.bad[0].offset, 0);
	if (!strstr(l.bad[0].reason, needle))
		fail_msg("reason '%s' lacks '%s'", l.bad[0].reason, needle);
	rb_embedded_list_free(&l);
}

static void test_truncated(void **state)
{
	(void)state;
	uint8_t b[1024];
	size_t n = mk_obj(b, 1);
	/* every truncation is reported (never read past the end: ASan) */
	for (size_t cut = 20; cut < n; cut++) {
		uint8_t *c = malloc(cut);
		assert_non_null(c);
		memcpy(c, b, cut);
		struct rb_embedded_list l;
		scan(c, cut, &l);
		assert_int_equal(l.cnt, 0);
		assert_int_equal(l.bad_cnt, 1);
		rb_embedded_list_free(&l);
		free(c);
	}
	mk_obj(b, 0);
	expect_bad(b, 40, "ELF header truncated");
	expect_bad(b, OBJ_SHOFF + 100, "section header table");
}

static void test_malformed_headers(void **state)
{
	(void)state;
	uint8_t b[1024];
	size_t n;
	n = mk_obj(b, 0);
	w64(b + 40, 0xfffffffffffffff0ull); /* e_shoff overflows */
	expect_bad(b, n, "section header table");
	n = mk_obj(b, 0);
	w16(b + 60, 0xfeff); /* e_shnum far past the file */
	w16(b + 62, 0);
	expect_bad(b, n, "section header table");
	n = mk_obj(b, 0);
	w16(b + 60, 0);
	expect_bad(b, n, "e_shnum 0");
	n = mk_obj(b, 0);
	w16(b + 58, 40);
	expect_bad(b, n, "e_shentsize");
	n = mk_obj(b, 0);
	w16(b + 52, 52);
	expect_bad(b, n, "e_ehsize");
	n = mk_obj(b, 0);
	w16(b + 62, 9);
	expect_bad(b, n, "e_shstrndx");
	n = mk_obj(b, 0);
	w64(b + 40, 8); /* table overlapping the header */
	expect_bad(b, n, "overlaps");
	n = mk_obj(b, 0);
	w64(b + OBJ_SHOFF + 128 + 32, 0xffffffffffffffffull); /* prog size: offset+size overflows */
	expect_bad(b, n, "section 2");
	n = mk_obj(b, 0);
	w64(b + OBJ_SHOFF + 128 + 24, n); /* prog contents start at the end */
	expect_bad(b, n, "section 2");
	n = mk_obj(b, 0);
	w16(b + 56, 3); /* program headers */
	w16(b + 54, 56);
	w64(b + 32, 0x7fffffff);
	expect_bad(b, n, "program header table");
	n = mk_obj(b, 0);
	w32(b + 20, 7);
	expect_bad(b, n, "version");
}

/* After a malformed candidate the scan goes on and still finds the good
 * object that follows. */
static void test_bad_then_good(void **state)
{
	(void)state;
	uint8_t obj[1024], b[2048];
	size_t on = mk_obj(obj, 0);
	memset(b, 0xaa, sizeof(b));
	memcpy(b, obj, 64);
	w64(b + 40, 1u << 30); /* header only, table far away */
	memcpy(b + 500, obj, on);
	struct rb_embedded_list l;
	scan(b, sizeof(b), &l);
	assert_int_equal(l.bad_cnt, 1);
	assert_int_equal(l.bad[0].offset, 0);
	assert_int_equal(l.cnt, 1);
	assert_int_equal(l.objs[0].offset, 500);
	assert_int_equal(l.objs[0].size, on);
	rb_embedded_list_free(&l);
}

/* Random byte mutations of a good object: whatever the scanner says, every
 * object it reports lies inside the buffer (ASan guards the reads). */
static void test_mutations(void **state)
{
	(void)state;
	uint8_t obj[1024];
	size_t on = mk_obj(obj, 1);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t oks = 0, bads = 0;
	for (int it = 0; it < 20000; it++) {
		uint8_t *c = malloc(on);
		assert_non_null(c);
		memcpy(c, obj, on);
		int nmut = 1 + it % 4;
		for (int k = 0; k < nmut; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* keep the identification intact most of the time so that
			 * mutations reach the size computation */
			size_t pos = 20 + (size_t)(x % (on - 20));
			c[pos] = (uint8_t)(x >> 32);
		}
		struct rb_embedded_list l;
		scan(c, on, &l);
		for (size_t i = 0; i < l.cnt; i++) {
			assert_true(l.objs[i].offset < on);
			assert_true(l.objs[i].size <= on - l.objs[i].offset);
			assert_true(l.objs[i].size >= 64);
		}
		oks += l.cnt;
		bads += l.bad_cnt;
		rb_embedded_list_free(&l);
		free(c);
	}
	/* both outcomes occur: the mutations are not all harmless or all fatal */
	assert_true(oks > 0);
	assert_true(bads > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_object),
		cmocka_unit_test(test_size_includes_section_after_table),
		cmocka_unit_test(test_embedded_among_lookalikes),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_malformed_headers),
		cmocka_unit_test(test_bad_then_good),
		cmocka_unit_test(test_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
