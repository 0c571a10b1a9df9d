#!/usr/bin/env bash
# repos.sh — optional corpus sources built from public repositories.
# The repository holds no recipe that builds another project's code: the
# tool that brings snapshots of public repositories to our machines
# (`fetch`) forbids committing such code, binaries built from it, or any
# script that would build it. So the per-project recipes live outside git,
# in programs/recipe/local/*.sh (git-ignored; see programs/README.md), and
# this script only gives them a common environment and runs them in name
# order. Without any local recipe, or without the git mirrors a recipe asks
# for ($RB_REPOS holding OWNER+NAME/repo bare repositories), each source is
# skipped with one line, and nothing else in the corpus (in particular the
# default corpus) depends on them.
# A local recipe is sourced with this file's functions: checkout (a
# mirror's tree), build (compile a list of files with the Debian clang and
# record provenance and failures), copy_objs, fresh and report; each writes
# corpus/<source>/ with .provenance.tsv (commit as version) and FAILURES.tsv.
. "$(dirname "$0")/lib.sh"
REPOS=${RB_REPOS:-}
# headers the Debian toolchain lacks for BPF-target builds: an empty
# gnu/stubs-32.h (glibc's headers on a target that is not x86_64), and the
# struct bpf_map_def of libbpf < 1.0 (build() adds it where a legacy
# source needs it)
STUBS=$WORK/repos-inc
mkdir -p "$STUBS/gnu" && : >"$STUBS/gnu/stubs-32.h"
cat >"$STUBS/bpf_map_def.h" <<'EOF'
struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};
EOF

# checkout SOURCE OWNER+NAME DIR [PATH...]: the repository's HEAD tree
# (or only the PATHs in it) into DIR; prints the commit. Fails (after one
# line) when there is no mirror.
# NAME may be a glob (OWNER+NAME patterns, e.g. "*+cilium" for forks):
# of the mirrors that match, the one whose HEAD commit is newest is used.
checkout() {
	local src=$1 name=$2 dir=$3 git="" m t best=-1
	shift 3
	if [ -n "$REPOS" ]; then
		for m in "$REPOS"/$name/repo; do
			t=$(git -C "$m" log -1 --format=%ct HEAD 2>/dev/null) || continue
			[ "$t" -gt "$best" ] && { best=$t; git=$m; }
		done
	fi
	if [ -z "$git" ]; then
		log "$src: skipped (no git mirror of ${name/+//}: set RB_REPOS=DIR with $name/repo in it)"
		return 1
	fi
	rm -rf "$dir"; mkdir -p "$dir"
	git -C "$git" archive HEAD -- "$@" | tar -x -C "$dir"
	git -C "$git" rev-parse --short=12 HEAD
}

# build SOURCE OUTDIR VERSION ORIGIN_PREFIX PROG_TYPE CFLAGS... : compile
# "src<TAB>out" lines from stdin into OUTDIR, recording provenance (with
# PROG_TYPE, the type the project's own loader gives sections libbpf does
# not know, "-" for none) and failures
build() {
	local src=$1 out=$2 ver=$3 pre=$4 ptype=$5; shift 5
	local f o rc
	while IFS=$'\t' read -r f o; do
		rc=0
		$CLANG "$@" -target bpf -c "$f" -o "$out/$o" 2>"$WORK/$src.$o.err" || rc=$?
		# a legacy SEC("maps") source written for libbpf < 1.0, whose
		# struct bpf_map_def Debian's libbpf 1.1 headers no longer declare:
		# again with that declaration
		if [ $rc -ne 0 ] && grep -q "incomplete type 'struct bpf_map_def'" "$WORK/$src.$o.err"; then
			rc=0
			$CLANG "$@" -include "$STUBS/bpf_map_def.h" -target bpf -c "$f" -o "$out/$o" \
				2>"$WORK/$src.$o.err" || rc=$?
		fi
		if [ $rc -eq 0 ]; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$o" "$src" "$ver" "${f#"$pre"/}" "$ptype" >>"$out/.provenance.tsv"
		else
			rm -f "$out/$o"
			printf '%s\t%s\n' "${f#"$pre"/}" "$(grep -m1 'error:' "$WORK/$src.$o.err" | sed "s|$pre/||")" \
				>>"$out/FAILURES.tsv"
		fi
	done
}

fresh() { rm -rf "$1"; mkdir -p "$1"; : >"$1/.provenance.tsv"; printf 'file\terror\n' >"$1/FAILURES.tsv"; }
report() { log "$1 $2: $(wc -l <"$3/.provenance.tsv") objects, $(($(wc -l <"$3/FAILURES.tsv") - 1)) failures"; }

# copy_objs SOURCE OUTDIR VERSION ORIGIN OBJ... : objects a project's own
# Makefile built, with provenance
copy_objs() {
	local src=$1 out=$2 ver=$3 origin=$4 o; shift 4
	for o in "$@"; do
		[ -s "$o" ] || continue
		cp "$o" "$out/"
		printf '%s\t%s\t%s\t%s\t-\n' "$(basename "$o")" "$src" "$ver" "$origin/$(basename "$o")" >>"$out/.provenance.tsv"
	done
}

VMLINUX_INC=$WORK/inc
LOCAL=${RB_LOCAL_RECIPES:-$RECIPE/local}
shopt -s nullglob
recipes=("$LOCAL"/*.sh)
if [ ${#recipes[@]} -eq 0 ]; then
	log "repos: skipped (no local recipe in $LOCAL: see programs/README.md)"
	exit 0
fi
for r in "${recipes[@]}"; do
	# shellcheck source=/dev/null
	. "$r"
done
