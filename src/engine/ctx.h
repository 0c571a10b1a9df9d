/* ctx.h — context access and program-type rules (Linux 6.18 bpf_verifier_ops.is_valid_access, may_access_direct_pkt_data). */
#ifndef RB_ENGINE_CTX_H
#define RB_ENGINE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

struct rb_ctx_access {
	enum rb_rtype reg_type; /* RT_SCALAR for plain fields */
	uint8_t flags;
};
/* is (off,size) a valid ctx access for this program type? */
int rb_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
bool rb_prog_type_supported(uint32_t prog_type);
bool rb_attach_type_supported(uint32_t prog_type, uint32_t attach_type);
bool rb_prog_type_has_pkt(uint32_t prog_type);
bool rb_pkt_write_ok(uint32_t prog_type);
bool rb_pkt_helper_ok(uint32_t prog_type, bool helper_pkt_access);
/* ctx_sock.c, ctx_cgroup.c: one per program type */
bool rb_sock_addr_attach_known(uint32_t attach_type);
int rb_ctx_sock_addr(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sock(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sock_ops(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_lookup(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_reuseport(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_msg(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sk_skb(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_sock_field_access(struct rb_env *env, int regno, const char *tname, bool common, int off, int size,
			 bool write);
int rb_ctx_sockopt(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_sysctl(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);
int rb_ctx_cgroup_dev(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);

#endif
