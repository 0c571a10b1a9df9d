/* cmd_plot.c — `rangebench plot`: for each chart row of src/report/charts.c,
 * export its data from the results database and render its script
 * plots/NAME.gp with gnuplot into PNG and SVG. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "verify/row.h"
#include "cli/commands.h"
#include "util/root.h"
#include "report/charts.h"
#include "store/store.h"
#include "tracker/tracker.h"
#include "util/array_size.h"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench plot [--db FILE] [-o DIR] [--format png,svg] [--only NAME]\n"
		"                       [--baseline NAME] [--candidate NAME] [RUN [RUN_B]]\n"
		"\n"
		"Exports the charts' data from the results database to DIR/data/*.tsv and renders\n"
		"each plots/NAME.gp with gnuplot into DIR/NAME.png and DIR/NAME.svg (1600x900).\n"
		"RUN (id or label; default: the latest run) feeds the per-run charts. The\n"
		"before/after chart compares RUN_B with RUN, or RUN with the run before it.\n"
		"Charts with nothing to draw (no candidate results yet, no census, no bench run, no\n"
		"point a log scale can show) are skipped with a note. The charts are the rows of\n"
		"src/report/charts.c, each with its script plots/NAME.gp.\n"
		"\n"
		"  -o DIR        output directory (default: plots/out)\n"
		"  --format LIST png, svg or both (default: png,svg)\n"
		"  --only NAME   render one chart\n"
		"  --baseline NAME, --candidate NAME\n"
		"                the two trackers the pair charts compare (default old, cnum; a\n"
		"                registry tracker or kernel); the other charts show every tracker\n");
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -1;
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/* start gnuplot on the variables file `args`, then the script; its
 * messages go to logpath. Paths travel as gnuplot string literals in
 * args (rb_gp_string), never through a shell or gnuplot's command line.
 * 0, or -2 when gnuplot cannot be run. */
static int render_start(const char *script, const char *args, const char *logpath, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	char *argv[] = {"gnuplot", (char *)args, (char *)script, NULL};
	int rc = posix_spawnp(pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc != 0 ? -2 : 0;
}

/* that gnuplot's end: 0 when it exited 0 */
static int render_wait(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* What gnuplot wrote, checked: it exits 0 when the disk fills up under
 * it, leaving an empty or cut file. A PNG must hold its chunks up to
 * IEND, whole; an SVG must end with </svg>. NULL when it is whole, else
 * what is wrong. */
static const char *check_image(const char *path, bool png)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return "missing";
	unsigned char buf[72];
	const char *bad = NULL;
	if (png) {
		static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
		bad = fread(buf, 1, 8, f) != 8 || memcmp(buf, sig, 8) ? "empty or not a PNG" : NULL;
		/* chunks: 4-byte length, type, data, CRC; IEND last */
		while (!bad) {
			unsigned char h[8];
			if (fread(h, 1, 8, f) != 8) {
				bad = "truncated (no IEND chunk)";
				break;
			}
			long len = (long)((uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3]);
			long here = ftell(f);
			if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < here + len + 4) {
				bad = "truncated (a chunk is cut)";
				break;
			}
			if (!memcmp(h + 4, "IEND", 4))
				break;
			fseek(f, here + len + 4, SEEK_SET);
		}
	} else {
		long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
		long from = size > 64 ? size - 64 : 0;
		size_t n = size > 0 && fseek(f, from, SEEK_SET) == 0 ? fread(buf, 1, 64, f) : 0;
		buf[n] = 0;
		bad = size <= 0 ? "empty" : !strstr((char *)buf, "</svg>") ? "truncated (no </svg>)" : NULL;
	}
	fclose(f);
	return bad;
}

static void print_log(const char *logpath)
{
	FILE *f = fopen(logpath, "r");
	if (!f)
		return;
	char line[512];
	int n = 0;
	while (fgets(line, sizeof(line), f) && n++ < 15)
		fprintf(stderr, "    %s", line);
	fclose(f);
}

/* a run's label for a chart title; quotes, backslashes and control
 * characters dropped */
static void label_of(struct rb_store *st, int64_t run, char *out, size_t len)
{
	out[0] = 0;
	char label[128], status[32], trackers[256];
	struct rb_err err;
	if (run < 0 || rb_store_run_describe(st, run, label, sizeof(label), status, sizeof(status), trackers,
					     sizeof(trackers), &err) < 0)
		return;
	size_t k = 0;
	for (const char *l = label; *l && k + 1 < len; l++)
		if (*l != '\'' && *l != '"' && *l != '\\' && (unsigned char)*l >= ' ' && *l != 0x7f)
			out[k++] = *l;
	out[k] = 0;
}

struct plot_cli {
	char root[PATH_MAX], db_default[PATH_MAX + 32], out_default[PATH_MAX + 32];
	const char *db, *outdir, *formats, *only;
	const char *baseline, *candidate; /* the pair compared by role */
	bool want_png, want_svg;
	int nruns; /* RUN [RUN_B] given */
};

/* the command line into *c: -1 to go on, else the exit code */
static int parse_args(int argc, char **argv, struct plot_cli *c)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},   {"format", required_argument, NULL, 'F'},
		{"only", required_argument, NULL, 'O'}, {"help", no_argument, NULL, 'h'},
		{"baseline", required_argument, NULL, 'B'}, {"candidate", required_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	memset(c, 0, sizeof(*c));
	rb_project_root(c->root, sizeof(c->root));
	snprintf(c->db_default, sizeof(c->db_default), "%s/db/results.sqlite", c->root);
	snprintf(c->out_default, sizeof(c->out_default), "%s/plots/out", c->root);
	c->db = c->db_default;
	c->outdir = c->out_default;
	c->formats = "png,svg";
	c->baseline = RB_ROLE_BASELINE;
	c->candidate = RB_ROLE_CANDIDATE;
	int key;
	optind = 1;
	while ((key = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (key) {
		case 'd': c->db = optarg; break;
		case 'o': c->outdir = optarg; break;
		case 'F': c->formats = optarg; break;
		case 'O': c->only = optarg; break;
		case 'B': c->baseline = optarg; break;
		case 'C': c->candidate = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	c->want_png = strstr(c->formats, "png") != NULL;
	c->want_svg = strstr(c->formats, "svg") != NULL;
	if (!c->want_png && !c->want_svg) {
		fprintf(stderr, "rangebench plot: --format wants png, svg or png,svg\n");
		return 2;
	}
	if (!rb_row_known(c->baseline, true) || !rb_row_known(c->candidate, true) ||
	    !strcmp(c->baseline, c->candidate)) {
		char names[384];
		rb_row_names(names, sizeof(names), ", ", true);
		fprintf(stderr, "rangebench plot: --baseline and --candidate take two different trackers of: %s\n",
			names);
		return 2;
	}
	c->nruns = argc - optind;
	if (c->nruns > 2) {
		usage(stderr);
		return 2;
	}
	bool known = !c->only;
	for (const struct rb_chart *ch = rb_charts; c->only && ch->name; ch++)
		known |= !strcmp(c->only, ch->name);
	if (!known) {
		fprintf(stderr, "rangebench plot: no chart '%s'\n", c->only);
		return 2;
	}
	return -1;
}

/* the runs the charts read: RUN (default the latest), the before/after
 * pair, the latest census and bench runs; 0, or -1 with err */
static int find_runs(struct rb_store *st, char **args, int nruns, struct rb_chart_runs_ids *runs,
		     struct rb_err *err)
{
	*runs = (struct rb_chart_runs_ids){.run = -1, .before = -1, .after = -1, .census = -1, .bench = -1};
	if (nruns >= 1 && rb_store_find_run(st, args[0], "verify", &runs->run, err) < 0)
		return -1;
	int r = nruns ? 0 : rb_store_latest_run(st, "verify", &runs->run, err);
	if (r < 0)
		return -1;
	if (r > 0)
		runs->run = -1;
	if (nruns == 2) {
		runs->before = runs->run;
		if (rb_store_find_run(st, args[1], "verify", &runs->after, err) < 0)
			return -1;
	} else if (runs->run >= 0) {
		/* the run before this one */
		if (rb_store_previous_run(st, runs->run, &runs->before, err) < 0)
			return -1;
		if (runs->before >= 0)
			runs->after = runs->run;
	}
	if ((r = rb_store_latest_run(st, "census", &runs->census, err)) < 0)
		return -1;
	if (r > 0)
		runs->census = -1;
	if ((r = rb_store_latest_run(st, "bench", &runs->bench, err)) < 0)
		return -1;
	if (r > 0)
		runs->bench = -1;
	return 0;
}

/* "run 3 (before) -> run 5 (after)" for the before/after chart */
/* the two runs of the before/after chart as the chart names them: each
 * "run N (label)", and "A -> B" */
struct ba_names {
	char a[96], b[96], ab[200];
};

static void before_after_names(struct rb_store *st, const struct rb_chart_runs_ids *runs, struct ba_names *n)
{
	char la[64] = "", lb[64] = "";
	label_of(st, runs->before, la, sizeof(la));
	label_of(st, runs->after, lb, sizeof(lb));
	snprintf(n->a, sizeof(n->a), "run %lld%s%s%s", (long long)runs->before, *la ? " (" : "", la, *la ? ")" : "");
	snprintf(n->b, sizeof(n->b), "run %lld%s%s%s", (long long)runs->after, *lb ? " (" : "", lb, *lb ? ")" : "");
	snprintf(n->ab, sizeof(n->ab), "%s -> %s", n->a, n->b);
}

/* the variables of one rendering (gnuplot assignments) into path */
static int write_args(const char *path, const struct plot_cli *c, const struct rb_chart *ch, const char *datadir,
		      const char *ext, const struct ba_names *ba)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	char out[PATH_MAX + 64], plotdir[PATH_MAX + 16];
	snprintf(out, sizeof(out), "%s/%s", c->outdir, ch->name);
	snprintf(plotdir, sizeof(plotdir), "%s/plots", c->root);
	const char *name[] = {"data", "out", "fmt", "plotdir", "title_ab", "run_a", "run_b", "base", "cand"};
	const char *val[] = {datadir, out, ext, plotdir, ba->ab, ba->a, ba->b, c->baseline, c->candidate};
	fprintf(f, "# the variables of plots/%s.gp for one rendering (rangebench plot)\n", ch->name);
	for (size_t i = 0; i < ARRAY_SIZE(name); i++) {
		fprintf(f, "%s = ", name[i]);
		rb_gp_string(f, val[i]);
		fputc('\n', f);
	}
	bool bad = ferror(f) != 0;
	return fclose(f) != 0 || bad ? -1 : 0;
}

/* render one chart whose data is in datadir, in each format asked for: 0
 * done, 1 gnuplot failed (its log printed) or wrote a broken image
 * (removed), -1 a fatal error (printed). The formats render side by side,
 * one gnuplot each (PNG about 1.3 s of CPU for the main job's charts, SVG
 * 0.5 s: the charts step's wall time was their sum); the PNG's variables
 * and log are kept aside until it is done, so that the data directory
 * ends with the last format's, as when they ran one after the other. */
static int render_chart(const struct plot_cli *c, const struct rb_chart *ch, const char *datadir,
			const struct ba_names *ba)
{
	char script[PATH_MAX + 64];
	struct {
		char args[PATH_MAX + 64], log[PATH_MAX + 64], image[PATH_MAX + 64];
		pid_t pid;
		bool started, aside;
	} f[2];
	snprintf(script, sizeof(script), "%s/plots/%s.gp", c->root, ch->name);
	bool want[2] = {c->want_png, c->want_svg};
	int rc = 0;
	for (int fmt = 0; fmt < 2; fmt++) {
		const char *ext = fmt == 0 ? "png" : "svg";
		f[fmt].started = false;
		f[fmt].aside = fmt == 0 && want[1];
		const char *tag = f[fmt].aside ? ".png" : "";
		snprintf(f[fmt].log, sizeof(f[fmt].log), "%s/%s%s.log", datadir, ch->name, tag);
		snprintf(f[fmt].args, sizeof(f[fmt].args), "%s/%s%s.args.gp", datadir, ch->name, tag);
		snprintf(f[fmt].image, sizeof(f[fmt].image), "%s/%s.%s", c->outdir, ch->name, ext);
		if (!want[fmt])
			continue;
		if (write_args(f[fmt].args, c, ch, datadir, ext, ba) < 0) {
			fprintf(stderr, "rangebench plot: cannot write %s: %s\n", f[fmt].args, strerror(errno));
			rc = -1;
			break;
		}
		if (render_start(script, f[fmt].args, f[fmt].log, &f[fmt].pid) < 0) {
			fprintf(stderr, "rangebench plot: cannot run gnuplot (install gnuplot-nox)\n");
			rc = -1;
			break;
		}
		f[fmt].started = true;
	}
	for (int fmt = 0; fmt < 2; fmt++) {
		if (!f[fmt].started)
			continue;
		int r = render_wait(f[fmt].pid);
		if (rc < 0)
			continue; /* a fatal error: only the gnuplots started are waited for */
		if (r < 0) {
			fflush(stdout);
			fprintf(stderr, "rangebench plot: %s failed (%s):\n", script, fmt == 0 ? "png" : "svg");
			print_log(f[fmt].log);
			rc = 1;
			continue;
		}
		const char *bad = check_image(f[fmt].image, fmt == 0);
		if (bad) {
			fflush(stdout);
			fprintf(stderr, "rangebench plot: gnuplot exited 0 but %s is %s (disk full?); removed\n",
				f[fmt].image, bad);
			unlink(f[fmt].image);
			rc = 1;
			continue;
		}
		printf("%-8s %s  (%s)\n", "wrote", f[fmt].image, ch->title);
	}
	if (f[0].aside) {
		unlink(f[0].args);
		unlink(f[0].log);
	}
	return rc;
}

/* export and render every chart (or --only's): the exit code, or -1 with err */
static int plot_all(struct rb_store *st, const struct plot_cli *c, const struct rb_chart_runs_ids *runs,
		    struct rb_err *err)
{
	char datadir[PATH_MAX + 16];
	if (snprintf(datadir, sizeof(datadir), "%s/data", c->outdir) >= (int)sizeof(datadir) ||
	    mkdir_p(datadir) < 0) {
		fprintf(stderr, "rangebench plot: cannot create %s: %s\n", datadir, strerror(errno));
		return 2;
	}
	struct ba_names ba;
	before_after_names(st, runs, &ba);
	int rc = 0, rendered = 0, skipped = 0, failed = 0;
	for (const struct rb_chart *ch = rb_charts; ch->name; ch++) {
		if (c->only && strcmp(c->only, ch->name))
			continue;
		int64_t n = 0;
		if (rb_chart_export(rb_store_db(st), ch, runs, datadir, &n, err) < 0)
			return -1;
		if (n == 0) {
			printf("skipped  %-15s nothing to draw (needs %s)\n", ch->name, ch->needs);
			skipped++;
			continue;
		}
		int r = render_chart(c, ch, datadir, &ba);
		if (r < 0)
			return 2;
		if (r > 0)
			rc = 2;
		rendered += r == 0;
		failed += r != 0;
	}
	fflush(stdout);
	printf("%d chart%s rendered, %d skipped, %d failed; data in %s\n", rendered, rendered == 1 ? "" : "s",
	       skipped, failed, datadir);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_cli c;
	int rc = parse_args(argc, argv, &c);
	if (rc >= 0)
		return rc;
	struct rb_store *st;
	struct rb_err err = {{0}};
	if (rb_store_open_read(c.db, &st, &err) < 0) {
		fprintf(stderr, "rangebench plot: %s\n", err.msg);
		return 2;
	}
	struct rb_chart_runs_ids runs;
	rc = find_runs(st, argv + optind, c.nruns, &runs, &err);
	runs.baseline = c.baseline;
	runs.candidate = c.candidate;
	if (rc == 0)
		rc = plot_all(st, &c, &runs, &err);
	if (rc < 0) {
		fprintf(stderr, "rangebench plot: %s\n", err.msg);
		rc = 2;
	}
	rb_store_close(st);
	return rc;
}
