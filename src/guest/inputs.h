/* inputs.h — a guest kernel's own inputs (BTF, kallsyms, config, uname) and its verifier logs,
 * sent as base64 of gzip between "RBF NAME begin/end" lines (rowtext.h),
 * written into <kernel dir>/inputs/. */
#ifndef RB_GUEST_INPUTS_H
#define RB_GUEST_INPUTS_H

#include <stddef.h>

#include "util/err.h"

/* base64 text (other characters ignored) of gzip data, inflated into a
 * NUL-terminated buffer (free it): 0, or -1 if damaged or out of memory */
int rb_guest_inflate_b64(const char *b64, size_t len, char **out, size_t *outlen);
/* the same, into path (written through path.tmp, then renamed): 0, or -1
 * with err */
int rb_guest_inputs_write(const char *path, const char *b64, size_t len, struct rb_err *err);

#endif
