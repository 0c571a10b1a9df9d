#!/usr/bin/env bash
# scripts/kernels.sh — `make kernels`: download the Debian kernel images of
# kernels.conf (lines whose image is debian:SUITE/PACKAGE) into the kernel
# cache, and install QEMU and busybox-static when missing.
#
#   scripts/kernels.sh [NAME...]     (no name: every debian: line)
#
# Never touches the machine's apt setup: each suite gets a private sources
# list, package lists and cache under <cache>/apt/SUITE (apt-get -o
# Dir::Etc::sourcelist=... -o Dir::State::Lists=... -o Dir::Cache=...).
# The cache keeps apt's binary package cache (pkgcache.bin), which Debian's
# container images turn off (docker-clean): without it each of the six
# apt calls parsed sid's 23 MB package list again (12 s of CPU in all).
# The image goes to <cache>/PACKAGE/vmlinuz with a version file
# ("DEBIAN-VERSION PACKAGE SUITE"). The pinned package is used while the
# suite has it; when it is gone (sid is rolling) the suite's current cloud
# image of the same flavour is used instead, and the script says so.
# Environment: RB_KERNELS_CONF, RB_KERNEL_CACHE (as rangebench reads them),
# RB_DEBIAN_MIRROR (default: the machine's Debian mirror).
# Exit status: 0 all present, 1 a download failed (the mirror unreachable).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CONF=${RB_KERNELS_CONF:-$ROOT/kernels.conf}
CACHE=${RB_KERNEL_CACHE:-$ROOT/build/kernels}
MIRROR=${RB_DEBIAN_MIRROR:-$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
[ -n "$MIRROR" ] || MIRROR=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian

# one download at a time per cache: tests/cli/guest.sh and progdiff72.sh
# may both start it in a fresh clone; the second waits, then finds the image
mkdir -p "$CACHE"
if command -v flock >/dev/null; then
	exec 9>>"$CACHE/.lock"
	flock 9
fi

need=""
command -v qemu-system-x86_64 >/dev/null || need="$need qemu-system-x86"
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || need="$need busybox-static"
if [ -n "$need" ]; then
	echo "kernels: installing$need"
	apt-get install -y -q $need >/dev/null
fi

fail=0
fetch() { # name suite package
	local name=$1 suite=$2 pkg=$3 dir=$CACHE/$3
	if [ -f "$dir/vmlinuz" ] && [ -f "$dir/version" ]; then
		echo "$name: $(cat "$dir/version") (cached: $dir/vmlinuz)"
		return 0
	fi
	local A=$CACHE/apt/$suite
	mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$dir"
	echo "deb $MIRROR $suite main" > "$A/sources.list"
	local O=(-o "Dir::Etc::sourcelist=$A/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$A/lists"
		-o "Dir::Cache=$A/cache" -o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin
		-o Debug::NoLocking=1)
	# the lists, at most once a day
	if [ -z "$(find "$A/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
		if ! apt-get "${O[@]}" update -q >"$A/update.log" 2>&1; then
			echo "$name: cannot reach $MIRROR ($suite): see $A/update.log"
			return 1
		fi
	fi
	local rel=${pkg#linux-image-} flavour use=$pkg
	flavour=${rel##*-cloud-}; [ "$flavour" != "$rel" ] && flavour=cloud-$flavour || flavour=${rel##*-}
	if ! apt-cache "${O[@]}" show "$pkg" >/dev/null 2>&1; then
		# the pinned version is gone: the suite's current image of this flavour
		use=$(apt-cache "${O[@]}" depends "linux-image-$flavour" 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
		if [ -z "$use" ]; then
			echo "$name: $suite has neither $pkg nor linux-image-$flavour"
			return 1
		fi
		echo "$name: NOTE: $suite no longer has the pinned $pkg; using $use instead (re-measure what depends on the version)"
	else
		local cur
		cur=$(apt-cache "${O[@]}" depends "linux-image-$flavour" 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
		[ -n "$cur" ] && [ "$cur" != "$pkg" ] &&
			echo "$name: note: $suite now offers $cur; kernels.conf pins $pkg (used)"
	fi
	rel=${use#linux-image-}
	# the image is in linux-binary-REL where the suite splits it out, else in linux-image-REL
	local deb="" p
	rm -rf "$dir/debs" "$dir/x"; mkdir -p "$dir/debs" "$dir/x"
	# the kernel's config (/boot/config-REL or /usr/lib/modules/REL/config) in
	# linux-base-REL or the image package: put in the guest for libbpf's CONFIG_ externs
	for p in "linux-base-$rel" "$use"; do
		apt-cache "${O[@]}" show "$p" >/dev/null 2>&1 || continue
		(cd "$dir/debs" && apt-get "${O[@]}" download -q "$p" >"$A/download.log" 2>&1) || continue
		dpkg-deb -x "$(ls "$dir"/debs/"${p}"_*.deb | head -1)" "$dir/x"
		local c
		c=$(find "$dir/x" \( -path '*boot/config-*' -o -path '*/lib/modules/*/config' \) -type f | head -1)
		[ -n "$c" ] && { mkdir -p "$dir/inputs"; cp "$c" "$dir/inputs/config"; break; }
	done
	for p in "linux-binary-$rel" "$use"; do
		apt-cache "${O[@]}" show "$p" >/dev/null 2>&1 || continue
		if (cd "$dir/debs" && apt-get "${O[@]}" download -q "$p" >"$A/download.log" 2>&1); then
			deb=$(ls "$dir"/debs/"${p}"_*.deb 2>/dev/null | head -1)
			dpkg-deb -x "$deb" "$dir/x"
			local z
			z=$(find "$dir/x" \( -name vmlinuz -o -name 'vmlinuz-*' \) -type f | head -1)
			[ -n "$z" ] && break
			deb=""
		fi
	done
	if [ -z "$deb" ]; then
		echo "$name: cannot download the image of $use (see $A/download.log)"
		return 1
	fi
	cp "$(find "$dir/x" \( -name vmlinuz -o -name 'vmlinuz-*' \) -type f | head -1)" "$dir/vmlinuz.tmp"
	mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
	local ver
	ver=$(dpkg-deb -f "$deb" Version)
	echo "$ver $(basename "${deb%%_*}") $suite" > "$dir/version"
	rm -rf "$dir/x" "$dir/debs"
	echo "$name: $(cat "$dir/version") -> $dir/vmlinuz"
}

found=0
while read -r name image backend mem rest; do
	case "$name" in ''|'#'*) continue ;; esac
	if [ $# -gt 0 ]; then
		w=0; for n in "$@"; do [ "$n" = "$name" ] && w=1; done
		[ $w = 1 ] || continue
	fi
	found=$((found + 1))
	case "$image" in
	debian:*/*)
		s=${image#debian:}
		fetch "$name" "${s%%/*}" "${s#*/}" || fail=1 ;;
	*)
		[ -f "$image" ] && echo "$name: $image (your build)" || { echo "$name: no file $image"; fail=1; } ;;
	esac
done < <(sed 's/#.*//' "$CONF")
[ $# -eq 0 ] || [ $found -eq $# ] || { echo "kernels: not every name is in $CONF"; fail=1; }
exit $fail
