/* bpf_sys.h — thin wrappers around the raw bpf() system call, as used by
 * the kernel oracle. No libbpf: every attribute block is filled here, so
 * what the kernel receives is exactly what the caller passed.
 *
 * The system headers on this machine are Linux 6.1's; the running kernel
 * is 6.18. The program-load attribute block is declared here in its 6.18
 * layout up to `log_true_size` (added in 6.4) so the kernel can tell us
 * the log size it needed.
 *
 * Every function returns the syscall's result (an fd or 0) or -1 with
 * errno set, like the syscall itself. */
#ifndef RB_ORACLE_BPF_SYS_H
#define RB_ORACLE_BPF_SYS_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BPF_PROG_LOAD attributes, 6.18 layout (prefix up to log_true_size). */
struct rb_prog_load_attr {
	uint32_t prog_type;
	uint32_t insn_cnt;
	uint64_t insns;
	uint64_t license;
	uint32_t log_level;
	uint32_t log_size;
	uint64_t log_buf;
	uint32_t kern_version;
	uint32_t prog_flags;
	char prog_name[16];
	uint32_t prog_ifindex;
	uint32_t expected_attach_type;
	uint32_t prog_btf_fd;
	uint32_t func_info_rec_size;
	uint64_t func_info;
	uint32_t func_info_cnt;
	uint32_t line_info_rec_size;
	uint64_t line_info;
	uint32_t line_info_cnt;
	uint32_t attach_btf_id;
	uint32_t attach_prog_fd; /* or attach_btf_obj_fd */
	uint32_t core_relo_cnt;
	uint64_t fd_array;
	uint64_t core_relos;
	uint32_t core_relo_rec_size;
	uint32_t log_true_size; /* out: bytes the full log needs (>= 6.4) */
};

/* verifier log levels */
#define RB_LOG_LEVEL1 1 /* errors */
#define RB_LOG_LEVEL2 2 /* per-instruction states */
#define RB_LOG_STATS 4  /* statistics */
#define RB_LOG_FIXED 8  /* keep the head of a log that does not fit (default: the tail) */

/* raw call; attr is `size` bytes */
int rb_sys_bpf(int cmd, void *attr, unsigned size);

int rb_sys_prog_load(struct rb_prog_load_attr *attr);
int rb_sys_map_create(uint32_t type, const char *name, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries, uint32_t flags, int btf_fd, uint32_t btf_key_type_id,
		      uint32_t btf_value_type_id, uint32_t btf_vmlinux_value_type_id,
		      int inner_map_fd, uint64_t map_extra);
int rb_sys_map_update(int fd, const void *key, const void *value, uint64_t flags);
int rb_sys_map_freeze(int fd);
/* load a BTF blob; log may be NULL */
int rb_sys_btf_load(const void *btf, size_t size, char *log, size_t log_size);

/* Is bpf() usable here? Loads the smallest socket filter (r0 = 0; exit).
 * Returns true when it loads. Otherwise false with *why set to a short
 * reason ("bpf() not permitted (EPERM)", "bpf() not implemented", ...). */
bool rb_bpf_available(const char **why);

/* The same test, with the reason spelled out for a person in buf: the
 * errno, and when it is a permission error, the user id and
 * kernel.unprivileged_bpf_disabled (unprivileged bpf() needs it 0, else
 * CAP_BPF or CAP_SYS_ADMIN). */
bool rb_bpf_available_why(char *buf, size_t len);

#endif
