/* gen.h — execcheck's own small seeded program generator (socket filter
 * programs on unknown scalars: helper results and map value contents).
 * Families: "alu" (64/32-bit ALU of every kind and range-setting jumps),
 * "link" (register copies, "w += k"/"r += k" links, upper-half bits,
 * 32-bit jumps: the shapes of issue 10's cause A), "mem" (spills and
 * narrow or sign-extending fills, variable-offset stack and map value
 * accesses), "all" (a mix). The same (family, seed) always gives the same
 * program. */
#ifndef RB_EXEC_GEN_H
#define RB_EXEC_GEN_H

#include <stdint.h>

#include "loader/object.h"
#include "util/err.h"

/* NULL-terminated */
extern const char *const rb_exec_gen_families[];

/* a one-program object (free with rb_object_free) */
int rb_exec_gen(const char *family, uint64_t seed, struct rb_object **out, struct rb_err *err);

#endif
