/* bpf_sys.c — raw bpf() system call wrappers (see bpf_sys.h). */
#include "oracle/bpf_sys.h"

#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* our 6.18 layout must agree with the installed 6.1 header where they overlap */
_Static_assert(offsetof(struct rb_prog_load_attr, fd_array) == offsetof(union bpf_attr, fd_array),
	       "prog load attr layout");
_Static_assert(offsetof(struct rb_prog_load_attr, core_relo_rec_size) ==
		       offsetof(union bpf_attr, core_relo_rec_size),
	       "prog load attr layout");
_Static_assert(offsetof(struct rb_prog_load_attr, attach_btf_id) == offsetof(union bpf_attr, attach_btf_id),
	       "prog load attr layout");

static uint64_t ptr(const void *p) { return (uint64_t)(uintptr_t)p; }

int rb_sys_bpf(int cmd, void *attr, unsigned size)
{
	return (int)syscall(__NR_bpf, cmd, attr, size);
}

int rb_sys_prog_load(struct rb_prog_load_attr *attr)
{
	int fd;
	/* the kernel may answer EAGAIN when it is interrupted; retry a few times */
	for (int i = 0; i < 5; i++) {
		fd = rb_sys_bpf(BPF_PROG_LOAD, attr, sizeof(*attr));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd;
}

int rb_sys_map_create(uint32_t type, const char *name, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries, uint32_t flags, int btf_fd, uint32_t btf_key_type_id,
		      uint32_t btf_value_type_id, uint32_t btf_vmlinux_value_type_id,
		      int inner_map_fd, uint64_t map_extra)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = max_entries;
	a.map_flags = flags;
	if (name) {
		/* the kernel accepts [A-Za-z0-9_.] only */
		size_t j = 0;
		for (size_t i = 0; name[i] && j < sizeof(a.map_name) - 1; i++) {
			char c = name[i];
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    c == '_' || c == '.')
				a.map_name[j++] = c;
		}
	}
	if (btf_fd >= 0 && (btf_key_type_id || btf_value_type_id || btf_vmlinux_value_type_id)) {
		a.btf_fd = (uint32_t)btf_fd;
		a.btf_key_type_id = btf_key_type_id;
		a.btf_value_type_id = btf_value_type_id;
		a.btf_vmlinux_value_type_id = btf_vmlinux_value_type_id;
	}
	if (inner_map_fd >= 0)
		a.inner_map_fd = (uint32_t)inner_map_fd;
	a.map_extra = map_extra;
	return rb_sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
}

int rb_sys_map_update(int fd, const void *key, const void *value, uint64_t flags)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = ptr(key);
	a.value = ptr(value);
	a.flags = flags;
	return rb_sys_bpf(BPF_MAP_UPDATE_ELEM, &a, sizeof(a));
}

int rb_sys_map_freeze(int fd)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	return rb_sys_bpf(BPF_MAP_FREEZE, &a, sizeof(a));
}

int rb_sys_btf_load(const void *btf, size_t size, char *log, size_t log_size)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.btf = ptr(btf);
	a.btf_size = (uint32_t)size;
	if (log && log_size) {
		log[0] = 0;
		a.btf_log_buf = ptr(log);
		a.btf_log_size = (uint32_t)log_size;
		a.btf_log_level = 1;
	}
	return rb_sys_bpf(BPF_BTF_LOAD, &a, sizeof(a));
}

bool rb_bpf_available(const char **why)
{
	/* r0 = 0; exit */
	static const struct bpf_insn prog[2] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	struct rb_prog_load_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insn_cnt = 2;
	a.insns = ptr(prog);
	a.license = ptr("GPL");
	int fd = rb_sys_prog_load(&a);
	if (fd >= 0) {
		close(fd);
		if (why)
			*why = NULL;
		return true;
	}
	if (why) {
		switch (errno) {
		case EPERM: *why = "bpf() not permitted (EPERM)"; break;
		case EACCES: *why = "bpf() not permitted (EACCES)"; break;
		case ENOSYS: *why = "bpf() not implemented by this kernel (ENOSYS)"; break;
		default: *why = "bpf() refused a trivial program"; break;
		}
	}
	return false;
}

bool rb_bpf_available_why(char *buf, size_t len)
{
	const char *why = NULL;
	if (rb_bpf_available(&why)) {
		snprintf(buf, len, "bpf() available");
		return true;
	}
	int e = errno;
	size_t o = (size_t)snprintf(buf, len, "%s", why ? why : "bpf() refused");
	if ((e == EPERM || e == EACCES) && o < len) {
		char v[16] = "";
		FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "r");
		if (f) {
			if (!fgets(v, sizeof(v), f))
				v[0] = 0;
			fclose(f);
		}
		v[strcspn(v, "\n")] = 0;
		snprintf(buf + o, len - o,
			 ": running as uid %ld without CAP_BPF or CAP_SYS_ADMIN%s%s%s (bpf() is root's, or a "
			 "capable user's, here)",
			 (long)geteuid(), v[0] ? ", and kernel.unprivileged_bpf_disabled = " : "", v,
			 v[0] && strcmp(v, "0") ? " refuses unprivileged bpf()" : "");
	}
	return false;
}
