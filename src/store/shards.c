/* shards.c — the shard list of a run's options (see shards.h). */
#include "store/shards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rb_shard_arg(const char *opts, size_t *len)
{
	for (const char *p = opts ? strstr(opts, "--shard") : NULL; p; p = strstr(p + 1, "--shard")) {
		if ((p != opts && p[-1] != ' ') || (p[7] != ' ' && p[7] != '='))
			continue;
		const char *a = p + 8;
		*len = strcspn(a, " ");
		return a;
	}
	return NULL;
}

int rb_shards_read(const char *opts, bool status_complete, struct rb_shards *s)
{
	memset(s, 0, sizeof(*s));
	size_t len;
	const char *a = rb_shard_arg(opts, &len);
	const char *slash = a ? memchr(a, '/', len) : NULL;
	if (!slash)
		return 0;
	char *end;
	unsigned long n = strtoul(slash + 1, &end, 10);
	if (n < 2 || n > RB_SHARDS_MAX || end != a + len)
		return 0;
	s->state = calloc(n + 1, 1);
	if (!s->state)
		return -1;
	s->n = (unsigned)n;
	for (const char *p = a; p < slash;) {
		unsigned long k = strtoul(p, &end, 10);
		if (end == p || k < 1 || k > n) {
			rb_shards_free(s);
			return 0;
		}
		bool bang = *end == '!';
		s->state[k] = bang && !status_complete ? 1 : 2;
		p = end + bang;
		if (p < slash && *p != ',') {
			rb_shards_free(s);
			return 0;
		}
		p += p < slash;
	}
	return 0;
}

void rb_shards_free(struct rb_shards *s)
{
	free(s->state);
	memset(s, 0, sizeof(*s));
}

bool rb_shards_complete(const struct rb_shards *s)
{
	if (!s->n)
		return false;
	for (unsigned k = 1; k <= s->n; k++)
		if (s->state[k] != 2)
			return false;
	return true;
}

char *rb_shards_options(const char *opts, const struct rb_shards *s)
{
	size_t alen;
	const char *a = rb_shard_arg(opts, &alen);
	if (!a || !s->n)
		return strdup(opts ? opts : "");
	/* at most 8 digits, '!' and ',' per shard */
	size_t cap = strlen(opts) + 10 * (size_t)s->n + 16;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t o = (size_t)snprintf(out, cap, "%.*s", (int)(a - opts), opts);
	bool first = true;
	for (unsigned k = 1; k <= s->n; k++)
		if (s->state[k]) {
			o += (size_t)snprintf(out + o, cap - o, "%s%u%s", first ? "" : ",", k, s->state[k] == 1 ? "!" : "");
			first = false;
		}
	snprintf(out + o, cap - o, "/%u%s", s->n, a + alen);
	return out;
}
