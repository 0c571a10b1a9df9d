/* metrics.c — the metric rows (see metrics.h) and access by index. */
#include "result/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "result/result.h"

#define RB_MTYPE_REAL_u64 false
#define RB_MTYPE_REAL_f64 true

const struct rb_metric_def rb_metrics[RB_METRIC_COUNT] = {
#define RB_M_DEF(id, field, type, column_, name_, title_, vtitle_, vcsv_, fmt_, flags_, klog_)        \
	[RB_M_##id] = {.column = column_, .name = name_, .title = title_, .vtitle = vtitle_,             \
		       .vcsv = vcsv_, .klog = klog_, .fmt = fmt_, .flags = flags_, .real = RB_MTYPE_REAL_##type},
	RB_METRICS(RB_M_DEF)
#undef RB_M_DEF
};

double rb_metric_get(const struct rb_result *r, enum rb_metric m)
{
	switch (m) {
#define RB_M_GET(id, field, ...)                                                                       \
	case RB_M_##id: return (double)r->field;
		RB_METRICS(RB_M_GET)
#undef RB_M_GET
	case RB_METRIC_COUNT: break;
	}
	return 0;
}

void rb_metric_set(struct rb_result *r, enum rb_metric m, double v)
{
	switch (m) {
#define RB_M_SET(id, field, type, ...)                                                                 \
	case RB_M_##id: r->field = (RB_MTYPE_##type)v; break;
		RB_METRICS(RB_M_SET)
#undef RB_M_SET
	case RB_METRIC_COUNT: break;
	}
}

int rb_metric_parse(const char *name)
{
	for (int m = 0; m < RB_METRIC_COUNT; m++)
		if (!strcmp(rb_metrics[m].name, name))
			return m;
	return -1;
}

/* the number after the last "KEY " followed by a digit in log, or -1 */
static long double klog_value(const char *log, const char *key)
{
	size_t kl = strlen(key);
	long double v = -1;
	for (const char *p = log; (p = strstr(p, key)) != NULL; p += kl)
		if (p[kl] == ' ' && p[kl + 1] >= '0' && p[kl + 1] <= '9')
			v = (long double)strtoull(p + kl + 1, NULL, 10);
	return v;
}

bool rb_metrics_from_klog(const char *log, struct rb_result *r)
{
	if (!log || klog_value(log, rb_metrics[RB_M_INSNS].klog) < 0)
		return false;
	for (int m = 0; m < RB_METRIC_COUNT; m++)
		if (rb_metrics[m].klog) {
			long double v = klog_value(log, rb_metrics[m].klog);
			rb_metric_set(r, (enum rb_metric)m, v < 0 ? 0 : (double)v);
		}
	return true;
}
