#!/usr/bin/env bash
# debian-extra.sh — optional: BPF objects that other Debian packages ship
# or embed, kept out of the default corpus. Each package's .deb is fetched
# with `apt-get download` (cached in build/corpus-work/debs, never
# installed) and unpacked; a package that cannot be fetched (no network, no
# candidate) is skipped with one line and the rest go on.
#   ir-keytable       /lib/udev/rc_keymaps/protocols/*.o: IR protocol
#                     decoders (lirc_mode2), v4l-utils' own bpf_load.c
#                     conventions (maps in "lirc_mode2/maps", .data
#                     variables patched in as immediates)
#   libknot13         the XDP DNS redirect program embedded in libknot.so
#   qemu-system-x86   the tun RSS steering program embedded in
#                     qemu-system-x86_64; QEMU loads it as a socket filter
#                     (ebpf/ebpf_rss.c), so its manifest row says so
#   xdp-tests         xdp-tools' test programs (/usr/libexec/xdp-tools/*.o)
# Writes corpus/debian-extra/ with .provenance.tsv (package, version, path
# in the package, program type where the project's loader decides it).
# usage: debian-extra.sh RANGEBENCH
. "$(dirname "$0")/lib.sh"
RB=$1
out=$CORPUS/debian-extra; tmp=$WORK/debian-extra
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp"
prov=$out/.provenance.tsv; : >"$prov"

# add PKG VERSION PROG_TYPE FILE...: objects (or executables embedding
# them) of PKG, deduplicated by content
add() {
	local pkg=$1 ver=$2 ptype=$3 f o; shift 3
	for f in "$@"; do
		[ -f "$f" ] || continue
		if [ "$(od -An -tx1 -N4 "$f" | tr -d ' ')" = 7f454c46 ] &&
			[ "$(od -An -tu2 -j18 -N2 "$f" | tr -d ' ')" = 247 ]; then
			cp "$f" "$tmp/$pkg.$(basename "$f")"
			echo "$tmp/$pkg.$(basename "$f")"
		else
			"$RB" extract -o "$tmp" "$f" | cut -f5
		fi | keep_unique "$out" | while read -r o; do
			printf '%s\t%s\t%s\t%s\t%s\n' "$o" "$pkg" "$ver" "${f#"$tmp/root/$pkg"}" "$ptype" >>"$prov"
		done
	done
}

for pkg in ir-keytable libknot13 qemu-system-x86 xdp-tests; do
	if ! ver=$(deb_unpack "$pkg" "$tmp/root/$pkg"); then
		log "debian-extra: $pkg skipped (cannot fetch its package)"
		continue
	fi
	r=$tmp/root/$pkg
	case $pkg in
	ir-keytable) add "$pkg" "$ver" - "$r"/lib/udev/rc_keymaps/protocols/*.o ;;
	libknot13) add "$pkg" "$ver" - "$r"/usr/lib/x86_64-linux-gnu/libknot.so.* ;;
	qemu-system-x86) add "$pkg" "$ver" socket_filter "$r"/usr/bin/qemu-system-x86_64 ;;
	xdp-tests) add "$pkg" "$ver" - "$r"/usr/libexec/xdp-tools/*.o ;;
	esac
done
log "debian-extra: $(wc -l <"$prov") objects"
