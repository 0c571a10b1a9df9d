/* memo.c — content hashes remembered by file identity (see memo.h). */
#include "guest/memo.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MEMO_LINES 32

static void identity(const struct stat *sb, char *out, size_t len)
{
	snprintf(out, len, "%llu %llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)sb->st_dev,
		 (unsigned long long)sb->st_ino, (long long)sb->st_size, (long long)sb->st_mtim.tv_sec,
		 sb->st_mtim.tv_nsec, (long long)sb->st_ctim.tv_sec, sb->st_ctim.tv_nsec);
}

static bool plain(const char *path) { return !strpbrk(path, "\t\n") && strlen(path) < PATH_MAX; }

/* a memo line: IDENTITY \t HEX \t PATH; the hex and path of one, or false */
static bool parse(char *line, char **id, char **hex, char **path)
{
	line[strcspn(line, "\n")] = 0;
	char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
	if (!t2 || t2 - t1 - 1 != 64)
		return false;
	*t1 = *t2 = 0;
	*id = line;
	*hex = t1 + 1;
	*path = t2 + 1;
	return true;
}

bool rb_gst_memo_get(const char *dir, const char *path, char hex[65])
{
	struct stat sb;
	char memo[PATH_MAX + 16], id[160], line[PATH_MAX + 300];
	if (!plain(path) || stat(path, &sb) < 0 || snprintf(memo, sizeof(memo), "%s/sha256-memo", dir) >= (int)sizeof(memo))
		return false;
	identity(&sb, id, sizeof(id));
	FILE *f = fopen(memo, "r");
	bool hit = false;
	char *li, *lh, *lp;
	while (f && !hit && fgets(line, sizeof(line), f))
		if (parse(line, &li, &lh, &lp) && !strcmp(li, id) && !strcmp(lp, path)) {
			memcpy(hex, lh, 65);
			hit = true;
		}
	if (f)
		fclose(f);
	return hit;
}

void rb_gst_memo_put(const char *dir, const char *path, const struct stat *before, const char hex[65])
{
	struct stat now;
	char memo[PATH_MAX + 16], tmp[PATH_MAX + 48], id[160], id2[160], line[PATH_MAX + 300];
	if (!plain(path) || stat(path, &now) < 0 || snprintf(memo, sizeof(memo), "%s/sha256-memo", dir) >= (int)sizeof(memo))
		return;
	identity(before, id, sizeof(id));
	identity(&now, id2, sizeof(id2));
	if (strcmp(id, id2))
		return; /* written while it was read */
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", memo, (int)getpid());
	FILE *out = fopen(tmp, "w");
	if (!out)
		return;
	fprintf(out, "%s\t%s\t%s\n", id, hex, path);
	/* the other paths' lines, newest first, up to MEMO_LINES in all (a
	 * writer racing this one may lose its line: it is hashed again) */
	FILE *in = fopen(memo, "r");
	char *li, *lh, *lp;
	for (int n = 1; in && n < MEMO_LINES && fgets(line, sizeof(line), in);)
		if (parse(line, &li, &lh, &lp) && strcmp(lp, path)) {
			fprintf(out, "%s\t%s\t%s\n", li, lh, lp);
			n++;
		}
	if (in)
		fclose(in);
	if (fclose(out) != 0 || rename(tmp, memo) != 0)
		unlink(tmp);
}
