/* explain_inputs.h — explain's objects per kernel inputs
 * (cmd_explain_sides.c, explain_inputs.c).
 *
 * `run` opens an object once more for each engine row of a profile after
 * 6.18, with the inputs of the kernel that row stands for (BTF,
 * configuration, uname: loader/kernel_inputs.h, verify.h
 * rb_verify_row_inputs), and gives the engine that kernel's BTF. explain
 * does the same: a point of an explanation is an engine row run on the
 * object opened with one set of inputs (an index here: 0 is the running
 * kernel's), so the rows reproduce the run's figures, and a change that
 * comes from the kernels' inputs is told from one that comes from the
 * engine (rb_xi_which: which input). */
#ifndef RB_CLI_EXPLAIN_INPUTS_H
#define RB_CLI_EXPLAIN_INPUTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "explain/explain.h"
#include "loader/object.h"
#include "result/result.h"

#define RB_XI_MAX 24 /* inputs sets: the running kernel's, the rows', the mixes */

struct rb_xi {
	const struct rb_load_opts *lo; /* lo->kernel_inputs: --kernel-inputs (as run's) */
	const struct rb_explain_opts *eo;
	int n;
	char dir[RB_XI_MAX][PATH_MAX]; /* "" (index 0): the running kernel's */
	char label[RB_XI_MAX][48];     /* "kernel-7.2": the cache's inputs of a profile's kernel */
	struct rb_vmlinux *vm[RB_XI_MAX]; /* [0]: eo->vmlinux; a mix's: its BTF's (borrowed) */
	bool own_vm[RB_XI_MAX];
	unsigned mixkey[RB_XI_MAX]; /* a mix: 1 + (a, b, parts of b), else 0 */
	/* the current program, opened with each set on demand */
	const char *path, *prog, *prog_type;
	struct rb_object *obj[RB_XI_MAX];
	size_t idx[RB_XI_MAX];
	bool tried[RB_XI_MAX];
	char tmp[PATH_MAX]; /* the mixes' directory, "" until one is made */
	int nmix;
};

void rb_xi_init(struct rb_xi *x, const struct rb_load_opts *lo, const struct rb_explain_opts *eo);
/* the program the next calls open (its objects of the last one freed) */
void rb_xi_program(struct rb_xi *x, const char *path, const char *prog, const char *prog_type);
void rb_xi_fini(struct rb_xi *x);

/* the inputs engine row `row` is opened with, as run opens it: an index,
 * -1 when the table is full */
int rb_xi_row(struct rb_xi *x, const char *row);
/* the current program opened with inputs d (NULL when it does not open
 * there: said once on stderr); its index in *idx */
const struct rb_object *rb_xi_obj(struct rb_xi *x, int d, size_t *idx);
/* the explanation options for inputs d: eo with that kernel's BTF */
void rb_xi_opts(const struct rb_xi *x, int d, struct rb_explain_opts *out);
/* row verified on the current program with inputs d: 0, or -1 */
int rb_xi_verify(struct rb_xi *x, int d, const char *row, struct rb_result *res);
/* "the running kernel", the kernel whose cached inputs d are
 * ("kernel-7.2"), or the directory */
const char *rb_xi_name(const struct rb_xi *x, int d);

/* Which input of b (btf, config, uname) makes row's change from inputs a
 * to inputs b: row is run on a with one of b's files (then two), and the
 * files that alone give `want` (row's figures with b's inputs) are named
 * into out ("BTF", "config (LINUX_HAS_SYSCALL_WRAPPER)", "BTF+config");
 * "" when it cannot be told (the mixes do not reproduce a and b). */
void rb_xi_which(struct rb_xi *x, const char *row, int a, int b, const struct rb_result *want, char *out,
		 size_t len);

#endif
