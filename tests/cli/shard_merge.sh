#!/usr/bin/env bash
# shard_merge.sh — `run --shard K/N` and `merge`: the test objects run as
# three shards in parallel (GNU parallel, as on several machines), merged,
# equal the same objects run at once: every (program, tracker) once, the
# same verdicts and counts (compare: 0 changes). Merging twice adds
# nothing; an input with another schema version is refused by name.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

objs=${RB_TEST_BIN:-build/test}/objects
. "$(dirname "$0")/lib/tiny.sh"
mkdir -p "$tmp/corpus"
# three objects, 52 programs of unequal cost (from 1 instruction to
# thousands; verdicts success and failure): enough for three shards of
# several programs each, every object's programs dealt to several shards,
# and a cost plan with a clear heaviest program. Every test object (47,
# insn_limit's million instructions among them) cost this test 125 s of
# CPU under the sanitizers, run eight times over, for the same properties;
# six objects (90 programs) a third more than these three: a run starts a
# verifier child per object it has programs of, and each shard has
# programs of nearly every object.
# Two trackers, one engine and the running kernel (the two kinds of rows):
# a shard, a merge and a cost plan deal out programs, whatever the trackers;
# the default five cost the nine runs here twice the CPU.
TR='--trackers old,kernel'
cp "$tmp/tiny.o" "$objs"/engine_fidelity.bpf.o "$objs"/encodings.bpf.o "$tmp/corpus/"

$RB run -q --no-census --db "$tmp/single.sqlite" --label whole $TR -j 2 "$tmp/corpus" >"$tmp/single.out" 2>&1
check "single run exits 0" "[ $? -eq 0 ]" "$tmp/single.out"
total=$(sqlite3 "$tmp/single.sqlite" "SELECT count(*) FROM results")

# three shards at once, each its own database
if command -v parallel >/dev/null; then
	parallel --will-cite -j 3 "$RB run -q --no-census --db $tmp/shard{}.sqlite --label sharded $TR -j 1 --shard {}/3 $tmp/corpus >$tmp/shard{}.out 2>&1" ::: 1 2 3
	check "GNU parallel ran the 3 shards (exit 0)" "[ $? -eq 0 ]" "$tmp/shard1.out"
else
	echo "# GNU parallel not installed (make installs it): shards as background jobs"
	for k in 1 2 3; do
		$RB run -q --no-census --db "$tmp/shard$k.sqlite" --label sharded $TR -j 1 --shard $k/3 "$tmp/corpus" >"$tmp/shard$k.out" 2>&1 &
	done
	wait
	ok "3 shards ran as background jobs"
fi
# the three shards' rows from one sqlite3 (was three)
read -r s1 s2 s3 <<<"$(sqlite3 -separator ' ' "$tmp/shard1.sqlite" "ATTACH '$tmp/shard2.sqlite' AS b; ATTACH '$tmp/shard3.sqlite' AS c;
	SELECT (SELECT count(*) FROM main.results), (SELECT count(*) FROM b.results), (SELECT count(*) FROM c.results)")"
check "the shards split the rows ($s1 + $s2 + $s3 = $total), none empty-handed overall" \
	"[ $((s1 + s2 + s3)) -eq $total ] && [ $s1 -lt $total ] && [ $s2 -lt $total ] && [ $s3 -lt $total ]"

$RB merge "$tmp/all.sqlite" "$tmp/single.sqlite" "$tmp/shard1.sqlite" "$tmp/shard2.sqlite" "$tmp/shard3.sqlite" \
	>"$tmp/merge.out" 2>&1
check "merge exits 0" "[ $? -eq 0 ]" "$tmp/merge.out"
check "the shards became one complete run" \
	"[ \"\$(sqlite3 $tmp/all.sqlite \"SELECT count(*) || ':' || min(status) FROM runs WHERE label = 'sharded'\")\" = 1:complete ]" \
	"$tmp/merge.out"
check "merged run has every (program, tracker) once ($total)" \
	"[ \"\$(sqlite3 $tmp/all.sqlite \"SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'sharded'\")\" = $total ]"
$RB compare --db "$tmp/all.sqlite" --summary whole sharded >"$tmp/cmp.out" 2>&1
check "compare whole vs merged shards exits 0" "[ $? -eq 0 ]" "$tmp/cmp.out"
check "0 verdict changes, 0 count changes, nothing only on one side" \
	"has_ere $tmp/cmp.out '^verdict changes +0$' && has_ere $tmp/cmp.out '^changed \(verdict or counts\) +0$' && ! has_ere $tmp/cmp.out '^excluded: only in'" \
	"$tmp/cmp.out"

before=$(sqlite3 "$tmp/all.sqlite" "SELECT (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM programs) || '/' || (SELECT count(*) FROM results)")
$RB merge "$tmp/all.sqlite" "$tmp/shard2.sqlite" "$tmp/single.sqlite" >"$tmp/merge2.out" 2>&1
after=$(sqlite3 "$tmp/all.sqlite" "SELECT (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM programs) || '/' || (SELECT count(*) FROM results)")
check "merging the same inputs again adds nothing ($before -> $after)" "[ \"$before\" = \"$after\" ]" "$tmp/merge2.out"

cp "$tmp/shard1.sqlite" "$tmp/old.sqlite"
sqlite3 "$tmp/old.sqlite" "PRAGMA user_version = 1"
$RB merge "$tmp/all.sqlite" "$tmp/old.sqlite" >"$tmp/merge3.out" 2>&1
rc=$?
check "another schema version: refused (exit 2) naming the file and versions" \
	"[ $rc -eq 2 ] && has_ere $tmp/merge3.out 'old.sqlite: schema version 1'" "$tmp/merge3.out"
printf 'not a database at all, just text, long enough\n' >"$tmp/junk.sqlite"
$RB merge "$tmp/all.sqlite" "$tmp/junk.sqlite" >"$tmp/merge4.out" 2>&1
check "a file that is not a database: refused" \
	"[ $? -eq 2 ] && has_ere $tmp/merge4.out 'junk.sqlite: not an SQLite database'" "$tmp/merge4.out"
check "a refused input leaves the output unchanged" \
	"[ \"\$(sqlite3 $tmp/all.sqlite \"SELECT (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM programs) || '/' || (SELECT count(*) FROM results)\")\" = \"$after\" ]"
$RB run -q --db "$tmp/x.sqlite" --shard 4/3 "$tmp/corpus" >"$tmp/bad.out" 2>&1
check "--shard 4/3 is refused" "[ $? -eq 2 ] && has_ere $tmp/bad.out 'shard wants K/N'" "$tmp/bad.out"

# census and bench runs travel too (rows made here by hand, as those commands write them)
cp "$tmp/single.sqlite" "$tmp/cb.sqlite"
sqlite3 "$tmp/cb.sqlite" "INSERT INTO runs (id, kind, label, started_at, status) VALUES (50, 'bench', 'b', '2026-01-01T00:00:00Z', 'complete'), (51, 'census', 'c', '2026-01-01T00:00:01Z', 'complete');
INSERT INTO bench (run_id, op, tracker, ns_per_op, iterations) VALUES (50, 'alu64_add', 'old', 3.5, 1000), (50, 'alu64_add', 'cnum', 2.5, 1000);
INSERT INTO census (run_id, tracker, width, op, cases, unsound) VALUES (51, 'cnum', 8, 'add8', 65536, 0)"
$RB merge "$tmp/all.sqlite" "$tmp/cb.sqlite" >"$tmp/merge5.out" 2>&1
check "bench and census rows merged with their runs" \
	"[ \"\$(sqlite3 $tmp/all.sqlite \"SELECT (SELECT count(*) FROM bench b JOIN runs r ON r.id = b.run_id WHERE r.kind = 'bench') || '/' || (SELECT count(*) FROM census c JOIN runs r ON r.id = c.run_id WHERE r.kind = 'census')\")\" = 2/1 ]" \
	"$tmp/merge5.out"

# the README's GNU parallel recipe, as the script that runs it (scripts/shards-parallel.sh), run as written
if command -v parallel >/dev/null; then
	RB=$RB scripts/shards-parallel.sh -n 2 -t old,kernel -l viaparallel -d "$tmp/pshards" "$tmp/pmerged.sqlite" "$tmp/corpus" \
		>"$tmp/psh.out" 2>&1
	check "scripts/shards-parallel.sh -n 2 exits 0" "[ $? -eq 0 ]" "$tmp/psh.out"
	check "its 2 shards merged into one complete run with every (program, tracker) once ($total)" \
		"[ \"\$(sqlite3 $tmp/pmerged.sqlite \"SELECT count(*) || ':' || min(u.status) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'viaparallel'\")\" = $total:complete ]" \
		"$tmp/psh.out"
	# -t reaches the shards (their runs' trackers those given, not run's
	# default five): read from the run above (was a run of the script with
	# -t old of its own, two more shards and a merge)
	check "-t old,kernel: the shards ran old and kernel alone, every (program, tracker) once" \
		"[ \"\$(sqlite3 $tmp/pmerged.sqlite \"SELECT (SELECT group_concat(DISTINCT trackers) FROM runs) || ':' || (SELECT count(*) FROM results)\")\" = old,kernel:\$(sqlite3 $tmp/single.sqlite \"SELECT count(*) FROM results WHERE tracker IN ('old', 'kernel')\") ]" \
		"$tmp/psh.out"
	RB=$RB scripts/shards-parallel.sh -n 2 -l 'bad;label' "$tmp/p2.sqlite" "$tmp/corpus" >"$tmp/psh2.out" 2>&1
	check "a label that is not a plain word is refused (exit 2)" "[ $? -eq 2 ] && [ ! -e $tmp/p2.sqlite ]" "$tmp/psh2.out"
	# the same over ssh (-S), where this machine lets root ssh to itself
	# without a password: the shards come back into DIR, and DIR survives
	# (with one path on both ends, --cleanup used to delete the shards
	# already returned, and their directory)
	if ssh -o BatchMode=yes -o ConnectTimeout=3 localhost true >/dev/null 2>&1; then
		RB=$RB scripts/shards-parallel.sh -n 2 -S 2/localhost -t old,kernel -l viassh -d "$tmp/sshards" "$tmp/smerged.sqlite" \
			"$tmp/corpus" >"$tmp/ssh.out" 2>&1
		check "scripts/shards-parallel.sh -S 2/localhost exits 0, both shards kept in DIR" \
			"[ $? -eq 0 ] && [ -s $tmp/sshards/viassh.1.sqlite ] && [ -s $tmp/sshards/viassh.2.sqlite ]" "$tmp/ssh.out"
		check "over ssh: one complete run with every (program, tracker) once ($total)" \
			"[ \"\$(sqlite3 $tmp/smerged.sqlite \"SELECT count(*) || ':' || min(u.status) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'viassh'\")\" = $total:complete ]" \
			"$tmp/ssh.out"
	else
		echo "# no password-less ssh to localhost: shards-parallel.sh -S not run"
	fi
else
	echo "# GNU parallel not installed: scripts/shards-parallel.sh not run"
fi

# shards balanced by cost (--shard-costs: the single run's instructions):
# the programs the plan deals out largest first to the least loaded shard,
# so the heaviest goes to shard 1 and the two shards' work differs by no
# more than one program's cost (the LPT bound); the split stays exact
for k in 1 2; do
	$RB run --no-census --db "$tmp/cost$k.sqlite" --label costed $TR -j 1 --shard $k/2 \
		--shard-costs "$tmp/single.sqlite" "$tmp/corpus" >"$tmp/cost$k.out" 2>&1
	check "--shard $k/2 --shard-costs: exit 0, the plan said" \
		"[ $? -eq 0 ] && grep -q \"^shard plan: [0-9]* programs' costs from $tmp/single.sqlite; shard $k of 2 expects\" $tmp/cost$k.out" \
		"$tmp/cost$k.out"
done
# each shard's work and rows, the single run's heaviest program and its
# cost, from one sqlite3 (was six)
read -r w1 w2 c1 c2 big heavy <<<"$(sqlite3 -separator ' ' "$tmp/single.sqlite" "ATTACH '$tmp/cost1.sqlite' AS k1; ATTACH '$tmp/cost2.sqlite' AS k2;
	SELECT (SELECT coalesce(sum(insns_processed), 0) + 2000 * count(*) FROM k1.results),
	(SELECT coalesce(sum(insns_processed), 0) + 2000 * count(*) FROM k2.results),
	(SELECT count(*) FROM k1.results), (SELECT count(*) FROM k2.results),
	(SELECT max(c) FROM (SELECT sum(coalesce(r.insns_processed, 0)) + 2000 * count(*) AS c FROM main.results r JOIN main.programs p ON p.id = r.program_id GROUP BY p.obj_sha256, p.section, p.name)),
	(SELECT p.obj_sha256 || '/' || p.section || '/' || p.name FROM main.results r JOIN main.programs p ON p.id = r.program_id GROUP BY p.obj_sha256, p.section, p.name ORDER BY sum(coalesce(r.insns_processed, 0)) + 2000 * count(*) DESC, 1 LIMIT 1)")"
check "costed shards split the rows exactly ($c1 + $c2 = $total)" "[ $((c1 + c2)) -eq $total ] && [ $c1 -gt 0 ] && [ $c2 -gt 0 ]"
check "costed shards' work within one program of each other (|$w1 - $w2| <= $big)" \
	"[ \$(( w1 > w2 ? w1 - w2 : w2 - w1 )) -le $big ]"
check "the heaviest program ($heavy) dealt first, to shard 1" \
	"[ \"\$(sqlite3 $tmp/cost1.sqlite \"SELECT count(*) FROM programs p WHERE p.obj_sha256 || '/' || p.section || '/' || p.name = '$heavy'\")\" -ge 1 ]"
$RB run -q --no-census --db "$tmp/x2.sqlite" --shard-costs "$tmp/single.sqlite" "$tmp/corpus" >"$tmp/bad2.out" 2>&1
check "--shard-costs without --shard is refused" "[ $? -eq 2 ] && has_ere $tmp/bad2.out 'needs --shard K/N'" "$tmp/bad2.out"
$RB run -q --no-census --db "$tmp/x3.sqlite" --shard 1/2 --shard-costs "$tmp/nope.sqlite" "$tmp/corpus" >"$tmp/bad3.out" 2>&1
check "--shard-costs with a missing database: refused naming it" "[ $? -eq 2 ] && has_ere $tmp/bad3.out 'nope.sqlite'" "$tmp/bad3.out"
