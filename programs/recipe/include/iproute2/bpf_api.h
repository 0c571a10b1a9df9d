/* bpf_api.h — the part of iproute2's include/bpf_api.h (and bpf_elf.h)
 * that iproute2's examples/bpf programs (package iproute2-doc) use,
 * written for the corpus recipe from those programs and tc's documented
 * ELF conventions: tc reads struct bpf_elf_map records from section
 * "maps", loads section "classifier" by default, and fills slot S of the
 * prog array whose map id is M from section "M/S". The Debian packages
 * ship the examples but not this header. */
#ifndef RB_IPROUTE2_BPF_API_H
#define RB_IPROUTE2_BPF_API_H

/* no libc headers: uint32_t from the kernel types */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
typedef __u32 uint32_t;
typedef __u64 uint64_t;

#define __section(NAME) __attribute__((section(NAME), used))
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define __section_tail(ID, KEY) __section(__stringify(ID) "/" __stringify(KEY))
#define __section_cls_entry __section("classifier")
#define __section_act_entry __section("action")
#define __section_maps __section("maps")
#define __section_license __section("license")
#define BPF_LICENSE(NAME) char ____license[] __section_license = NAME

/* libbpf's BTF map-definition macros (bpf_helpers.h) */
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __array(name, val) typeof(val) *name[]
#define LIBBPF_PIN_NONE 0
#define LIBBPF_PIN_BY_NAME 1

/* iproute2's map record (include/bpf_elf.h) */
#define PIN_NONE 0
#define PIN_OBJECT_NS 1
#define PIN_GLOBAL_NS 2
struct bpf_elf_map {
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
	__u32 inner_id;
	__u32 inner_idx;
};

#define BPF_H_DEFAULT (-1) /* TC_ACT_UNSPEC: tc's default classid / action */

#define BPF_FUNC(NAME, ...) (*NAME)(__VA_ARGS__) __attribute__((unused)) = (void *)BPF_FUNC_##NAME
static void *BPF_FUNC(map_lookup_elem, void *map, const void *key);
static int BPF_FUNC(map_update_elem, void *map, const void *key, const void *value, __u32 flags);
static int BPF_FUNC(map_delete_elem, void *map, const void *key);
static void BPF_FUNC(tail_call, struct __sk_buff *skb, void *map, __u32 index);
static int BPF_FUNC(trace_printk, const char *fmt, int fmt_size, ...);

#define printt(fmt, ...)                                                                   \
	({                                                                                 \
		char ____fmt[] = fmt;                                                      \
		trace_printk(____fmt, sizeof(____fmt), ##__VA_ARGS__);                     \
	})
#define lock_xadd(ptr, val) ((void)__sync_fetch_and_add(ptr, val))

#endif
