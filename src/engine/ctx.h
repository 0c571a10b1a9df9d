/* ctx.h — context access per program type (Linux 6.18 bpf_verifier_ops.is_valid_access). */
#ifndef RB_ENGINE_CTX_H
#define RB_ENGINE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

struct rb_ctx_access {
	enum rb_rtype reg_type; /* RT_SCALAR for plain fields */
	uint8_t flags;
	int32_t btf_id; /* RT_BTF_ID: the vmlinux type id */
};
/* is (off,size) a valid ctx access for this program type (its prog_types.c row)? */
int rb_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
/* one per program type (the rows of prog_types.c): ctx.c */
int rb_ctx_skb(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_lwt(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_xdp(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_flow_dissector(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_kprobe(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_perf_event(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_tracepoint(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_raw_tp_writable(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_syscall(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_raw_tracepoint(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_netfilter(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
/* ctx_sock.c, ctx_cgroup.c */
int rb_ctx_sock_addr(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sock(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sock_ops(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_lookup(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_reuseport(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_msg(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_skb(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_sock_field_access(struct rb_env *env, int regno, const char *tname, bool common, int off, int size,
			 bool write);
/* reads through a PTR_TO_TCP_SOCK (struct bpf_tcp_sock) */
int rb_tcp_sock_field_access(struct rb_env *env, int regno, const char *tname, int off, int size, bool write);
int rb_ctx_sockopt(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sysctl(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_cgroup_dev(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);

#endif
