#!/usr/bin/env bash
# shards-parallel.sh — a corpus run spread over shards with GNU parallel,
# then merged into one database: the recipe of README "Spreading a corpus
# over several machines", as a script that runs as written.
#
#   scripts/shards-parallel.sh [-n SHARDS] [-S SSHLOGINS] [-l LABEL] [-t TRACKERS] [-j JOBS] [-d DIR] OUT.sqlite INPUT...
#
#   -n SHARDS    number of shards (default 4)
#   -S LOGINS    GNU parallel --sshlogin list, e.g. '2/hostA,2/hostB' (each host
#                has this checkout, built, with the same corpus, at the same
#                path); default: this machine, one shard per core
#   -l LABEL     the run's label (default: shards)
#   -t TRACKERS  the rows, as run --trackers (default: run's, every registry
#                tracker and the running kernel)
#   -j JOBS      rangebench workers per shard (default 1)
#   -d DIR       where the shards' databases go (default db/shards)
#   -c COSTS     a results database of an earlier run (--shard-costs): shards
#                balanced by what its programs cost; every host needs it at
#                the same path
#   RB=...       the rangebench binary (default: this checkout's build/rangebench)
# Each shard writes DIR/LABEL.K.sqlite (brought back with --return when
# it ran over ssh); the merged run is complete when every shard finished.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=4 logins="" label=shards jobs=1 dir=$root/db/shards costs=() trackers=()
while getopts n:S:l:t:j:d:c: o; do
	case $o in
	n) n=$OPTARG ;;
	S) logins=$OPTARG ;;
	l) label=$OPTARG ;;
	t) trackers=(--trackers "$OPTARG") ;;
	j) jobs=$OPTARG ;;
	d) dir=$OPTARG ;;
	c) costs=(--shard-costs "$OPTARG") ;;
	*) sed -n '2,23p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
out=$1; shift
RB=${RB:-$root/build/rangebench}
command -v parallel >/dev/null || { echo "shards-parallel.sh: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
[[ "$label" =~ ^[A-Za-z0-9._-]+$ ]] || { echo "shards-parallel.sh: label '$label': letters, digits, . _ - only" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -f "$dir/$label".*.sqlite
where=() db="$dir/$label.{}.sqlite" run_in=.
if [ -n "$logins" ]; then
	# Over ssh each job runs in its own new directory on its host (--workdir
	# ...), writes its shard there and GNU parallel brings it back into DIR
	# (parallel runs from DIR) and removes that directory. A job never writes
	# into DIR itself: with the same path on a host that shares this file
	# system (ssh to localhost, NFS), --cleanup would delete the shards
	# already returned. Inputs, binary and costs are named by absolute path,
	# the same on every host.
	where=(--sshlogin "$logins" --workdir ... --return "$label.{}.sqlite" --cleanup)
	db="$label.{}.sqlite" run_in=$dir
	abs=()
	for a in "$@"; do abs+=("$(realpath -m -- "$a")"); done
	set -- "${abs[@]}"
	RB=$(realpath -m -- "$RB")
	[ ${#costs[@]} -eq 0 ] || costs=(--shard-costs "$(realpath -m -- "${costs[1]}")")
fi
# one parallel job per shard; the inputs reach the command line quoted by parallel (-q)
(cd "$run_in" && parallel --will-cite --halt now,fail=1 "${where[@]}" -q \
	"$RB" run -q --no-census -j "$jobs" --label "$label" --shard "{}/$n" "${trackers[@]}" "${costs[@]}" --db "$db" "$@" \
	::: $(seq "$n"))
shards=()
for k in $(seq "$n"); do shards+=("$dir/$label.$k.sqlite"); done
"$RB" merge "$out" "${shards[@]}"
