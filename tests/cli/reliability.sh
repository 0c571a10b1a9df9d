#!/usr/bin/env bash
# reliability.sh — hostile input and faults (issue 15): a FIFO given as an
# object, a database that cannot be written, objects that fail to open,
# a symlink loop in a corpus, colliding extract outputs, a memory-hungry
# verifier child, bad option values, foreign and missing databases, an
# ambiguous run name, and the store's writer failing at a random point.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
trap 'chattr -i "$tmp"/ro.sqlite 2>/dev/null; rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib/tiny.sh"

# --- a FIFO as an object: an error naming it, never a hang
mkfifo "$tmp/p.o"
timeout 10 $RB load "$tmp/p.o" >"$tmp/fifo.out" 2>&1
rc=$?
check "load of a FIFO: exit 2 at once, 'not a regular file (a FIFO)'" \
	"[ $rc -eq 2 ] && grep -q 'p.o: .*not a regular file (a FIFO)' $tmp/fifo.out" "$tmp/fifo.out"
timeout 10 $RB extract --list "$tmp/p.o" >"$tmp/fifo2.out" 2>&1
check "extract of a FIFO: exit 2 at once" "[ $? -eq 2 ]" "$tmp/fifo2.out"
timeout 20 $RB run -q --db "$tmp/fifo.sqlite" --trackers old "$tmp/p.o" >"$tmp/fifo3.out" 2>&1
rc=$?
check "run on a FIFO: finishes, one load_error row naming the reason, run complete" \
	"[ $rc -ne 124 ] && [ \"\$(sqlite3 $tmp/fifo.sqlite \"SELECT verdict || ':' || (msg LIKE '%a FIFO%') FROM results\")\" = load_error:1 ] && [ \"\$(sqlite3 $tmp/fifo.sqlite 'SELECT status FROM runs')\" = complete ] && has_ere $tmp/fifo3.out 'rangebench run: .*p.o: .*a FIFO'" "$tmp/fifo3.out"
rm "$tmp/p.o"

# --- objects that cannot be opened: one row each, never overwritten
mkdir "$tmp/m"
long=/nonexistent/a_rather_long_directory_name_for_the_corpus_objects_xyz_0123456789
printf 'object\tsource\n%s/first.o\tx\n%s/second.o\tx\n%s/third.o\tx\n' $long $long $long >"$tmp/m/manifest.tsv"
$RB run -q --db "$tmp/m.sqlite" --trackers old,cnum --label m "$tmp/m" >"$tmp/m.out" 2>&1
check "three missing objects: 6 rows stored and reported, each under its own path" \
	"[ \"\$(sqlite3 $tmp/m.sqlite 'SELECT count(*) || \":\" || count(DISTINCT program_id) || \":\" || count(DISTINCT obj_path) FROM results')\" = 6:3:3 ] && has_ere $tmp/m.out '6 rows stored' && [ \$(grep -c 'rangebench run: .*cannot open' $tmp/m.out) -eq 3 ]" "$tmp/m.out"

# --- a symlink loop in a corpus directory: walked once
mkdir "$tmp/loop"
cp "$tmp/tiny.o" "$tmp/loop/"
ln -s . "$tmp/loop/a"
ln -s . "$tmp/loop/b"
ln -s .. "$tmp/loop/c"
timeout 30 $RB run -q --db "$tmp/loop.sqlite" --trackers old "$tmp/loop" >"$tmp/loop.out" 2>&1
rc=$?
check "three self-links in a corpus: the run finds the one object, quickly" \
	"[ $rc -eq 0 ] && [ \"\$(sqlite3 $tmp/loop.sqlite 'SELECT count(*) FROM results')\" = 6 ]" "$tmp/loop.out"

# --- a database that cannot be written can be read (its second run labelled
# 1, a label that looks like a run id: read by the checks further below)
$RB run -q --db "$tmp/ro.sqlite" --trackers old --label A "$tmp/tiny.o" >/dev/null 2>&1
$RB run -q --db "$tmp/ro.sqlite" --trackers old --label 1 "$tmp/tiny.o" >/dev/null 2>&1
sqlite3 "$tmp/ro.sqlite" 'SELECT 1' >/dev/null # a clean close (checkpoint)
if chattr +i "$tmp/ro.sqlite" 2>/dev/null; then
	$RB query --db "$tmp/ro.sqlite" runs >"$tmp/ro1.out" 2>&1
	check "query on an immutable database: exit 0, both runs listed" \
		"[ $? -eq 0 ] && has_ere $tmp/ro1.out '^ *2 +1 '" "$tmp/ro1.out"
	$RB compare --db "$tmp/ro.sqlite" A label:1 --summary >"$tmp/ro2.out" 2>&1
	check "compare on an immutable database: exit 0" "[ $? -eq 0 ]" "$tmp/ro2.out"
	$RB plot --db "$tmp/ro.sqlite" -o "$tmp/roplot" --format svg --only before_after A label:1 >"$tmp/ro3.out" 2>&1
	check "plot on an immutable database: exit 0" "[ $? -eq 0 ]" "$tmp/ro3.out"
	chattr -i "$tmp/ro.sqlite"
else
	ok "# SKIP chattr +i not supported here (immutable database)"
fi

# --- several runs creating one new database at once (D5): every one succeeds
fails=0
for it in 1 2 3; do
	pids=""
	for k in 1 2 3 4; do
		$RB run -q --db "$tmp/new$it.sqlite" --label r$k --trackers old "$tmp/tiny.o" >"$tmp/new$it.$k.out" 2>&1 &
		pids="$pids $!"
	done
	k=0
	for p in $pids; do
		k=$((k + 1))
		wait "$p" || { fails=$((fails + 1)); echo "# run $k on new database $it failed:"; sed 's/^/#   /' "$tmp/new$it.$k.out"; }
	done
	[ "$(sqlite3 "$tmp/new$it.sqlite" "SELECT count(*) || ':' || min(status) || ':' || max(status) FROM runs")" = 4:complete:complete ] ||
		{ fails=$((fails + 1)); echo "# new database $it: $(sqlite3 "$tmp/new$it.sqlite" 'SELECT id, status FROM runs')"; }
done
check "4 runs creating one new database at once, 3 times: all 12 succeed, 4 complete runs each" "[ $fails -eq 0 ]"

# --- a corpus path longer than PATH_MAX: that object's load_error row, whose
# reason is not cut off, and the other objects verified (one object costs one row);
# and a tree deeper than the walk goes: that directory's row says so, nothing
# skipped silently. One corpus holds both, one run (was two); the directories
# made by one mkdir -p each (was 83 mkdir processes; issue 26)
deep=$tmp/deep; printf -v seg 'd%.0s' {1..240}; mkdir -p "$deep"
p=$seg; for i in {2..17}; do p=$p/$seg; done
(cd "$deep" && mkdir -p "$p" && for i in {1..17}; do cd $seg; done && cp "$tmp/tiny.o" deep.o) 2>/dev/null
cp "$tmp/tiny.o" "$deep/shallow.o"
p=d; for i in {2..66}; do p=$p/d; done
mkdir -p "$deep/$p" && cp "$tmp/tiny.o" "$deep/$p/bottom.o"
tiny_obj "$deep/top.o" 1 # not shallow.o's content: a run verifies an object once
$RB run -q --db "$tmp/deep.sqlite" --trackers old "$deep" >"$tmp/deep.out" 2>&1
rc=$?
sqlite3 -separator ' ' "$tmp/deep.sqlite" "SELECT r.verdict, length(p.obj_path), r.msg FROM results r JOIN programs p ON p.id = r.program_id WHERE r.verdict = 'load_error';
SELECT '#runs', status FROM runs;
SELECT '#verified', p.obj_path LIKE '%/top.o', count(*) FROM results r JOIN programs p ON p.id = r.program_id WHERE (p.obj_path LIKE '%/shallow.o' OR p.obj_path LIKE '%/top.o') AND r.verdict IN ('success', 'failure') GROUP BY 2" >"$tmp/deep.rows" 2>&1
check "a path over PATH_MAX in a corpus: one load_error row, the path shortened, the reason whole" \
	"[ \$(grep -c 'path longer than' $tmp/deep.rows) -eq 1 ] && has_ere $tmp/deep.rows '^load_error [0-9]+ .{80}\.\.\..*deep\.o: path longer than 4095 bytes \(File name too long\)$'" "$tmp/deep.rows"
check "a path over PATH_MAX in a corpus: the other object verified, the run complete" \
	"has_ere $tmp/deep.rows '^#verified 0 [1-9][0-9]*$' && grep -qx '#runs complete' $tmp/deep.rows && [ $rc -ne 2 ]" "$tmp/deep.rows"
check "a corpus deeper than 64 directories: the too-deep directory's load_error row, the rest verified" \
	"[ \$(grep -c 'more than 64 levels below the corpus: not walked$' $tmp/deep.rows) -eq 1 ] && has_ere $tmp/deep.rows '^#verified 1 [1-9][0-9]*$'" "$tmp/deep.rows"
check "that corpus: no load_error row but those two" "[ \$(grep -c '^load_error ' $tmp/deep.rows) -eq 2 ]" "$tmp/deep.rows"
rm -rf "$deep"

# --- readers never create or convert a database
$RB query --db "$tmp/typo.sqlite" runs >"$tmp/typo.out" 2>&1
check "a mistyped --db: exit 2, 'no such database', no file created" \
	"[ $? -eq 2 ] && has_ere $tmp/typo.out 'no such database' && [ ! -e $tmp/typo.sqlite ]" "$tmp/typo.out"
sqlite3 "$tmp/other.db" 'CREATE TABLE t (x)'
$RB run -q --db "$tmp/other.db" --trackers old "$tmp/tiny.o" >"$tmp/other.out" 2>&1
check "a foreign database: refused by a writer and left in its journal mode" \
	"[ $? -eq 2 ] && has_ere $tmp/other.out 'not a rangebench database' && [ \"\$(sqlite3 $tmp/other.db 'PRAGMA journal_mode')\" = delete ]" "$tmp/other.out"

# --- a label that looks like a run id (run 2 of ro.sqlite, above)
$RB compare --db "$tmp/ro.sqlite" A 1 >"$tmp/amb.out" 2>&1
check "'1' as both a run id and a label: an error saying id:1 or label:1" \
	"[ $? -eq 2 ] && has_ere $tmp/amb.out 'say id:1 or label:1'" "$tmp/amb.out"
$RB compare --db "$tmp/ro.sqlite" A label:1 >"$tmp/amb2.out" 2>&1
check "label:1 names the run labelled 1 (run 2)" "grep -q '^A = run 1 (A, complete), B = run 2 (1, complete)' $tmp/amb2.out" "$tmp/amb2.out"
$RB compare --db "$tmp/ro.sqlite" --trackers old,bogus A >"$tmp/bogus.out" 2>&1
check "compare with a tracker the run does not have: exit 2 naming it" \
	"[ $? -eq 2 ] && grep -q \"no results of tracker 'bogus' (it has: old)\" $tmp/bogus.out" "$tmp/bogus.out"

# --- option values
for v in nan '' inf 0x10 1e400 -1; do
	$RB run -q --db "$tmp/opt.sqlite" --trackers old --time-limit "$v" "$tmp/tiny.o" >"$tmp/tl.out" 2>&1
	check "--time-limit '$v' refused (exit 2)" "[ $? -eq 2 ] && has_ere $tmp/tl.out 'time-limit wants seconds'" "$tmp/tl.out"
done
# (that run is the one plot reads below: a run where no program has a state,
# prog_zero's of old and cnum; one run, not two)
printf -v trs 'old,%.0s' {1..70}
$RB run -q --db "$tmp/pl0.sqlite" --trackers "${trs}cnum" --label Z --filter prog_zero "$tmp/tiny.o" >"$tmp/tr.out" 2>&1
check "a 285-character --trackers list is read whole (old and cnum ran)" \
	"[ \"\$(sqlite3 $tmp/pl0.sqlite \"SELECT (SELECT trackers FROM runs ORDER BY id DESC LIMIT 1) || ':' || (SELECT count(DISTINCT tracker) FROM results)\")\" = old,cnum:2 ]" "$tmp/tr.out"
$RB run -q --db "$tmp/opt.sqlite" --trackers old,kernel --insn-limit 1000 "$tmp/tiny.o" >"$tmp/il.out" 2>&1
check "--insn-limit with the kernel tracker: refused, saying why" \
	"[ $? -eq 2 ] && grep -q \"kernel's budget is fixed\" $tmp/il.out" "$tmp/il.out"

$RB kdiff -C -5 "$tmp/tiny.o:prog_zero" >"$tmp/kc.out" 2>&1
check "kdiff -C -5 refused (exit 2), saying what -C wants" "[ $? -eq 2 ] && grep -q -- \"-C wants lines of context, 0..1000, not '-5'\" $tmp/kc.out" "$tmp/kc.out"
$RB kdiff --tracker kernel "$tmp/tiny.o:prog_zero" >"$tmp/kk.out" 2>&1
check "kdiff --tracker kernel refused (exit 2): the kernel is the other side" "[ $? -eq 2 ] && has_ere $tmp/kk.out '--tracker names the engine'" "$tmp/kk.out"
$RB execcheck --gen -5 >"$tmp/eg.out" 2>&1
check "execcheck --gen -5 refused (exit 2)" "[ $? -eq 2 ] && has_ere $tmp/eg.out '--gen wants a number'" "$tmp/eg.out"

# --- --btf: a bad file is one error naming it and the reason, before any object
printf 'junk' >"$tmp/junk.btf"
for b in "$tmp/junk.btf:not BTF: neither raw BTF" "$tmp/none.btf:cannot open: No such file" "$tmp:not a regular file (a directory)"; do
	f=${b%%:*}; why=${b#*:}
	$RB load --btf "$f" "$tmp/tiny.o" >"$tmp/btf.out" 2>&1
	rc=$?
	check "load --btf $(basename "$f"): exit 2, 'rangebench load: --btf FILE: $why'" \
		"[ $rc -eq 2 ] && grep -qF 'rangebench load: --btf $f: $why' $tmp/btf.out && [ \$(wc -l <$tmp/btf.out) -eq 1 ]" "$tmp/btf.out"
done
$RB verify --btf "$tmp/junk.btf" "$tmp/tiny.o" >"$tmp/btf2.out" 2>&1
check "verify --btf junk: exit 2 naming the BTF file" "[ $? -eq 2 ] && grep -qF 'rangebench verify: --btf $tmp/junk.btf: not BTF' $tmp/btf2.out" "$tmp/btf2.out"

# --- extract: inputs with the same base name never overwrite each other
mkdir "$tmp/A" "$tmp/B" "$tmp/ex"
cp "$tmp/tiny.o" "$tmp/A/prog"
tiny_obj "$tmp/B/prog" 7
$RB extract -o "$tmp/ex" "$tmp/A/prog" "$tmp/B/prog" >"$tmp/ex.out" 2>&1
check "extract of two 'prog's: prog.0.o and prog~2.0.o, both kept" \
	"[ $? -eq 0 ] && cmp -s $tmp/ex/prog.0.o $tmp/A/prog && cmp -s $tmp/ex/prog~2.0.o $tmp/B/prog" "$tmp/ex.out"

# --- plot on tiny data: two runs of one program, a run where no program
# has a state: rendered or skipped with a note, never a gnuplot error
$RB run -q --db "$tmp/pl.sqlite" --trackers old,cnum --label A --filter prog_loop "$tmp/tiny.o" >/dev/null 2>&1
$RB run -q --db "$tmp/pl.sqlite" --trackers old,cnum --label B --filter prog_loop "$tmp/tiny.o" >/dev/null 2>&1
$RB plot --db "$tmp/pl.sqlite" -o "$tmp/pla" --format svg --only before_after A B >"$tmp/pla.out" 2>&1
check "plot before_after of two runs of one program: rendered, exit 0" \
	"[ $? -eq 0 ] && has_ere $tmp/pla.out '^1 chart rendered, 0 skipped, 0 failed' && [ -s $tmp/pla/before_after.svg ]" "$tmp/pla.out"
$RB plot --db "$tmp/pl0.sqlite" -o "$tmp/plb" --format svg --only scatter_states >"$tmp/plb.out" 2>&1
check "plot scatter_states where every program has 0 states: skipped with a note, exit 0" \
	"[ $? -eq 0 ] && has_ere $tmp/plb.out '^skipped  scatter_states  nothing to draw' && ! grep -qi gnuplot $tmp/plb.out" "$tmp/plb.out"

# --- a verifier child past its memory limit: a 'limit' row naming it
# (120 MiB: the sanitizer-built child verifies prog_zero in under 40 MiB;
# the hog's 64 MiB blocks pass 120 in two steps, where 400 took seven and
# 1.9 s of CPU, mostly the kernel faulting the pages in, for the same check)
RB_TEST_FAULT='old:hog' timeout 60 $RB run -q --db "$tmp/mem.sqlite" --trackers old --mem-limit 120 \
	--filter prog_zero "$tmp/tiny.o" >"$tmp/mem.out" 2>&1
check "memory-hungry child: killed, verdict limit 'memory limit of 120 MiB exceeded'" \
	"[ \"\$(sqlite3 $tmp/mem.sqlite \"SELECT verdict || ':' || (msg LIKE 'memory limit of 120 MiB exceeded%') FROM results\")\" = limit:1 ]" "$tmp/mem.out"

# --- the store's writer failing at a random statement (SQLite progress
# handler, test builds): the database stays readable, and the run's status
# and the rows it reports are what the file holds
# Fixed points (they were random; a random point made CI flaky): early
# schema, mid-run result rows, late summary; and counted from the run's
# final status update (end+K): before its commit, and after it, where
# SQLite reports a committed update as interrupted (the run then says what
# the file says: it reads its status and rows back). The commit's point is
# looked for from end+52 down to end+41, stopping once a run hit it: with
# this SQLite end+52 (the points below it fail before the commit, as
# end+1, end+20 and end+40 do; each run ~0.5 s of CPU, 21 in all before).
fails=0
i=0
after_commit=0
for at in 186 373 471 1013 1569 2200 end+1 end+20 end+40 end+{52..41}; do
	case $at in end+4[1-9] | end+5[0-2]) [ $after_commit -gt 0 ] && break ;; esac
	i=$((i + 1))
	db=$tmp/fault$i.sqlite
	RB_TEST_STORE_FAULT=$at $RB run -q --db "$db" --trackers old,cnum -j 2 --label f "$tmp/tiny.o" >"$tmp/f.out" 2>&1
	rc=$?
	echo "# fault at $at: exit $rc"
	# what the run said, read by the shell (was grep, sed, sed | tr; and
	# below awk, and three sqlite3 where one does: issue 26)
	said="" claimed="" stored=0
	while IFS= read -r l; do
		[[ $l =~ ^run\ 1\ \(f\)\ ([A-Za-z]*) ]] && said=${BASH_REMATCH[1],,}
		[[ $l =~ :\ ([0-9]*)\ rows\ stored ]] && claimed=${BASH_REMATCH[1]}
		[[ $l =~ reported\ an\ error\ .*,\ but\ it\ was\ stored ]] && stored=1
	done <"$tmp/f.out"
	after_commit=$((after_commit + stored))
	[ -e "$db" ] || continue # failed before the schema existed: nothing left behind
	integ="" nruns="" rows=""
	while IFS= read -r l; do
		case $l in i:*) integ=${l#i:} ;; r:*) nruns=${l#r:} ;; n:*) rows=${l#n:} ;; esac
	done <<<"$(sqlite3 "$db" "SELECT 'i:' || group_concat(integrity_check, ' ') FROM pragma_integrity_check; SELECT 'r:' || count(*) FROM runs; SELECT 'n:' || count(*) FROM results" 2>/dev/null)"
	if [ "$integ" != ok ]; then
		fails=$((fails + 1)); echo "# fault at $at: integrity $integ"; continue
	fi
	[ "$nruns" = 1 ] || continue # failed before the run began
	$RB query --db "$db" runs >"$tmp/fq.out" 2>&1 || { fails=$((fails + 1)); echo "# fault at $at: unreadable"; sed 's/^/#   /' "$tmp/fq.out"; continue; }
	shown=""
	while read -r a b c d rest; do [ "$a" = 1 ] && shown=$d; done <"$tmp/fq.out"
	# what the run said (if it got to say it) is what the file holds; a
	# complete run has all 12 rows; exit 0 only for a complete run
	if { [ -n "$said" ] && [ "$said" != "$shown" ]; } || { [ -n "$claimed" ] && [ "$claimed" != "$rows" ]; } ||
		{ [ "$shown" = complete ] && [ "$rows" != 12 ]; } || { [ "$rc" -eq 0 ] && [ "$shown" != complete ]; }; then
		fails=$((fails + 1))
		echo "# fault at $at: exit $rc, said '$said' with '$claimed' rows; the file: $shown, $rows rows"
		sed 's/^/#   /' "$tmp/f.out"
	fi
done
check "writer failing at a chosen statement ($i runs): readable, status and row counts true" "[ $fails -eq 0 ]"
check "the final status update reported failed although committed (end+52..41 hit it $after_commit times): the run says complete, as the file does" \
	"[ $after_commit -gt 0 ]"
