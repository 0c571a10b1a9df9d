/* btf_file.c — checking a --btf file (see btf_file.h). */
#include "loader/btf_file.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf_view.h"
#include "util/file.h"

/* vmlinux BTF is a few MiB; a vmlinux ELF with its .BTF up to a few hundred */
#define BTF_FILE_MAX (1024u << 20)

static int check_blob(const char *path, const char *what, const uint8_t *d, size_t n, struct rb_err *err)
{
	uint32_t nr, sl;
	char why[200];
	if (!rb_btf_check(d, n, &nr, &sl, why, sizeof(why)))
		return rb_errf(err, "%s: malformed BTF%s: %s", path, what, why);
	return 0;
}

/* the .BTF section of an ELF file; 1 found, 0 none, -1 not ELF / malformed */
static int elf_btf(const uint8_t *buf, size_t size, const uint8_t **d, size_t *n)
{
	elf_version(EV_CURRENT);
	Elf *e = elf_memory((char *)buf, size);
	if (!e)
		return -1;
	int found = -1;
	size_t shstrndx;
	if (elf_kind(e) == ELF_K_ELF && elf_getshdrstrndx(e, &shstrndx) == 0) {
		found = 0;
		for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
			GElf_Shdr sh;
			if (!gelf_getshdr(s, &sh))
				break;
			const char *nm = elf_strptr(e, shstrndx, sh.sh_name);
			if (!nm || strcmp(nm, ".BTF"))
				continue;
			if (sh.sh_type == SHT_NOBITS || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
				found = -1;
				break;
			}
			*d = buf + sh.sh_offset;
			*n = sh.sh_size;
			found = 1;
			break;
		}
	}
	elf_end(e);
	return found;
}

int rb_btf_file_check(const char *path, struct rb_err *err)
{
	uint8_t *buf = NULL;
	size_t size = 0;
	if (rb_read_file(path, BTF_FILE_MAX, &buf, &size, err))
		return -1;
	int rc;
	const uint8_t *d;
	size_t n;
	if (size >= 2 && buf[0] == 0x9f && buf[1] == 0xeb) {
		rc = check_blob(path, "", buf, size, err);
	} else if (size >= 4 && !memcmp(buf, ELFMAG, SELFMAG)) {
		int f = elf_btf(buf, size, &d, &n);
		if (f < 0)
			rc = rb_errf(err, "%s: malformed ELF file (no BTF can be read from it)", path);
		else if (f == 0)
			rc = rb_errf(err, "%s: an ELF file without a .BTF section (no BTF to relocate against)", path);
		else
			rc = check_blob(path, " in its .BTF section", d, n, err);
	} else {
		rc = rb_errf(err, "%s: not BTF: neither raw BTF (magic 0xeb9f) nor an ELF file with a .BTF section",
			     path);
	}
	free(buf);
	return rc;
}
