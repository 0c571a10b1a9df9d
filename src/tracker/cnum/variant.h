/* variant.h — the cnum folder is compiled twice into one binary:
 *
 *   "cnum"           the cnum representation with every algorithm the old
 *                    tracker (Linux 6.18.44) applies, and no other: old vs
 *                    cnum then measures the representation alone;
 *   "cnum-mainline"  the same sources built with RB_CNUM_MAINLINE_ALGOS:
 *                    mainline Linux's (2026) cnum tracker as merged, with
 *                    its algorithms newer than 6.18 that are not about the
 *                    representation (DIV/MOD by a constant, branch
 *                    simulation) and without the project's 6.18.44-style
 *                    sign extension.
 *
 * CN_SYM() gives every exported symbol of one build its own name (on top
 * of RB_SYM()'s width suffix), so both builds link side by side. The
 * Makefile's TRACKER_VARIANTS line adds the second build. arc.c and
 * bounds.c, which nothing here changes, are compiled once and shared
 * (their symbols are RB_SYM()'s; VARIANT_cnum_mainline_SHARED).
 */
#ifndef RB_TRACKER_CNUM_VARIANT_H
#define RB_TRACKER_CNUM_VARIANT_H

#include "tracker/width.h"

#ifdef RB_CNUM_MAINLINE_ALGOS
#define CN_SYM(name) RB_SYM(RB_CAT(name, _ml))
#define CN_NAME "cnum-mainline"
#else
#define CN_SYM(name) RB_SYM(name)
#define CN_NAME "cnum"
#endif

#endif
