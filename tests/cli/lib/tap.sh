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
