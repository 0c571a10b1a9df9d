/* raw_tp_args.h — tracepoint arguments a tp_btf program may see as NULL or
 * as an encoded error (Linux 6.18 raw_tp_null_args) */
#ifndef RB_ENGINE_RAW_TP_ARGS_H
#define RB_ENGINE_RAW_TP_ARGS_H

#include <stdint.h>

enum { RB_RAW_TP_MAYBE_NULL = 0x1, RB_RAW_TP_MAYBE_ERR = 0x2 };

/* the flags of argument `arg` (0-based, after __data) of tracepoint `tp`
 * (the name without btf_trace_): RB_RAW_TP_MAYBE_NULL, RB_RAW_TP_MAYBE_ERR */
unsigned rb_raw_tp_arg_flags(const char *tp, int arg);

#endif
