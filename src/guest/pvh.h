/* pvh.h — the file QEMU boots: a bzImage's kernel itself where it can.
 *
 * A bzImage (Debian's vmlinuz) carries the kernel zstd-compressed; booted
 * as it is, its decompressor runs in the guest, under TCG about a second
 * of CPU of every boot. A kernel built with CONFIG_PVH (Debian's 7.2 cloud
 * image is) is also an ELF with a PVH entry note that QEMU's -kernel starts
 * directly: the same kernel, uncompressed on the host once (the zstd tool)
 * into the kernel's cache directory as vmlinux-IMAGEHASH16, and booted
 * from there (no KASLR: the decompressor is what randomizes). An image
 * that is not a zstd bzImage, no zstd tool, or an ELF without the note:
 * the image as it is. */
#ifndef RB_GUEST_PVH_H
#define RB_GUEST_PVH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the zstd payload of a bzImage: offset, length (without the trailing
 * size) and the size it decompresses to; -1 if img is not one */
int rb_pvh_payload(const uint8_t *img, size_t len, size_t *off, size_t *plen, uint32_t *size);
/* elf (len bytes) is an x86-64 ELF executable whose notes name a PVH entry */
bool rb_pvh_has_entry(const uint8_t *elf, size_t len);
/* the uncompressed kernel of the image of content hash ih, if kdir has
 * it: true and its path in out */
bool rb_pvh_cached(const char *kdir, const char *ih, char *out, size_t outlen);
/* the uncompressed kernel of the bzImage img (content hash ih) in kdir,
 * made there if missing: true and its path in out, or false (boot img) */
bool rb_pvh_image(const char *kdir, const char *ih, const uint8_t *img, size_t len, char *out, size_t outlen);

#endif
