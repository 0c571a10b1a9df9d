/* conf_default.c — embeds the checkout's kernels.conf with the assembler's
 * .incbin (path relative to the top of the checkout, where make runs; the
 * Makefile makes this object depend on it), NUL-terminated: the kernels a
 * binary knows when no kernels.conf is beside it. */
#include "kernels/conf_default.h"

__asm__(".pushsection .rodata\n"
	".global rb_kernels_conf_embedded\n"
	".type rb_kernels_conf_embedded, @object\n"
	"rb_kernels_conf_embedded:\n"
	".incbin \"kernels.conf\"\n"
	".byte 0\n"
	".size rb_kernels_conf_embedded, . - rb_kernels_conf_embedded\n"
	".popsection\n");
