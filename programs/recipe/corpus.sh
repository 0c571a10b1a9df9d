#!/usr/bin/env bash
# corpus.sh RANGEBENCH — build the corpus of real BPF objects under
# programs/corpus/ (called by `make corpus`). Steps, each cached by a stamp
# keyed on a hash of its recipe scripts, its inputs and the Debian package
# versions it reads from, so only what changed is rebuilt:
#   headers       unpack linux-source-6.1, generate vmlinux.h from this machine's BTF
#   xdp-tools     shipped .o files + objects embedded in the executables
#   libbpf-tools  objects embedded in the tools
#   pcp           objects embedded in the BPF PMDA modules (apt-get download, not installed)
#   iproute2      iproute2-doc's example tc programs, compiled (apt-get download)
#   cilium-ebpf   the BPF test objects of golang-github-cilium-ebpf-dev (apt-get download)
#   debian-extra  optional: objects of ir-keytable, libknot13, qemu-system-x86,
#                 xdp-tests (apt-get download; a package that cannot be fetched
#                 is skipped with one line); not in the default corpus
#   repos         optional: BPF programs of public projects, built by local recipes
#                 (programs/recipe/local/*.sh, not in git) from git mirrors under
#                 $RB_REPOS (skipped with one line without them; see repos.sh)
#   kernel        6.1 selftests and kernel-tree programs, compiled with clang
#   own           programs/src/*.bpf.c
#   verifier-tests the kernel's test_verifier tables, one raw program per test
#   manifest      programs/corpus/manifest.tsv (one row per program; names from the loader)
#   default       programs/corpus/default/ (symlinks, from programs/default.list): always
# FORCE=1 rebuilds every step.
#
# corpus.sh --default RANGEBENCH (make corpus-default, the main job's): only
# what programs/default.list names. The kernel step compiles only the listed
# files (a few dozen instead of ~700), the extraction steps read only the
# executables and modules listed objects come from, the steps no listed object comes from
# (debian-extra, repos, verifier-tests) are left out; a step already built
# in full counts as up to date. A later full `make corpus` rebuilds what
# this left partial (its stamps say which).
#
# corpus.sh [--default] --sources: only the steps that need no rangebench
# binary (headers, kernel, iproute2, cilium-ebpf, repos, own, verifier-tests:
# compiled or unpacked, not extracted by the loader), so that they can run
# while the binary builds (the main job: db/main_job.sh); the run with the
# binary afterwards finds them up to date.
. "$(dirname "$0")/lib.sh"
DEFAULT_ONLY=0 SOURCES_ONLY=0
while :; do
	case ${1:-} in
	--default) DEFAULT_ONLY=1; shift ;;
	--sources) SOURCES_ONLY=1; shift ;;
	*) break ;;
	esac
done
RB=
if [ "$SOURCES_ONLY" = 0 ]; then
	RB=$(realpath "${1:-}")
	[ -x "$RB" ] || die "usage: corpus.sh [--default] RANGEBENCH (built rangebench binary) | corpus.sh [--default] --sources"
fi
# with_rb: the steps that run the binary (extraction, manifest) are left
# out with --sources
with_rb() { [ "$SOURCES_ONLY" = 0 ]; }
mkdir -p "$CORPUS" "$WORK"
t0=$(date +%s)

need_pkgs xdp-tools libxdp1 libbpf-tools linux-source-6.1 bpftool clang llvm python3
# looked up once here, not by compile-one.sh for every object
export CLANG_RESOURCE_DIR
CLANG_RESOURCE_DIR=$($CLANG -print-resource-dir)

hash_files() { cat "$@" | sha256sum | cut -c1-16; }
vers() { local p; for p in "$@"; do printf '%s=%s ' "$p" "$(pkg_version "$p")"; done; }
BTF_ID=$(sha256sum "$VMLINUX_BTF" | cut -c1-16)
EXTRACTOR=$(hash_files "$ROOT"/src/corpus/*.[ch] "$ROOT/src/cli/cmd_extract.c")
CLANG_V=$($CLANG --version | head -1)
# the candidate versions of every package a step downloads, from one apt-cache
# call (lib.sh, apt_cand), for the keys here and for the steps
export RB_APT_CANDIDATES
RB_APT_CANDIDATES=$(apt_cands pcp iproute2-doc golang-github-cilium-ebpf-dev ir-keytable libknot13 qemu-system-x86 xdp-tests)
apt_candidate() { printf '%s=%s' "$1" "$(apt_cand "$1")"; }
PCP_V=$(apt_cand pcp)
# the optional sources' key: the local recipes (programs/recipe/local/, not
# in git: see repos.sh) and the commit of every mirror under RB_REPOS
repos_key() {
	local m
	cat /dev/null "${RB_LOCAL_RECIPES:-$RECIPE/local}"/*.sh 2>/dev/null | sha256sum | cut -c1-16
	for m in "${RB_REPOS:-/nonexistent}"/*/repo; do
		[ -d "$m" ] && printf '%s=%s ' "$(basename "$(dirname "$m")")" "$(git -C "$m" rev-parse -q --verify HEAD 2>/dev/null)"
	done
	echo
}

# ticker NAME START: every 5 s, the step's time so far and the objects in the corpus
# (sleep in the background and wait for it: a TERM ends the ticker at once)
ticker() {
	local sp=
	trap '[ -n "$sp" ] && kill "$sp" 2>/dev/null; exit 0' TERM
	while :; do
		sleep 5 &
		sp=$!
		wait "$sp"
		log "$1: running for $(($(date +%s) - $2)) s, $(find "$CORPUS" -name '*.o' 2>/dev/null | wc -l) objects in programs/corpus"
	done
}
# The steps' results kept for every clone of this user (RB_CACHE, default
# ~/.cache/rangebench; RB_CACHE= turns it off, as CI=true does): a step
# whose stamp is missing or stale is restored from RB_CACHE/corpus/NAME-<sha256
# of its key> when that holds its outputs, and stored there after it ran.
# The key is the stamp's: the step's recipe scripts, the Debian package
# versions it reads, clang's version, this machine's BTF, and the keys of
# the steps it builds on. Only steps whose outputs do not depend on where
# the clone is are kept: CACHED_OUTS lists them with their outputs
# (compiled objects name their sources relative to the clone:
# -fdebug-prefix-map in compile-one.sh and iproute2.sh). Entries unused for
# 30 days are removed.
if [ "${CI:-}" = true ]; then RB_CACHE=${RB_CACHE:-}; else RB_CACHE=${RB_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/rangebench}; fi
CCACHE=${RB_CACHE:+$RB_CACHE/corpus}
declare -A CACHED_OUTS=(
	[headers]="build/corpus-work/inc build/corpus-work/linux-source-6.1"
	[xdp-tools]=programs/corpus/xdp-tools [libbpf-tools]=programs/corpus/libbpf-tools
	[pcp]=programs/corpus/pcp [kernel]="programs/corpus/selftests programs/corpus/kernel-tree"
	[iproute2]=programs/corpus/iproute2 [cilium-ebpf]=programs/corpus/cilium-ebpf
	[debian-extra]=programs/corpus/debian-extra [own]=programs/corpus/own
)
cache_entry() { printf '%s/%s-%s.tar' "$CCACHE" "$1" "$(printf '%s' "$2" | sha256sum | cut -c1-32)"; }
# cache_restore NAME KEY: the step's outputs from the cache; false if it has none
cache_restore() {
	local e
	[ -n "$CCACHE" ] && [ -n "${CACHED_OUTS[$1]:-}" ] || return 1
	e=$(cache_entry "$1" "$2")
	[ -f "$e" ] || return 1
	# shellcheck disable=SC2086
	(cd "$ROOT" && rm -rf ${CACHED_OUTS[$1]} && tar -xf "$e") || return 1
	touch "$e"
}
# cache_store NAME KEY: keep the step's outputs (written aside, then renamed:
# a clone reading at the same time sees the whole entry or none)
cache_store() {
	local e
	[ -n "$CCACHE" ] && [ -n "${CACHED_OUTS[$1]:-}" ] || return 0
	e=$(cache_entry "$1" "$2")
	mkdir -p "$CCACHE" 2>/dev/null || return 0
	find "$CCACHE" -maxdepth 1 -name '*.tar' -mtime +30 -delete 2>/dev/null || true
	# shellcheck disable=SC2086
	(cd "$ROOT" && tar -cf "$e.$$" ${CACHED_OUTS[$1]}) 2>/dev/null && mv -f "$e.$$" "$e" || rm -f "$e.$$"
}
# run_step NAME STAMPDIR KEY CMD... : run CMD unless STAMPDIR/.stamp-NAME holds KEY
# (with --default, KEY is the step's key for the default objects, and the
# full build's key, FULL_KEYS[NAME], counts as up to date too)
declare -A KEYS FULL_KEYS
run_step() {
	local name=$1 dir=$2 key=$3 stamp k; shift 3
	KEYS[$name]=$key
	stamp=$(cat "$dir/.stamp-$name" 2>/dev/null || true)
	if [ "${FORCE:-0}" != 1 ] && { [ "$stamp" = "$key" ] ||
		{ [ -n "${FULL_KEYS[$name]:-}" ] && [ "$stamp" = "${FULL_KEYS[$name]}" ]; }; }; then
		KEYS[$name]=$stamp
		log "$name: up to date"
		return 0
	fi
	rm -f "$dir/.stamp-$name"
	if [ "${FORCE:-0}" != 1 ]; then
		for k in "$key" ${FULL_KEYS[$name]:+"${FULL_KEYS[$name]}"}; do
			cache_restore "$name" "$k" || continue
			KEYS[$name]=$k
			echo "$k" >"$dir/.stamp-$name"
			log "$name: restored from $(cache_entry "$name" "$k")"
			return 0
		done
	fi
	local s tp rc=0; s=$(date +%s)
	# a line every 5 s while the step runs (the kernel step compiles
	# hundreds of files without a word), so no step is silent for long
	ticker "$name" "$s" &
	tp=$!
	"$@" || rc=$?
	kill "$tp" 2>/dev/null; wait "$tp" 2>/dev/null || true
	[ "$rc" -eq 0 ] || return "$rc"
	echo "$key" >"$dir/.stamp-$name"
	cache_store "$name" "$key"
	log "$name: built in $(($(date +%s) - s)) s"
}

L=$RECIPE/lib.sh
# the headers live in build/ (scratch): redo them whenever they are missing
[ -s "$WORK/inc/vmlinux.h" ] || rm -f "$WORK/.stamp-headers"
run_step headers "$WORK" "$(hash_files "$L" "$RECIPE/kernel-headers.sh") $(vers linux-source-6.1 bpftool) $BTF_ID" \
	"$RECIPE/kernel-headers.sh"
xkey="$(hash_files "$L" "$RECIPE/xdp-tools.sh") $(vers xdp-tools libxdp1) $EXTRACTOR"
lkey="$(hash_files "$L" "$RECIPE/libbpf-tools.sh") $(vers libbpf-tools) $EXTRACTOR"
pkey="$(hash_files "$L" "$RECIPE/pcp.sh") pcp=$PCP_V $EXTRACTOR"
if [ "$DEFAULT_ONLY" = 1 ]; then
	# the extraction steps read only the executables and modules the
	# listed objects come from (lib.sh, only_wanted): 10 of libbpf-tools'
	# 61 tools, 3 of pcp's 14 modules, 2 of xdp-tools' 6 executables
	export EXTRACT_ONLY=$WORK/extract-only.list
	sed 's/#.*//' "$ROOT/programs/default.list" | awk '$1 ~ /^(xdp-tools|libbpf-tools|pcp)\// {print $1}' >"$EXTRACT_ONLY"
	only=" only=$(hash_files "$EXTRACT_ONLY")"
	FULL_KEYS[xdp-tools]=$xkey FULL_KEYS[libbpf-tools]=$lkey FULL_KEYS[pcp]=$pkey
	xkey+=$only lkey+=$only pkey+=$only
fi
with_rb && run_step xdp-tools "$CORPUS" "$xkey" "$RECIPE/xdp-tools.sh" "$RB"
with_rb && run_step libbpf-tools "$CORPUS" "$lkey" "$RECIPE/libbpf-tools.sh" "$RB"
with_rb && run_step pcp "$CORPUS" "$pkey" "$RECIPE/pcp.sh" "$RB"
# --sources: pcp's .deb downloaded now, beside the build, where the pcp step
# will need it (not up to date, not in RB_CACHE); pcp.sh finds it in
# $WORK/debs (a failed download is pcp.sh's to retry and report)
pcp_to_build() {
	local st k
	st=$(cat "$CORPUS/.stamp-pcp" 2>/dev/null || true)
	for k in "$pkey" ${FULL_KEYS[pcp]:+"${FULL_KEYS[pcp]}"}; do
		[ "$st" != "$k" ] || return 1
		[ -z "$CCACHE" ] || [ ! -f "$(cache_entry pcp "$k")" ] || return 1
	done
	! ls "$WORK"/debs/pcp_"${PCP_V/*:/}"_*.deb >/dev/null 2>&1
}
if ! with_rb && [ -n "$PCP_V" ] && pcp_to_build; then
	mkdir -p "$WORK/debs"
	(cd "$WORK/debs" && apt-get "${APT_O[@]}" download -q "pcp=$PCP_V") >"$WORK/pcp-download.log" 2>&1 &&
		log "pcp $PCP_V: .deb downloaded for the pcp step" || true
fi
kkey="$(hash_files "$L" "$RECIPE/kernel.sh" "$RECIPE/compile-one.sh") ${KEYS[headers]} $CLANG_V"
if [ "$DEFAULT_ONLY" = 1 ]; then
	# kernel.sh compiles only the objects named in $KERNEL_ONLY (DIR/NAME lines)
	export KERNEL_ONLY=$WORK/kernel-only.list
	sed 's/#.*//' "$ROOT/programs/default.list" | awk '$1 ~ /^(selftests|kernel-tree)\// {print $1}' >"$KERNEL_ONLY"
	FULL_KEYS[kernel]=$kkey
	kkey="$kkey only=$(hash_files "$KERNEL_ONLY")"
fi
run_step kernel "$CORPUS" "$kkey" "$RECIPE/kernel.sh"
run_step iproute2 "$CORPUS" "$(hash_files "$L" "$RECIPE/iproute2.sh" "$RECIPE"/include/iproute2/*) $(apt_candidate iproute2-doc) $CLANG_V" \
	"$RECIPE/iproute2.sh"
run_step cilium-ebpf "$CORPUS" "$(hash_files "$L" "$RECIPE/cilium-ebpf.sh") $(apt_candidate golang-github-cilium-ebpf-dev)" \
	"$RECIPE/cilium-ebpf.sh"
# optional: other Debian packages' objects (each skipped when it cannot be fetched)
[ "$DEFAULT_ONLY" = 1 ] && log "debian-extra, repos, verifier-tests: left out (--default: no default object comes from them)"
[ "$DEFAULT_ONLY" = 1 ] || ! with_rb || run_step debian-extra "$CORPUS" "$(hash_files "$L" "$RECIPE/debian-extra.sh") $(for p in ir-keytable libknot13 qemu-system-x86 xdp-tests; do apt_candidate $p; printf ' '; done) $EXTRACTOR" \
	"$RECIPE/debian-extra.sh" "$RB"
# optional: public repositories, only where local recipes and git mirrors exist
[ "$DEFAULT_ONLY" = 1 ] || run_step repos "$CORPUS" "$(hash_files "$L" "$RECIPE/repos.sh") $(repos_key | tr '\n' ' ') $CLANG_V" \
	"$RECIPE/repos.sh"
run_step own "$CORPUS" "$(hash_files "$L" "$RECIPE/own.sh" "$RECIPE/compile-one.sh" "$ROOT"/programs/src/*) ${KEYS[headers]} $CLANG_V" \
	"$RECIPE/own.sh"
[ "$DEFAULT_ONLY" = 1 ] || run_step verifier-tests "$CORPUS" "$(hash_files "$L" "$RECIPE/verifier-tests.sh" "$RECIPE/verifier-tests-gen.c") ${KEYS[headers]} $BTF_ID $(vers libbpf-dev)" \
	"$RECIPE/verifier-tests.sh"
if ! with_rb; then
	log "sources done in $(($(date +%s) - t0)) s (the steps that extract with the binary, the manifest and default/ come next)"
	exit 0
fi
# program lists come from the loader (`rangebench load --json`) where it opens
# the object, so the manifest is redone whenever the binary changes
run_step manifest "$CORPUS" "$(hash_files "$RECIPE/manifest.py" "$RB") ${KEYS[*]}" \
	"$PYTHON3" "$RECIPE/manifest.py" "$CORPUS" "$RB"
"$RECIPE/default.sh"

tail -n +2 "$CORPUS/manifest.tsv" | awk -F'\t' '
	{ if (!($1 in o)) { order[n++] = $1; o[$1] = 0; p[$1] = 0 }
	  if (!seen[$4]++) o[$1]++; if ($5 != "-") p[$1]++ }
	END { for (i = 0; i < n; i++) { s = order[i]; printf "corpus: %-13s %4d objects %5d programs\n", s, o[s], p[s]; to += o[s]; tp += p[s] }
	      printf "corpus: %-13s %4d objects %5d programs\n", "total", to, tp }' >&2
log "done in $(($(date +%s) - t0)) s"
