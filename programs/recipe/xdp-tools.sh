#!/usr/bin/env bash
# xdp-tools.sh — xdp-tools objects: the .o files libxdp1 ships in
# /usr/lib/x86_64-linux-gnu/bpf/ and the objects embedded (libbpf skeletons)
# in the xdp-tools executables. Embedded copies identical to a shipped .o
# are kept once, under the shipped name.
# usage: xdp-tools.sh RANGEBENCH
. "$(dirname "$0")/lib.sh"
RB=$1
out=$CORPUS/xdp-tools; tmp=$WORK/xdp-tools
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp"
prov=$out/.provenance.tsv; : >"$prov"

for f in /usr/lib/x86_64-linux-gnu/bpf/*.o; do echo "$f"; done | keep_unique "$out" |
	awk -v ver="$(pkg_version libxdp1)" '{ printf "%s\tlibxdp1\t%s\t/usr/lib/x86_64-linux-gnu/bpf/%s\n", $0, ver, $0 }' >>"$prov"

exes=$(dpkg -L xdp-tools | grep '^/usr/sbin/.' | only_wanted xdp-tools)
"$RB" extract -o "$tmp" $exes >"$tmp/extract.tsv"
cut -f5 "$tmp/extract.tsv" | keep_unique "$out" |
	provenance "$tmp/extract.tsv" xdp-tools "$(pkg_version xdp-tools)" >>"$prov"
log "xdp-tools: $(wc -l <"$prov") objects"
