/* type_hints.h — a corpus directory's type hints (issue 25 item 6): a file
 * named rangebench.types beside the objects gives program types to the
 * sections no loader convention types right (iproute2's `from-netdev` in
 * an object that `ip link ... xdp` loads, `test`, `filter`, `tail-N`).
 *
 * One rule a line, '#' starts a comment:
 *     OBJECT-GLOB[:SECTION-GLOB]  PROG-TYPE  [ATTACH-TYPE]
 * OBJECT-GLOB matches the object's file name, SECTION-GLOB (default *)
 * its program's section (fnmatch(3) patterns); PROG-TYPE and ATTACH-TYPE
 * as --prog-type and --attach-type take them. The first rule that matches
 * a program types it. Rules rank below libbpf's section table and the
 * command line's --prog-type (or a manifest's prog_type column) and above
 * the other loaders' conventions (prog_type.h). */
#ifndef RB_LOADER_TYPE_HINTS_H
#define RB_LOADER_TYPE_HINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define RB_TYPE_HINTS_FILE "rangebench.types"

struct rb_type_rule {
	char obj_glob[128], sec_glob[128];
	uint32_t type, eat;
	unsigned line; /* in the file, from 1 */
};

struct rb_type_hints {
	char path[4096]; /* the file read */
	struct rb_type_rule *rules;
	size_t n;
};

/* Parse the hints text of file path (for messages). 0, or -1 with err
 * naming the file, the line and the reason. */
int rb_type_hints_parse(const char *path, const char *text, size_t len, struct rb_type_hints *out, struct rb_err *err);
/* Read the hints of the directory holding obj_path: 0 with *found false
 * when there is no hints file, -1 (err) when it cannot be read or parsed. */
int rb_type_hints_load(const char *obj_path, struct rb_type_hints *out, bool *found, struct rb_err *err);
void rb_type_hints_free(struct rb_type_hints *h);

/* The first rule for section sec of the object at obj_path, or NULL. */
const struct rb_type_rule *rb_type_hints_match(const struct rb_type_hints *h, const char *obj_path, const char *sec);

#endif
