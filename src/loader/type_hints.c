/* type_hints.c — a corpus directory's rangebench.types (see type_hints.h). */
#include "loader/type_hints.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loader/prog_type.h"
#include "util/file.h"
#include "util/grow.h"

#define HINTS_MAX_BYTES (1u << 20) /* a hints file over 1 MiB is refused */
#define HINTS_MAX_RULES 4096

void rb_type_hints_free(struct rb_type_hints *h)
{
	free(h->rules);
	h->rules = NULL;
	h->n = 0;
}

/* the next whitespace-separated word of *p (cut in place), or NULL */
static char *word(char **p)
{
	char *s = *p + strspn(*p, " \t\r");
	if (!*s)
		return NULL;
	char *e = s + strcspn(s, " \t\r");
	if (*e)
		*e++ = 0;
	*p = e;
	return s;
}

static int parse_line(const char *path, unsigned ln, char *line, struct rb_type_hints *h, size_t *cap,
		      struct rb_err *err)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	char *p = line, *glob = word(&p);
	if (!glob)
		return 0;
	char *ptype = word(&p), *atype = word(&p), *extra = word(&p);
	if (!ptype)
		return rb_errf(err, "%s:%u: '%s' names no program type (OBJECT-GLOB[:SECTION-GLOB] PROG-TYPE "
				    "[ATTACH-TYPE])", path, ln, glob);
	if (extra)
		return rb_errf(err, "%s:%u: unexpected '%s' after the attach type", path, ln, extra);
	if (h->n >= HINTS_MAX_RULES)
		return rb_errf(err, "%s:%u: more than %u rules", path, ln, HINTS_MAX_RULES);
	struct rb_type_rule r = {.line = ln};
	char *colon = strchr(glob, ':');
	const char *sec = colon ? colon + 1 : "*";
	if (colon)
		*colon = 0;
	if (!*glob || !*sec)
		return rb_errf(err, "%s:%u: empty object or section pattern", path, ln);
	if (strlen(glob) >= sizeof(r.obj_glob) || strlen(sec) >= sizeof(r.sec_glob))
		return rb_errf(err, "%s:%u: a pattern longer than %zu bytes", path, ln, sizeof(r.obj_glob) - 1);
	snprintf(r.obj_glob, sizeof(r.obj_glob), "%s", glob);
	snprintf(r.sec_glob, sizeof(r.sec_glob), "%s", sec);
	struct rb_err e = {{0}};
	bool has_eat;
	if (rb_prog_type_parse(ptype, &r.type, &r.eat, &has_eat, &e) ||
	    (atype && rb_attach_type_parse(atype, &r.eat, &e)))
		return rb_errf(err, "%s:%u: %s", path, ln, e.msg);
	if (RB_GROW(h->rules, h->n + 1, cap, 16) < 0)
		return rb_errf(err, "%s: out of memory", path);
	h->rules[h->n++] = r;
	return 0;
}

int rb_type_hints_parse(const char *path, const char *text, size_t len, struct rb_type_hints *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", path);
	size_t cap = 0;
	unsigned ln = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		ln++;
		if (memchr(text + at, 0, n)) {
			rb_type_hints_free(out);
			return rb_errf(err, "%s:%u: a NUL byte (not a text file)", path, ln);
		}
		char line[1024];
		if (n >= sizeof(line)) {
			rb_type_hints_free(out);
			return rb_errf(err, "%s:%u: a line longer than %zu bytes", path, ln, sizeof(line) - 1);
		}
		memcpy(line, text + at, n);
		line[n] = 0;
		if (parse_line(path, ln, line, out, &cap, err) < 0) {
			rb_type_hints_free(out);
			return -1;
		}
		at += n + 1;
	}
	return 0;
}

int rb_type_hints_load(const char *obj_path, struct rb_type_hints *out, bool *found, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	*found = false;
	char path[4096];
	const char *slash = strrchr(obj_path, '/');
	int dl = slash ? (int)(slash - obj_path) : 0;
	if (snprintf(path, sizeof(path), "%.*s%s%s", dl, obj_path, slash ? "/" : "", RB_TYPE_HINTS_FILE) >=
	    (int)sizeof(path))
		return 0;
	struct stat sb;
	if (stat(path, &sb) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : rb_errf(err, "%s: %s", path, strerror(errno));
	uint8_t *buf = NULL;
	size_t len = 0;
	if (rb_read_file(path, HINTS_MAX_BYTES, &buf, &len, err))
		return -1;
	int rc = rb_type_hints_parse(path, (const char *)buf, len, out, err);
	free(buf);
	*found = rc == 0;
	return rc;
}

const struct rb_type_rule *rb_type_hints_match(const struct rb_type_hints *h, const char *obj_path, const char *sec)
{
	const char *slash = strrchr(obj_path, '/');
	const char *base = slash ? slash + 1 : obj_path;
	for (size_t i = 0; h && i < h->n; i++)
		if (fnmatch(h->rules[i].obj_glob, base, 0) == 0 && fnmatch(h->rules[i].sec_glob, sec, 0) == 0)
			return &h->rules[i];
	return NULL;
}
