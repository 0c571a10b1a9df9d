/* pvh.c — the file QEMU boots (see pvh.h). */
#include "guest/pvh.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest/guest_impl.h"

extern char **environ;

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

int rb_pvh_payload(const uint8_t *img, size_t len, size_t *off, size_t *plen, uint32_t *size)
{
	/* x86 boot protocol (Documentation/arch/x86/boot.rst): "HdrS" at
	 * 0x202, version >= 2.08 for payload_offset (0x248) and
	 * payload_length (0x24c), counted from the protected-mode code after
	 * the (setup_sects + 1) * 512 bytes of setup */
	if (len < 0x250 || memcmp(img + 0x202, "HdrS", 4) != 0 || (img[0x206] | img[0x207] << 8) < 0x208)
		return -1;
	size_t pm = ((size_t)(img[0x1f1] ? img[0x1f1] : 4) + 1) * 512;
	size_t o = le32(img + 0x248), l = le32(img + 0x24c);
	if (pm > len || o > len - pm || l > len - pm - o || l < 16)
		return -1;
	const uint8_t *p = img + pm + o;
	static const uint8_t zstd[4] = {0x28, 0xb5, 0x2f, 0xfd};
	if (memcmp(p, zstd, 4) != 0)
		return -1;
	/* the kernel's zstd22_with_size: the frame, then the size it
	 * decompresses to, 32-bit little-endian */
	*off = pm + o;
	*plen = l - 4;
	*size = le32(p + l - 4);
	return 0;
}

bool rb_pvh_has_entry(const uint8_t *elf, size_t len)
{
	/* an ELF64 x86-64 executable with the note Xen/18
	 * (XEN_ELFNOTE_PHYS32_ENTRY, include/xen/interface/elfnote.h): QEMU
	 * starts it at that 32-bit entry without firmware-side decompression */
	if (len < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1 || (elf[18] | elf[19] << 8) != 62)
		return false;
	uint64_t phoff = le64(elf + 32);
	unsigned phentsize = elf[54] | elf[55] << 8, phnum = elf[56] | elf[57] << 8;
	if (phentsize < 56 || phoff > len || phnum > (len - phoff) / phentsize)
		return false;
	for (unsigned i = 0; i < phnum; i++) {
		const uint8_t *ph = elf + phoff + (size_t)i * phentsize;
		if (le32(ph) != 4 /* PT_NOTE */)
			continue;
		uint64_t off = le64(ph + 8), sz = le64(ph + 32);
		if (off > len || sz > len - off)
			continue;
		for (uint64_t at = 0; at + 12 <= sz;) {
			const uint8_t *n = elf + off + at;
			uint32_t nsz = le32(n), dsz = le32(n + 4), type = le32(n + 8);
			uint64_t next = at + 12 + ((nsz + 3ull) & ~3ull) + ((dsz + 3ull) & ~3ull);
			if (next > sz)
				break;
			if (type == 18 && nsz == 4 && !memcmp(n + 12, "Xen", 4))
				return true;
			at = next;
		}
	}
	return false;
}

/* path is an ELF (of size bytes, unless 0) with a PVH entry (mapped:
 * only its headers and notes are read) */
static bool elf_ok(const char *path, uint32_t size)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t len = fstat(fd, &sb) == 0 && sb.st_size > 0 && sb.st_size <= (1 << 30) ? (size_t)sb.st_size : 0;
	void *m = len && (!size || len == size) ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED)
		return false;
	bool ok = rb_pvh_has_entry(m, len);
	munmap(m, len);
	return ok;
}

bool rb_pvh_cached(const char *kdir, const char *ih, char *out, size_t outlen)
{
	/* (written under a temporary name, checked, then renamed) */
	return snprintf(out, outlen, "%s/vmlinux-%.16s", kdir, ih) < (int)outlen && elf_ok(out, 0);
}

/* zstd -dc < payload > tmp: the zstd tool, fed through a socket (send
 * with MSG_NOSIGNAL: a tool that died is an error, not a SIGPIPE) */
static int unzstd(const char *zstd, const uint8_t *p, size_t len, const char *tmp)
{
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
	posix_spawn_file_actions_addopen(&fa, 1, tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = {(char *)zstd, "-dcq", NULL};
	pid_t pid;
	int rc = posix_spawn(&pid, zstd, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (rc != 0) {
		close(fds[1]);
		return -1;
	}
	for (size_t done = 0; done < len;) {
		ssize_t w = send(fds[1], p + done, len - done, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(fds[1]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

bool rb_pvh_image(const char *kdir, const char *ih, const uint8_t *img, size_t len, char *out, size_t outlen)
{
	size_t off, plen;
	uint32_t size;
	char zstd[PATH_MAX], tmp[PATH_MAX + 64];
	if (rb_pvh_payload(img, len, &off, &plen, &size) < 0 ||
	    snprintf(out, outlen, "%s/vmlinux-%.16s", kdir, ih) >= (int)outlen)
		return false;
	if (elf_ok(out, size))
		return true;
	if (!rb_gst_find_in_path("zstd", zstd, sizeof(zstd)))
		return false;
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", out, (int)getpid());
	bool ok = unzstd(zstd, img + off, plen, tmp) == 0 && elf_ok(tmp, size) && rename(tmp, out) == 0;
	if (!ok)
		unlink(tmp);
	return ok;
}
