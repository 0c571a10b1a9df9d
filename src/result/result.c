/* result.c — names of verdicts, as printed in the Verdict column and
 * stored by the driver. */
#include "result/result.h"

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
	}
	return "?";
}
