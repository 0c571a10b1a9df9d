#!/usr/bin/env bash
# scripts/libbpf.sh OUT.mk — which libbpf rangebench links (OUT.mk: the
# Makefile's build/libbpf.mk, whose LIBBPF_A its links read, and the link
# libbpf-include beside it, its compiles' -I).
#
# rangebench links a current libbpf, built statically from Debian's source
# package of the unstable suite, because the host's libbpf 1.1 (bookworm)
# cannot open arena objects, and the sid binary package's libbpf.a cannot
# be linked here (built against glibc 2.38: __isoc23_sscanf, ...; bookworm
# has 2.36). Steps, each skipped when its result is there:
#   1. a private apt sources list (deb-src SUITE), lists and cache under
#      CACHE/apt (never the machine's apt setup; lists at most once a day)
#   2. `apt-get source --download-only libbpf` into CACHE/src/VERSION
#      (apt checks it against the suite's signed Sources), unpack the
#      upstream tarball, apply the Debian patches (debian/patches/series)
#   3. `make -C src BUILD_STATIC_ONLY=1` with this machine's compiler into
#      CACHE/VERSION/{lib/libbpf.a,include/bpf/}
# When any step fails (no network, no mirror, a build error), the system's
# libbpf (libbpf-dev) is used instead, and this script says so on stderr.
# Nothing fetched or built here is in git (build/ is ignored).
#
# Environment: RB_CACHE (the build kept for other clones, below; empty: no),
# RB_LIBBPF=system (skip the download: the system libbpf),
# RB_LIBBPF_CACHE (default build/libbpf), RB_LIBBPF_SUITE (default sid),
# RB_DEBIAN_MIRROR (default: the machine's Debian mirror).
# `libbpf.sh --objects SRC` prints the objects built from libbpf's source
# directory SRC (its Makefile's OBJS without UNUSED, below; a test's hook).
set -u
# libbpf's objects not built (see build below)
UNUSED="netlink.o nlattr.o bpf_prog_linfo.o btf_dump.o ringbuf.o linker.o"

# objects_of SRC [MAKE-ARGS...]: the objects of libbpf's Makefile in SRC
# without UNUSED, on one line. Asked of a make of its own: under a parent
# make (as in `make main-job`) an inherited MAKEFLAGS makes it print "make[1]:
# Entering directory" among the names, which once broke the build; and only
# words naming an object are taken. Empty: failure.
objects_of() {
	local src=$1 all o out
	shift
	all=$(printf 'rb-objs:\n\t@echo $(OBJS)\n' |
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$src" "$@" -f Makefile -f - rb-objs) ||
		return 1
	out=$(for o in $all; do
		case "$o" in *.o) case " $UNUSED " in *" $o "*) ;; *) printf '%s ' "$o" ;; esac ;; esac
	done)
	[ -n "$out" ] && echo "$out"
}
if [ "${1:-}" = --objects ]; then
	objects_of "${2:?usage: libbpf.sh --objects SRC}"
	exit
fi
OUT=${1:?usage: libbpf.sh OUT.mk}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${RB_LIBBPF_CACHE:-$ROOT/build/libbpf}
SUITE=${RB_LIBBPF_SUITE:-sid}
MIRROR=${RB_DEBIAN_MIRROR:-$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
[ -n "$MIRROR" ] || MIRROR=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
SYS_A=/usr/lib/x86_64-linux-gnu/libbpf.a

# write_mk ARCHIVE INCLUDE-DIR VERSION-TEXT: OUT, and the link
# libbpf-include beside it (the Makefile's -I) at INCLUDE-DIR (none: the
# system's headers), made before OUT, which the compiles wait for
write_mk() {
	local inc=$(dirname "$OUT")/libbpf-include
	mkdir -p "$(dirname "$OUT")"
	rm -f "$inc"
	[ -z "$2" ] || ln -s "$2" "$inc"
	printf 'LIBBPF_A := %s\nLIBBPF_INC := %s\nLIBBPF_FROM := %s\n' "$1" "${2:+-I$2}" "$3" >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
}
system() { # reason
	local v
	v=$(dpkg-query -W -f='${Version}' libbpf-dev 2>/dev/null || echo unknown)
	echo "libbpf: $1; linking the system libbpf ($SYS_A, libbpf-dev $v)" >&2
	write_mk "$SYS_A" "" "system libbpf-dev $v"
}
[ "${RB_LIBBPF:-}" = system ] && { system "RB_LIBBPF=system"; exit 0; }

# ticking WHAT CMD...: run CMD; every 5 s while it runs, say on stderr (fd 3,
# which CMD's redirections leave alone) that WHAT is still going, so the
# build is never silent for long (the libbpf build takes minutes on a
# loaded machine)
exec 3>&2
ticking() {
	local what=$1 s=$SECONDS p n=0
	shift
	"$@" &
	p=$!
	while kill -0 "$p" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		[ $((n % 5)) -ne 0 ] || ! kill -0 "$p" 2>/dev/null || echo "libbpf: $what: $((SECONDS - s)) s" >&3
	done
	wait "$p"
}

# the build (and the suite's source list) kept for every clone of this user
# (RB_CACHE, default ~/.cache/rangebench; RB_CACHE= turns it off, as CI=true
# does): the build keyed by the version, this machine's compiler and this
# script (how it is built); the list read at most once a day, as in a clone
if [ "${CI:-}" = true ]; then RB_CACHE=${RB_CACHE:-}; else RB_CACHE=${RB_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/rangebench}; fi
A=${RB_CACHE:+$RB_CACHE/libbpf/apt/$SUITE-$(printf '%s' "$MIRROR" | sha256sum | cut -c1-8)}
A=${A:-$CACHE/apt/$SUITE}
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" || { system "cannot create $A"; exit 0; }
printf 'deb-src %s %s main\n' "$MIRROR" "$SUITE" >"$A/sources.list"
O=(-o "Dir::Etc::sourcelist=$A/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$A/lists"
	-o "Dir::Cache=$A/cache" -o Debug::NoLocking=1)
if [ -z "$(find "$A/lists" -maxdepth 1 -name '*Sources*' -mtime -1 2>/dev/null | head -1)" ]; then
	echo "libbpf: reading the source list of Debian $SUITE ($MIRROR)..." >&2
	ticking "reading the source list" apt-get "${O[@]}" update -q >"$A/update.log" 2>&1 ||
		rm -f "$A"/lists/*Sources* # a failed update must not leave stale lists behind as fresh
fi
VER=$(apt-cache "${O[@]}" showsrc libbpf 2>/dev/null | awk '/^Version:/ {print $2; exit}')
if [ -z "$VER" ]; then
	# no list (offline): the newest build already in the cache, if any
	VER=$(ls -d "$CACHE"/v-*/lib/libbpf.a 2>/dev/null | sed 's|.*/v-||; s|/lib/libbpf.a||' | sort -V | tail -1)
	[ -n "$VER" ] || { system "$MIRROR ($SUITE) unreachable (see $A/update.log) and no libbpf built before"; exit 0; }
fi
D=$CACHE/v-${VER#*:}
SHARED=
if [ -n "$RB_CACHE" ]; then
	SHARED=$RB_CACHE/libbpf/${VER#*:}-$({ ${CC:-cc} --version | head -1; uname -m; cat "$0"; } | sha256sum | cut -c1-16).tar
	if [ ! -f "$D/lib/libbpf.a" ] && [ -f "$SHARED" ]; then
		rm -rf "$D"; mkdir -p "$D"
		if tar -xf "$SHARED" -C "$D" && [ -f "$D/lib/libbpf.a" ]; then
			touch "$SHARED"
			echo "libbpf: $VER from $SHARED" >&2
		else
			rm -rf "$D"
		fi
	fi
fi
if [ ! -f "$D/lib/libbpf.a" ]; then
	S=$CACHE/src/${VER#*:}
	rm -rf "$S" "$D"; mkdir -p "$S"
	echo "libbpf: downloading the source package libbpf $VER..." >&2
	if ! (cd "$S" && ticking "downloading" apt-get "${O[@]}" source --download-only -q "libbpf=$VER") >"$S/download.log" 2>&1; then
		system "cannot download libbpf $VER source from $SUITE (see $S/download.log)"; exit 0
	fi
	build() (
		set -e
		cd "$S"
		tar xzf libbpf_*.orig.tar.gz
		dir=$(find . -maxdepth 1 -type d -name 'libbpf-*' | head -1)
		if ls libbpf_*.debian.tar.* >/dev/null 2>&1; then
			tar xf libbpf_*.debian.tar.*
			if [ -f debian/patches/series ]; then
				sed 's/#.*//' debian/patches/series | while read -r p _; do
					[ -n "$p" ] && patch -d "$dir" -p1 -s <"debian/patches/$p"
				done
			fi
		fi
		# (debug info names the sources relative to the build directory, so
		# the archive is the same whichever clone built it; -g1 after
		# libbpf's own -g: line tables only, as rangebench's release build,
		# the same code and about 15% less CPU: 19.5 -> 16.6 s)
		local m=(-C "$dir/src" -s BUILD_STATIC_ONLY=1 OBJDIR="$S/obj" DESTDIR="$S/inst"
			PREFIX=/ LIBDIR=/lib INCLUDEDIR=/include EXTRA_CFLAGS="-fdebug-prefix-map=$S=. -g1")
		# Only the objects a link of the project takes from the archive:
		# libbpf's list (OBJS in src/Makefile) without UNUSED, which no link
		# pulls in (1.7.0, gold --trace of the release, test and unit-test
		# links: XDP/tc attach over netlink, line info of loaded programs,
		# btf_dump, ring buffers, the BPF static linker): about 3.5 s of the
		# build's 15 s of CPU (issue 26). The members kept are compiled as
		# before, so a link takes the same members. Should one of them need
		# a member left out (another libbpf), the archive does not link
		# whole, and all of libbpf is built instead.
		local objs
		objs=$(objects_of "$dir/src" "${m[@]:2}") || { echo "libbpf: no object list from libbpf's Makefile"; exit 1; }
		make -j"$(nproc)" "${m[@]}" OBJS="$objs" install
		if ! printf 'int main(void) { return 0; }\n' | ${CC:-cc} -x c - -x none -o "$S/closed" \
			-Wl,--whole-archive "$S/inst/lib/libbpf.a" -Wl,--no-whole-archive -lelf -lz; then
			echo "libbpf: the archive without $UNUSED does not link on its own: building all of it"
			rm -f "$S/obj/libbpf.a" "$S/inst/lib/libbpf.a"
			make -j"$(nproc)" "${m[@]}" install
		fi
		mkdir -p "$D"
		cp -r "$S/inst/lib" "$S/inst/include" "$D/"
	)
	# On a fresh machine the Makefile installs the missing Debian packages
	# (build/.deps) while this script downloads: libbpf's compile needs
	# libelf-dev's and zlib1g-dev's headers, so it waits for them, or for
	# that install to end (RB_DEPS_STAMP, the Makefile's build/.deps, or
	# its .failed beside it), at most 30 min. Without the wait, a fresh
	# clone's `make -j2` compiled libbpf before libelf.h was there and fell
	# back to the system's libbpf 1.1 (2026-12-07, a new VM).
	have_build_deps() { [ -e /usr/include/libelf.h ] && [ -e /usr/include/gelf.h ] && [ -e /usr/include/zlib.h ]; }
	if ! have_build_deps && [ -n "${RB_DEPS_STAMP:-}" ]; then
		echo "libbpf: waiting for the Debian packages being installed (libelf-dev, zlib1g-dev)..." >&2
		w=$SECONDS
		until have_build_deps || [ -e "$RB_DEPS_STAMP" ] || [ -e "$RB_DEPS_STAMP.failed" ] || [ $((SECONDS - w)) -ge 1800 ]; do
			sleep 1
			[ $(((SECONDS - w) % 5)) -ne 0 ] || echo "libbpf: waiting for the Debian packages: $((SECONDS - w)) s" >&2
		done
	fi
	echo "libbpf: building libbpf $VER ($(nproc) jobs; log: $S/build.log)..." >&2
	# (not in an || list: that would turn off build's set -e)
	ticking "building libbpf $VER" build >"$S/build.log" 2>&1
	[ $? -eq 0 ] || { rm -rf "$D"; system "building libbpf $VER failed (see $S/build.log)"; exit 0; }
	rm -rf "$S/obj" "$S/inst"
	echo "libbpf: built $VER from Debian $SUITE's source package into $D" >&2
	# kept for the next clone (written aside, then renamed)
	if [ -n "$SHARED" ] && mkdir -p "$(dirname "$SHARED")" 2>/dev/null; then
		tar -cf "$SHARED.$$" -C "$D" lib include 2>/dev/null && mv -f "$SHARED.$$" "$SHARED" || rm -f "$SHARED.$$"
	fi
fi
write_mk "$D/lib/libbpf.a" "$D/include" "Debian $SUITE libbpf $VER (source package, built here)"
