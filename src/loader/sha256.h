/* sha256.h — SHA-256 (FIPS 180-4) of a memory buffer, as a hex string, used
 * to identify object files in results. */
#ifndef RB_LOADER_SHA256_H
#define RB_LOADER_SHA256_H

#include <stddef.h>

/* Writes 64 lowercase hex digits and a NUL into hex. */
void rb_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
