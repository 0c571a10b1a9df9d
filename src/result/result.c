/* result.c — names of verdicts: veristat's words (success, failure) and
 * ours for the rest; printed by verify, stored by the driver, used in
 * every SQL view and query. */
#include "result/result.h"

#include <string.h>

const char *rb_verdict_name(enum rb_verdict v)
{
	switch (v) {
	case RB_ACCEPT: return "success";
	case RB_REJECT: return "failure";
	case RB_UNSUPPORTED: return "unsupported";
	case RB_REFUSED: return "refused";
	case RB_UNAVAILABLE: return "unavailable";
	case RB_LIMIT: return "limit";
	case RB_LOAD_ERROR: return "load_error";
	case RB_ENGINE_BUG: return "engine_bug";
	}
	return "?";
}

int rb_verdict_parse(const char *s)
{
	for (int v = RB_ACCEPT; v < RB_VERDICT_COUNT; v++)
		if (!strcmp(rb_verdict_name((enum rb_verdict)v), s))
			return v;
	return -1;
}
