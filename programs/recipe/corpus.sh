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
# files (a few dozen instead of ~700), the steps no listed object comes from
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

hash_files() { cat "$@" | sha256sum | cut -c1-16; }
vers() { local p; for p in "$@"; do printf '%s=%s ' "$p" "$(pkg_version "$p")"; done; }
BTF_ID=$(sha256sum "$VMLINUX_BTF" | cut -c1-16)
EXTRACTOR=$(hash_files "$ROOT"/src/corpus/*.[ch] "$ROOT/src/cli/cmd_extract.c")
CLANG_V=$($CLANG --version | head -1)
apt_candidate() { printf '%s=%s' "$1" "$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')"; }
PCP_V=$(apt-cache policy pcp 2>/dev/null | awk '/Candidate:/ {print $2}')
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
# run_step NAME STAMPDIR KEY CMD... : run CMD unless STAMPDIR/.stamp-NAME holds KEY
# (with --default, KEY is the step's key for the default objects, and the
# full build's key, FULL_KEYS[NAME], counts as up to date too)
declare -A KEYS FULL_KEYS
run_step() {
	local name=$1 dir=$2 key=$3 stamp; shift 3
	KEYS[$name]=$key
	stamp=$(cat "$dir/.stamp-$name" 2>/dev/null || true)
	if [ "${FORCE:-0}" != 1 ] && { [ "$stamp" = "$key" ] ||
		{ [ -n "${FULL_KEYS[$name]:-}" ] && [ "$stamp" = "${FULL_KEYS[$name]}" ]; }; }; then
		KEYS[$name]=$stamp
		log "$name: up to date"
		return 0
	fi
	rm -f "$dir/.stamp-$name"
	local s tp rc=0; s=$(date +%s)
	# a line every 5 s while the step runs (the kernel step compiles
	# hundreds of files without a word), so no step is silent for long
	ticker "$name" "$s" &
	tp=$!
	"$@" || rc=$?
	kill "$tp" 2>/dev/null; wait "$tp" 2>/dev/null || true
	[ "$rc" -eq 0 ] || return "$rc"
	echo "$key" >"$dir/.stamp-$name"
	log "$name: built in $(($(date +%s) - s)) s"
}

L=$RECIPE/lib.sh
# the headers live in build/ (scratch): redo them whenever they are missing
[ -s "$WORK/inc/vmlinux.h" ] || rm -f "$WORK/.stamp-headers"
run_step headers "$WORK" "$(hash_files "$L" "$RECIPE/kernel-headers.sh") $(vers linux-source-6.1 bpftool) $BTF_ID" \
	"$RECIPE/kernel-headers.sh"
with_rb && run_step xdp-tools "$CORPUS" "$(hash_files "$L" "$RECIPE/xdp-tools.sh") $(vers xdp-tools libxdp1) $EXTRACTOR" \
	"$RECIPE/xdp-tools.sh" "$RB"
with_rb && run_step libbpf-tools "$CORPUS" "$(hash_files "$L" "$RECIPE/libbpf-tools.sh") $(vers libbpf-tools) $EXTRACTOR" \
	"$RECIPE/libbpf-tools.sh" "$RB"
with_rb && run_step pcp "$CORPUS" "$(hash_files "$L" "$RECIPE/pcp.sh") pcp=$PCP_V $EXTRACTOR" \
	"$RECIPE/pcp.sh" "$RB"
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
	python3 "$RECIPE/manifest.py" "$CORPUS" "$RB"
"$RECIPE/default.sh"

tail -n +2 "$CORPUS/manifest.tsv" | awk -F'\t' '
	{ if (!($1 in o)) { order[n++] = $1; o[$1] = 0; p[$1] = 0 }
	  if (!seen[$4]++) o[$1]++; if ($5 != "-") p[$1]++ }
	END { for (i = 0; i < n; i++) { s = order[i]; printf "corpus: %-13s %4d objects %5d programs\n", s, o[s], p[s]; to += o[s]; tp += p[s] }
	      printf "corpus: %-13s %4d objects %5d programs\n", "total", to, tp }' >&2
log "done in $(($(date +%s) - t0)) s"
