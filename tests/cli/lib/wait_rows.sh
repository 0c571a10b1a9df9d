# wait_rows.sh — sourced after tap.sh: wait_rows RUN_ID DB waits until run
# RUN_ID of database DB has at least one result row (20 s at most; 1 if
# none came). For tests that signal a run while it runs.
wait_rows() {
	for _ in {1..200}; do
		c=$(sqlite3 "$2" "SELECT count(*) FROM results WHERE run_id = $1" 2>/dev/null)
		[ -n "$c" ] && [ "$c" -ge 1 ] && return 0
		sleep 0.1
	done
	return 1
}
