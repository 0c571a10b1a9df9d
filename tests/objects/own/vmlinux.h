/* vmlinux.h — what programs/src/common.h needs of the kernel's types, from
 * the UAPI headers: the test build compiles the worked examples of
 * programs/src/ (tests/cli/explain.sh) without the corpus recipe's
 * vmlinux.h (generated from the running kernel's BTF). */
#ifndef RB_TEST_OWN_VMLINUX_H
#define RB_TEST_OWN_VMLINUX_H
#include <linux/bpf.h>
#endif
