# tap.sh — sourced by the command-line tests: a scratch directory removed
# on exit, and TAP-style result lines that tests/run.sh counts.
#   check NAME 'SHELL CONDITION' [LOGFILE]   ok if the condition holds,
#                                            else "not ok" plus the log's tail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && sed 's/^/#   /' "$2" | tail -20; }
check() { if eval "$2"; then ok "$1"; else notok "$1" "${3:-}"; fi; }
#   has_ere FILE RE                          a line of FILE matches the
#     extended regular expression RE (grep -Eq RE FILE, in this shell)
has_ere() {
	local _l
	while IFS= read -r _l || [ -n "$_l" ]; do
		[[ $_l =~ $2 ]] && return 0
		_l=""
	done <"$1"
	return 1
}
#   csv_row FILE N=VALUE... [~TEXT]          ok if a line of FILE, split at
#     every comma (as awk -F, splits it), has field N equal to VALUE for
#     each N=VALUE, and holds TEXT (~TEXT); read in this shell, not an awk
#     per check
csv_row() {
	local _f=$1 _l _c _n IFS=,
	local -a _a
	local -
	set -f
	shift
	while IFS= read -r _l || [ -n "$_l" ]; do
		_a=($_l)
		for _c; do
			if [ "${_c:0:1}" = "~" ]; then
				[[ $_l == *"${_c:1}"* ]] || continue 2
			else
				_n=${_c%%=*}
				[ "${_a[_n - 1]-}" = "${_c#*=}" ] || continue 2
			fi
		done
		return 0
	done <"$_f"
	return 1
}
