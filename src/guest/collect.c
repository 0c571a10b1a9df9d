/* collect.c — a guest's lines (or the cache's) into rows (see
 * guest_impl.h and the protocol in rowtext.h). */
#include "guest/guest_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest/inputs.h"
#include "guest/rowtext.h"
#include "loader/sha256.h"
#include "oracle/vlog.h"
#include "util/file.h"
#include "util/filter.h"


/* the (object) row of an object that has no rows of its own: keyed by a
 * hash of its path, as the driver keys an object it cannot open */
int rb_gst_object_row(struct runner *r, size_t i, enum rb_verdict v, const char *accel, const char *release,
		      const char *fmt, const char *why)
{
	struct rb_result_row row;
	memset(&row, 0, sizeof(row));
	const struct rb_guest_obj *o = &r->objs[i];
	char pb[256];
	snprintf(row.prog.obj_path, sizeof(row.prog.obj_path), "%s",
		 strlen(o->path) < sizeof(row.prog.obj_path) ? o->path : rb_path_shown(o->path, pb, sizeof(pb)));
	snprintf(row.prog.source, sizeof(row.prog.source), "%s", o->source ? o->source : "");
	char h[65];
	rb_sha256_hex(o->path, strlen(o->path), h);
	snprintf(row.prog.obj_sha256, sizeof(row.prog.obj_sha256), "path:%.59s", h);
	snprintf(row.prog.name, sizeof(row.prog.name), "(object)");
	snprintf(row.tracker, sizeof(row.tracker), "%s", r->k->name);
	snprintf(row.kernel_release, sizeof(row.kernel_release), "%s", release);
	snprintf(row.clock, sizeof(row.clock), "%s", accel);
	row.repeats = 1;
	row.res.verdict = v;
	row.res.err_insn = -1;
	snprintf(row.res.msg, sizeof(row.res.msg), fmt, r->k->name, why);
	if (r->fn(r->ctx, &row, NULL) < 0) {
		r->cb_failed = true;
		return -1;
	}
	return 0;
}

/* the release a row names: the guest's uname -r, and the Debian package
 * version `make kernels` recorded */
static void rb_gst_release_of(const struct runner *r, const char *uname, char *out, size_t len)
{
	if (snprintf(out, len, "%s%s%s", uname, r->pkgver[0] ? " " : "", r->pkgver) >= (int)len)
		snprintf(out, len, "%s", uname); /* too long: the release alone */
}

/* A message of the guest names an object by its path inside the guest,
 * /o/IDX/NAME (initramfs.c): that path is replaced by the host's, so an
 * error names the object the user gave, never the guest's copy. */
static void host_msg(const struct runner *r, size_t idx, const char *msg, char *out, size_t len)
{
	char pre[32];
	snprintf(pre, sizeof(pre), "/o/%zu/", idx);
	const char *at = strstr(msg, pre);
	if (!at) {
		snprintf(out, len, "%s", msg);
		return;
	}
	const char *end = at + strlen(pre);
	while (*end && *end != ':' && *end != ' ' && *end != '\t' && *end != ',')
		end++;
	snprintf(out, len, "%.*s%s%s", (int)(at - msg), msg, r->objs[idx].path, end);
}

struct parse {
	char release[96];     /* as rows name it */
	char clock[8];        /* the accelerator the rows were timed on */
	char uname[80];       /* the guest's uname -r */
	char log_name[128];   /* the program the pending log belongs to */
	unsigned log_idx;
	char *log;
	size_t log_len, log_cap;
};

static void log_append(struct parse *p, const char *line)
{
	size_t l = strlen(line);
	if (p->log_len + l + 2 > p->log_cap) {
		size_t cap = (p->log_len + l + 2) * 2;
		char *nl = realloc(p->log, cap);
		if (!nl)
			return;
		p->log = nl;
		p->log_cap = cap;
	}
	memcpy(p->log + p->log_len, line, l);
	p->log_len += l;
	p->log[p->log_len++] = '\n';
	p->log[p->log_len] = 0;
}

/* Cache lines of one object, appended as they are parsed: rows of
 * finished objects are written out once the object ended. */
struct objlines {
	char *buf;
	size_t len;
	FILE *f;
};

/* One line of a port or of a cache file (force >= 0: every index is that
 * object's). */
static int parse_line(struct runner *r, struct parse *p, char *line, long force, struct objlines *ol)
{
	const char *accel = p->clock;
	char *tab = strchr(line, '\t');
	if (!tab || tab - line != 3 || strncmp(line, "RB", 2))
		return 0;
	if (!strncmp(line, "RBG\tuname\t", 10)) {
		snprintf(p->uname, sizeof(p->uname), "%s", line + 10);
		rb_gst_release_of(r, p->uname, p->release, sizeof(p->release));
		snprintf(r->st->release, sizeof(r->st->release), "%s", p->release);
		return 0;
	}
	if (!strncmp(line, "RBG\tclock\t", 10)) {
		snprintf(p->clock, sizeof(p->clock), "%s", line + 10);
		return 0;
	}
	if (!strncmp(line, "RBO\t", 4) || !strncmp(line, "RBE\t", 4) || !strncmp(line, "RBR\t", 4) ||
	    !strncmp(line, "RBZ\t", 4)) {
		char *end;
		unsigned long idx = strtoul(line + 4, &end, 10);
		if (force >= 0)
			idx = (unsigned long)force;
		if (idx >= r->n || *end != '\t')
			return 0;
		struct obj_state *s = &r->os[idx];
		char *rest = end + 1;
		if (ol && ol[idx].f && strncmp(line, "RBZ\t", 4) && strncmp(line, "RBO\t", 4))
			fprintf(ol[idx].f, "%s\n", line);
		if (line[2] == 'O') {
			if (!strcmp(rest, "begin"))
				s->begun = true;
			else if (!strcmp(rest, "end"))
				s->ended = true;
			else if (!strncmp(rest, "exit\t", 5))
				s->have_exit = true, s->exit_code = atoi(rest + 5);
			return 0;
		}
		if (line[2] == 'E') {
			rb_rowtext_unescape(rest);
			char msg[1024];
			host_msg(r, idx, rest, msg, sizeof(msg));
			return rb_gst_object_row(r, idx, RB_LOAD_ERROR, accel, p->release, "%.0s%s", msg);
		}
		if (line[2] == 'Z') {
			char *t2 = strchr(rest, '\t');
			if (!t2)
				return 0;
			*t2 = 0;
			rb_rowtext_unescape(rest);
			if (p->log_idx != idx || strcmp(p->log_name, rest)) {
				p->log_len = 0;
				if (p->log)
					p->log[0] = 0;
				p->log_idx = (unsigned)idx;
				snprintf(p->log_name, sizeof(p->log_name), "%s", rest);
			}
			log_append(p, t2 + 1);
			return 0;
		}
		struct rb_result_row row;
		unsigned ridx;
		memset(&row, 0, sizeof(row));
		if (rb_rowtext_parse_row(line, &ridx, &row) < 0)
			return 0;
		const struct rb_guest_obj *o = &r->objs[idx];
		if (!rb_filter_match(r->o->filter, o->path, row.prog.name))
			return 0;
		char pb[256];
	snprintf(row.prog.obj_path, sizeof(row.prog.obj_path), "%s",
		 strlen(o->path) < sizeof(row.prog.obj_path) ? o->path : rb_path_shown(o->path, pb, sizeof(pb)));
		snprintf(row.prog.source, sizeof(row.prog.source), "%s", o->source ? o->source : "");
		char msg[sizeof(row.res.msg)];
		host_msg(r, idx, row.res.msg, msg, sizeof(msg));
		snprintf(row.res.msg, sizeof(row.res.msg), "%s", msg);
		snprintf(row.tracker, sizeof(row.tracker), "%s", r->k->name);
		snprintf(row.kernel_release, sizeof(row.kernel_release), "%s", p->release);
		snprintf(row.clock, sizeof(row.clock), "%s", accel);
		row.repeats = 1;
		char *log = NULL;
		size_t loglen;
		if (p->log && p->log_idx == idx && !strcmp(p->log_name, row.prog.name) &&
		    rb_guest_inflate_b64(p->log, p->log_len, &log, &loglen) < 0)
			log = strdup("(the guest's log of this program is damaged)\n");
		int cb = r->fn(r->ctx, &row, r->o->want_log ? (log ? log : "") : NULL);
		free(log);
		if (cb < 0) {
			r->cb_failed = true;
			return -1;
		}
		p->log_len = 0;
		if (p->log)
			p->log[0] = 0;
		p->log_name[0] = 0;
	}
	return 0;
}

/* every line of a file; RBF blocks (the guest's inputs) written to
 * kdir/inputs */
static int parse_file(struct runner *r, struct parse *p, const char *path, long force, const char *accel,
		      struct objlines *ol, bool inputs)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct rb_err e;
	if (rb_read_file(path, (size_t)4 << 30, &buf, &len, &e) < 0)
		return 0; /* no such port: nothing said */
	if (!p->clock[0])
		snprintf(p->clock, sizeof(p->clock), "%s", accel);
	char *text = (char *)buf;
	char *b64 = NULL; /* start of an RBF block's body */
	char fname[32] = "";
	int rc = 0;
	for (size_t i = 0; i < len && rc == 0;) {
		char *line = text + i;
		char *eol = memchr(line, '\n', len - i);
		size_t l = eol ? (size_t)(eol - line) : len - i;
		i += l + (eol ? 1 : 0);
		if (!eol)
			break; /* a line cut off by the guest's end */
		line[l] = 0;
		if (l && line[l - 1] == '\r')
			line[--l] = 0;
		if (!strncmp(line, "RBF\t", 4)) {
			char *t = strchr(line + 4, '\t');
			if (!t)
				continue;
			*t = 0;
			if (!strcmp(t + 1, "begin")) {
				snprintf(fname, sizeof(fname), "%s", line + 4);
				b64 = eol + 1;
			} else if (!strcmp(t + 1, "end") && b64 && inputs && !strcmp(fname, line + 4)) {
				char dir[PATH_MAX + 16], out[PATH_MAX + 48];
				snprintf(dir, sizeof(dir), "%s/inputs", r->kdir);
				mkdir(dir, 0755);
				snprintf(out, sizeof(out), "%s/%s", dir, fname);
				rb_guest_inputs_write(out, b64, (size_t)(line - b64), &e);
				b64 = NULL;
			}
			continue;
		}
		if (b64)
			continue;
		rc = parse_line(r, p, line, force, ol);
	}
	free(buf);
	return rc;
}

static void cache_path(const struct runner *r, size_t i, char *out, size_t len)
{
	const char *t = r->objs[i].prog_type;
	snprintf(out, len, "%s/%s-%s.rows", r->cache, r->os[i].sha256, t && *t ? t : "-");
	for (char *s = out + strlen(r->cache) + 1; *s; s++)
		if (*s == '/')
			*s = '_';
}


/* A guest ended: its rows, then a row for every object it did not
 * finish. Returns 1 when the batch must run again (under TCG when KVM
 * does not work here; or its guest did not boot: booted MAX_BOOTS times
 * at most), 0, or -1 (callback failed). */
int rb_gst_finish_guest(struct runner *r, struct guest *g, int status)
{
	char first[PATH_MAX + 16];
	snprintf(first, sizeof(first), "%s/ttyS1", g->dir);
	char qout[PATH_MAX + 16];
	snprintf(qout, sizeof(qout), "%s/qemu.out", g->dir);
	bool reported = rb_gst_file_has(first, "RBG\tuname\t");
	if (!reported && !strcmp(g->accel, "kvm") && !g->stopped) {
		r->kvm_broken = true;
		if (r->o->progress)
			fprintf(r->o->progress, "%s: KVM does not work here, TCG from now on\n", r->k->name);
		rb_gst_rm_dir(g->dir);
		return 1;
	}
	if (!reported && !g->stopped && g->boots < MAX_BOOTS) {
		char crash[512], last[512];
		rb_gst_crash_line(g->dir, crash, sizeof(crash), last, sizeof(last));
		if (r->o->progress)
			fprintf(r->o->progress, "%s: guest %d did not boot%s%s; booting it again\n", r->k->name, (int)g->pid,
				crash[0] || last[0] ? ": " : "", crash[0] ? crash : last);
		rb_gst_rm_dir(g->dir);
		return 1;
	}
	struct parse p;
	memset(&p, 0, sizeof(p));
	p.log_idx = (unsigned)-1;
	rb_gst_release_of(r, "?", p.release, sizeof(p.release));
	struct objlines *ol = calloc(r->n, sizeof(*ol));
	for (size_t j = 0; ol && !r->o->no_cache && !r->o->want_log && j < g->nbatch; j++) {
		size_t i = g->batch[j];
		if (!r->objs[i].prog && r->os[i].sha256[0])
			ol[i].f = open_memstream(&ol[i].buf, &ol[i].len);
	}
	int rc = 0;
	for (unsigned port = 1; port <= g->vcpus && rc == 0; port++) {
		char path[PATH_MAX + 16];
		snprintf(path, sizeof(path), "%s/ttyS%u", g->dir, port);
		rc = parse_file(r, &p, path, -1, g->accel, ol, port == 1 && g->dump_inputs);
	}
	char crash[512], last[512], why[600];
	rb_gst_crash_line(g->dir, crash, sizeof(crash), last, sizeof(last));
	if (g->stopped)
		snprintf(why, sizeof(why), "stopped");
	else if (g->killed_boot || !reported)
		snprintf(why, sizeof(why), "did not boot%s%s%s",
			 g->killed_cpu ? " (its CPU budget spent: hung)" : g->killed_boot ? " (timeout)" : "",
			 crash[0] || last[0] ? ": " : "", crash[0] ? crash : last);
	else if (crash[0])
		snprintf(why, sizeof(why), "guest kernel crashed: %s", crash);
	else if (g->killed_idle)
		snprintf(why, sizeof(why), "no output for %u s: killed",
			 r->o->idle_timeout_s ? r->o->idle_timeout_s : DEF_IDLE_S);
	else
		snprintf(why, sizeof(why), "guest ended early (qemu status %d)", status);
	for (size_t j = 0; j < g->nbatch && rc == 0; j++) {
		size_t i = g->batch[j];
		struct obj_state *s = &r->os[i];
		if (s->ended) {
			if (ol && ol[i].f && fclose(ol[i].f) == 0) {
				ol[i].f = NULL;
				char cp[PATH_MAX + 200], tmp[PATH_MAX + 210];
				cache_path(r, i, cp, sizeof(cp));
				snprintf(tmp, sizeof(tmp), "%s.tmp", cp);
				FILE *f = fopen(tmp, "w");
				if (f) {
					fprintf(f, "RBG\tclock\t%s\nRBG\tuname\t%s\n", g->accel, p.uname[0] ? p.uname : "?");
					bool ok = fwrite(ol[i].buf, 1, ol[i].len, f) == ol[i].len;
					if ((fclose(f) != 0 || !ok || rename(tmp, cp) != 0))
						unlink(tmp);
				}
			}
			continue;
		}
		if (s->begun && s->have_exit && s->exit_code != 0 && !crash[0] && !g->killed_idle) {
			char w[64];
			snprintf(w, sizeof(w), "exit status %d", s->exit_code);
			rc = rb_gst_object_row(r, i, RB_LOAD_ERROR, g->accel, p.release,
					"rangebench died inside guest %s verifying this object (%s)", w);
		} else {
			rc = rb_gst_object_row(r, i, g->killed_idle && !crash[0] ? RB_LIMIT : RB_LOAD_ERROR, g->accel,
					p.release, "guest %s: %s", why);
		}
	}
	for (size_t i = 0; ol && i < r->n; i++) {
		if (ol[i].f)
			fclose(ol[i].f);
		free(ol[i].buf);
	}
	free(ol);
	free(p.log);
	snprintf(r->st->accel, sizeof(r->st->accel), "%s", g->accel);
	if (r->o->progress)
		fprintf(r->o->progress, "%s: guest %d ended after %.1f s%s%s\n", r->k->name, (int)g->pid,
			rb_gst_now_s() - g->started, reported && !crash[0] && !g->killed_idle ? "" : ": ",
			reported && !crash[0] && !g->killed_idle ? "" : why);
	if (!getenv("RB_GUEST_KEEP"))
		rb_gst_rm_dir(g->dir);
	return rc < 0 ? -1 : 0;
}


/* A cache file holding a row whose message is a statistics line was
 * written by a guest whose classifier did not know that line (7.2's
 * "insns processed N", parsed since aee3295): its verdicts and messages
 * are not what this build would store (a run out of the instruction
 * budget stored as a failure "insns processed 1000001"), so the object is
 * verified again and its file rewritten. */
static bool cache_stale(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[8192];
	bool stale = false;
	while (!stale && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "RBR\t", 4))
			continue;
		char *msg = strrchr(line, '\t') + 1;
		size_t l = strcspn(msg, "\n");
		stale = l && rb_vlog_is_stats_line(msg, l);
	}
	fclose(f);
	return stale;
}

int rb_gst_from_cache(struct runner *r, size_t i, bool *hit)
{
	char cp[PATH_MAX + 200];
	cache_path(r, i, cp, sizeof(cp));
	*hit = false;
	if (access(cp, R_OK) != 0 || cache_stale(cp))
		return 0;
	struct parse p;
	memset(&p, 0, sizeof(p));
	p.log_idx = (unsigned)-1;
	rb_gst_release_of(r, "?", p.release, sizeof(p.release));
	*hit = true;
	r->os[i].cached = true;
	/* the file names the clock its rows were timed on */
	return parse_file(r, &p, cp, (long)i, "tcg", NULL, false);
}
