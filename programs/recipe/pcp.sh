#!/usr/bin/env bash
# pcp.sh — the BPF objects embedded in pcp's BPF PMDA modules
# (/usr/lib/pcp/pmdas/bpf/modules/*.so). pcp is NOT installed: its .deb is
# fetched with `apt-get download` (cached in build/corpus-work/debs) and
# unpacked with `dpkg-deb -x`.
# usage: pcp.sh RANGEBENCH
. "$(dirname "$0")/lib.sh"
RB=$1
out=$CORPUS/pcp; tmp=$WORK/pcp; debs=$WORK/debs
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp" "$debs"
prov=$out/.provenance.tsv; : >"$prov"
ver=$(apt_cand pcp)
[ -n "$ver" ] && [ "$ver" != "(none)" ] || { apt-get update -qq >/dev/null 2>&1 || true;
	ver=$(apt-cache "${APT_O[@]}" policy pcp 2>/dev/null | awk '/Candidate:/ {print $2}'); }
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "pcp: no candidate version in the apt lists"
deb=$(ls "$debs"/pcp_"${ver/*:/}"_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	(cd "$debs" && apt-get "${APT_O[@]}" download -q "pcp=$ver") >"$WORK/pcp-download.log" 2>&1 ||
		die "pcp: apt-get download failed, see $WORK/pcp-download.log"
	deb=$(ls "$debs"/pcp_*.deb | head -1)
fi
dpkg-deb -x "$deb" "$tmp/root"
mods=$(ls "$tmp"/root/usr/lib/pcp/pmdas/bpf/modules/*.so | only_wanted pcp)
"$RB" extract -o "$tmp" $mods >"$tmp/extract.tsv"
cut -f5 "$tmp/extract.tsv" | keep_unique "$out" | provenance "$tmp/extract.tsv" pcp "$ver" "$tmp/root" >>"$prov"
log "pcp $ver: $(wc -l <"$prov") objects"
