/* conf_default.h — kernels.conf as it was at build time (conf_default.c). */
#ifndef RB_KERNELS_CONF_DEFAULT_H
#define RB_KERNELS_CONF_DEFAULT_H

extern const char rb_kernels_conf_embedded[];

#endif
