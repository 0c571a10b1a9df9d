#!/usr/bin/env bash
# kernel-headers.sh — unpack the parts of the linux-source-6.1 tarball the
# BPF programs need (tools/, scripts/bpf_doc.py) and generate the headers
# the kernel's own build would generate:
#   $WORK/inc/vmlinux.h          bpftool btf dump file $VMLINUX_BTF format c
#   $WORK/inc/bpf/*.h            the 6.1 tree's libbpf headers (tools/lib/bpf)
#   $WORK/inc/bpf/bpf_helper_defs.h  scripts/bpf_doc.py --header (as tools/lib/bpf/Makefile does)
. "$(dirname "$0")/lib.sh"
[ -r "$KSRC_TAR" ] || die "$KSRC_TAR missing (package linux-source-6.1)"
[ -r "$VMLINUX_BTF" ] || die "$VMLINUX_BTF missing: the kernel has no BTF"
rm -rf "$KSRC" "$WORK/inc"
mkdir -p "$WORK/inc/bpf"
# The tarball is 55 independent xz blocks of 24 MiB, and what is needed
# lies in its last 5 (tar_xz_members.py: the archive from the first of these
# members on, decompressing only those blocks; about 2 s of CPU instead of
# the whole 1.3 GB's 10 s). Where that cannot be done (it exits 3, having
# written nothing), the whole archive, decompressed on every core (xz -T0).
members=(linux-source-6.1/tools linux-source-6.1/scripts/bpf_doc.py)
if ! "$PYTHON3" "$RECIPE/tar_xz_members.py" "$KSRC_TAR" "${members[@]}" | tar -xf - -C "$WORK" "${members[@]}"; then
	log "kernel sources: reading the whole tarball"
	rm -rf "$KSRC"
	tar -I "xz -T0" -xf "$KSRC_TAR" -C "$WORK" "${members[@]}"
fi
bpftool btf dump file "$VMLINUX_BTF" format c >"$WORK/inc/vmlinux.h"
cp "$KSRC"/tools/lib/bpf/{bpf_helpers,bpf_tracing,bpf_core_read,bpf_endian,usdt.bpf}.h "$WORK/inc/bpf/"
"$PYTHON3" "$KSRC/scripts/bpf_doc.py" --header --file "$KSRC/tools/include/uapi/linux/bpf.h" \
	>"$WORK/inc/bpf/bpf_helper_defs.h"
log "kernel sources unpacked, vmlinux.h ($(wc -l <"$WORK/inc/vmlinux.h") lines) generated"
