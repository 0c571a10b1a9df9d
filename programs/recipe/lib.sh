# lib.sh — shared settings and helpers for the corpus recipe (sourced).
# Paths are absolute; the recipe runs from the repository root.
set -euo pipefail
ROOT=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)
CORPUS=$ROOT/programs/corpus          # output (git-ignored)
WORK=$ROOT/build/corpus-work          # scratch: unpacked sources, generated headers
RECIPE=$ROOT/programs/recipe
# (exported: looked up once, not in every script sourced by this one,
# compile-one.sh for each object)
export JOBS=${JOBS:-$(nproc)}
KSRC_TAR=/usr/src/linux-source-6.1.tar.xz
KSRC=$WORK/linux-source-6.1
CLANG=${CLANG:-clang}
# Debian's python3 (a package the recipes install), not the first python3
# on PATH: a pyenv shim there is a bash script that costs about 0.45 s of
# CPU and 0.8 s of wall time per call (0.03 s for /usr/bin/python3)
PYTHON3=${PYTHON3:-/usr/bin/python3}
[ -x "$PYTHON3" ] || PYTHON3=python3
LLVM_STRIP=${LLVM_STRIP:-llvm-strip}
VMLINUX_BTF=${VMLINUX_BTF:-/sys/kernel/btf/vmlinux}

log() { printf 'corpus: %s\n' "$*" >&2; }
die() { printf 'corpus: error: %s\n' "$*" >&2; exit 1; }

# installed version of a Debian package, or "-"
# apt's binary cache of the package lists, kept in a file of the scratch
# directory where the machine's apt keeps none (Debian's container images:
# Dir::Cache::pkgcache ""): without one every apt-cache and apt-get call
# built it again from the lists, about 1 s of CPU each (five in a fresh
# clone's main job: the candidates and three downloads beside the build,
# the candidates again after it; with the file 0.07 s each after the
# first). apt checks the file against the lists and dpkg's status before
# it uses it. Looked up once (the recipes this one starts inherit it).
if [ -z "${RB_APT_PKGCACHE+set}" ]; then
	pc=
	eval "$(apt-config shell pc Dir::Cache::pkgcache 2>/dev/null)" || true
	RB_APT_PKGCACHE=
	[ -n "$pc" ] || RB_APT_PKGCACHE=$WORK/apt-pkgcache.bin
	export RB_APT_PKGCACHE
fi
APT_O=(${RB_APT_PKGCACHE:+-o "Dir::Cache::pkgcache=$RB_APT_PKGCACHE"})

pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo -; }

# Install the Debian packages given that are missing (nothing if all present).
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing missing Debian packages: ${missing[*]}"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
		>"$WORK/apt.log" 2>&1 || die "apt-get install failed, see $WORK/apt.log"
}

# only_wanted SOURCE: passes the paths on stdin (executables, modules) that
# an object of EXTRACT_ONLY (corpus.sh --default: SOURCE/NAME.N.o lines of
# programs/default.list) is extracted from: NAME is the path's file name;
# all of them without EXTRACT_ONLY. (The objects keep the names and
# contents they have in the full step: `rangebench extract` numbers each
# input's objects on its own, and of identical objects the first input's
# name is kept, as in the full step's order.)
only_wanted() {
	if [ -n "${EXTRACT_ONLY:-}" ]; then
		awk -v s="$1/" 'NR == FNR { if (index($1, s) == 1) { n = substr($1, length(s) + 1); sub(/\.[0-9]+\.o$/, "", n); w[n] = 1 } next }
			{ f = $0; sub(/.*\//, "", f) } f in w' "$EXTRACT_ONLY" -
	else
		cat
	fi
}

# Copy every object named on stdin (one path a line) into DIR unless an
# object with the same contents is already there; prints the names kept.
# Dedup is by sha256 within the destination directory. (One sha256sum
# per side, not one per file: on a loaded machine a fork per object made
# the extraction steps take 30-40 s.)
keep_unique() {
	local dir=$1 f h
	declare -A seen=()
	while read -r h f; do
		seen[$h]=1
	done < <(find "$dir" -maxdepth 1 -name '*.o' -print0 | xargs -0 -r sha256sum)
	while read -r h f; do
		if [ -z "${seen[$h]:-}" ]; then
			seen[$h]=1
			cp "$f" "$dir/"
			basename "$f"
		fi
	done < <(xargs -d '\n' -r sha256sum)
}

# provenance EXTRACT_TSV PACKAGE VERSION [PREFIX]: for each object name on
# stdin, the .provenance.tsv line "name package version source", the
# source being the file `rangebench extract` (EXTRACT_TSV) took it from,
# without PREFIX
provenance() {
	awk -F'\t' -v pkg="$2" -v ver="$3" -v pre="${4:-}" '
		NR == FNR { n = split($5, p, "/"); if (!(p[n] in src)) src[p[n]] = $1; next }
		{ s = src[$0]; if (pre != "" && index(s, pre) == 1) s = substr(s, length(pre) + 1)
		  printf "%s\t%s\t%s\t%s\n", $0, pkg, ver, s }' "$1" -
}

# apt_cand PKG: the candidate version apt would download, or nothing. From
# RB_APT_CANDIDATES (" PKG=VERSION ..." that corpus.sh fills with one
# apt-cache call for every package the recipe downloads) when it names PKG:
# one call instead of one per package (each reads its cache: APT_O above)
apt_cand() {
	local v
	case ${RB_APT_CANDIDATES:-} in
	*" $1="*) v=${RB_APT_CANDIDATES#*" $1="}; v=${v%%" "*}; [ "$v" = "(none)" ] || printf '%s' "$v"; return 0 ;;
	esac
	v=$(apt-cache "${APT_O[@]}" policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
	[ "$v" = "(none)" ] || printf '%s' "$v"
}
# apt_cands PKG...: RB_APT_CANDIDATES for these packages (" PKG=VERSION ... ")
apt_cands() {
	printf ' '
	apt-cache "${APT_O[@]}" policy "$@" 2>/dev/null | awk '/^[^ ]/ {p = $1; sub(/:$/, "", p)} /Candidate:/ {printf "%s=%s ", p, $2}'
}

# deb_unpack PKG DIR: fetch PKG's .deb with `apt-get download` (cached in
# $WORK/debs; the package is never installed) and unpack it into DIR.
# Prints the version unpacked; fails if the apt lists have no candidate.
deb_unpack() {
	local pkg=$1 dir=$2 ver deb debs=$WORK/debs
	mkdir -p "$debs" "$dir"
	ver=$(apt_cand "$pkg")
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		ver=$(apt-cache "${APT_O[@]}" policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
	fi
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || { log "$pkg: no candidate version in the apt lists"; return 1; }
	deb=$(ls "$debs/${pkg}_${ver/:/%3a}"_*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		(cd "$debs" && apt-get "${APT_O[@]}" download -q "$pkg=$ver") >"$WORK/$pkg-download.log" 2>&1 ||
			{ log "$pkg: apt-get download failed, see $WORK/$pkg-download.log"; return 1; }
		deb=$(ls "$debs/${pkg}_${ver/:/%3a}"_*.deb 2>/dev/null | head -1 || true)
	fi
	# apt-get download writes an epoch's ':' as %3a in the file name
	[ -n "$deb" ] || { log "$pkg: no .deb for $ver in $debs"; return 1; }
	dpkg-deb -x "$deb" "$dir"
	echo "$ver"
}
