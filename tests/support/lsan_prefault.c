/*
 * lsan_prefault.c — linked into the test build's executables only (the
 * sanitizer-built rangebench and the unit tests; never the library or the
 * release build). Before main, every writable segment of every loaded
 * module (its .data and .bss) gets its page-table entries in one
 * madvise(MADV_POPULATE_READ) call: pages never written map the shared
 * zero page, as a first read would. LeakSanitizer reads all of those
 * segments at exit (its "GLOBAL" roots), 5.5 MB of them libasan's own
 * .bss (GCC 12: the stack depot's hash table, mostly never written), and
 * each first read of a page there was a page fault: 1,230 of a sanitizer
 * process's 2,226 (`rangebench --version`, perf stat), a third of its CPU
 * on this virtual machine, where a fault costs tens of microseconds. What
 * LeakSanitizer scans and reports is unchanged; no memory is written or
 * allocated (the zero page is shared). A kernel without
 * MADV_POPULATE_READ (before Linux 5.14) refuses it: nothing changes.
 */
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static int populate_writable(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
			continue;
		/* whole pages inside the segment: its first and last partial
		 * pages are shared with other segments or already mapped */
		uintptr_t begin = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
		uintptr_t end = begin + ph->p_memsz;
		begin = (begin + page - 1) & ~(page - 1);
		end &= ~(page - 1);
		if (end > begin)
			(void)madvise((void *)begin, end - begin, MADV_POPULATE_READ);
	}
	return 0;
}

__attribute__((constructor)) static void lsan_prefault(void)
{
	dl_iterate_phdr(populate_writable, NULL);
}
