#!/usr/bin/env bash
# variant_shared.sh — the files the Makefile compiles once for both builds
# of src/tracker/cnum (VARIANT_cnum_mainline_SHARED: "cnum" and
# "cnum-mainline") must be the same code under both: a hand-kept list that
# this checks, so that an #ifdef RB_CNUM_MAINLINE_ALGOS added to one of
# them, or a call from one of them into a function each build has its own
# copy of, fails here instead of giving cnum-mainline cnum's code.
source tests/cli/lib/tap.sh
shared=$(sed -n 's/^VARIANT_cnum_mainline_SHARED := //p' Makefile)
check "the Makefile names the shared files" "[ -n '$shared' ]"
dir=src/tracker/cnum
cpp_flags="-std=c11 -D_GNU_SOURCE -E -P -Isrc -Ibuild/libbpf-include"
for f in $shared; do
	# (1) the same source text under both builds, once each build's own
	# symbol names (CN_SYM: _ml before the width suffix) and the
	# prototypes at file level (reg.h declares one function for the
	# mainline build only) are set aside
	for w in 64 32 16 8; do
		cc $cpp_flags -DRB_BITS=$w "$dir/$f" 2>"$tmp/err" |
			grep -v '^[A-Za-z_].*);$' > "$tmp/plain.$f.$w"
		cc $cpp_flags -DRB_BITS=$w -DRB_CNUM_MAINLINE_ALGOS "$dir/$f" 2>>"$tmp/err" |
			sed 's/_ml_w\([0-9]\)/_w\1/g' | grep -v '^[A-Za-z_].*);$' > "$tmp/ml.$f.$w"
	done
	check "$f: the same code in both builds at every width" \
		"( for w in 64 32 16 8; do cmp -s $tmp/plain.$f.\$w $tmp/ml.$f.\$w || exit 1; done )" "$tmp/err"
	# (2) no call from the shared object into a function of which each
	# build has its own copy (the mainline build's copy: NAME_ml_wN)
	obj=build/test/obj/w64/tracker/cnum/${f%.c}.o
	own=$(for o in build/test/obj/w64/variant/cnum_mainline/*.o; do
		b=${o##*/} # (no basename process per object)
		case " $shared " in *" ${b%.o}.c "*) continue ;; esac
		nm --defined-only "$o"; done | awk '$3 ~ /_ml_w64$/ {sub(/_ml_w64$/, "_w64", $3); print $3}' | sort -u)
	nm -u "$obj" | awk '{print $2}' | sort -u > "$tmp/undef.$f"
	printf '%s\n' $own | sort -u | comm -12 - "$tmp/undef.$f" > "$tmp/calls.$f"
	check "$f: calls no function the two builds each have a copy of" \
		"[ -n '$own' ] && [ -s $tmp/undef.$f ] && [ ! -s $tmp/calls.$f ]" "$tmp/calls.$f"
done
