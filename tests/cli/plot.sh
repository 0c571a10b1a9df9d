#!/usr/bin/env bash
# plot.sh — every chart script renders from a small hand-made database
# (fixtures/plot_fixture.sql): PNG at slide size (1600x900) and SVG, for
# each chart; charts without data are skipped with a note, not failed.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh

db=$tmp/fx.sqlite
sqlite3 "$db" <db/schema.sql # readers never create a database
sqlite3 "$db" <tests/cli/fixtures/plot_fixture.sql
check "fixture database loaded" "[ \"\$(sqlite3 $db 'SELECT count(*) FROM results')\" = 480 ]"

$RB plot --db "$db" -o "$tmp/out" before after >"$tmp/plot.out" 2>&1
check "plot exits 0" "[ $? -eq 0 ]" "$tmp/plot.out"
# (kernels needs a kernel image's rows: tests/cli/guest.sh renders it;
# kernels_attribution needs `attribute`'s rows: tests/cli/attribute.sh;
# profile_matrix the @7.2 rows, below)
# (the names, the PNG headers and the SVGs read in this shell: one od per
# chart, no ls, basename, sed, grep, tr, awk or $(...) per chart)
charts="" ncharts=0
for c in plots/*.gp; do
	c=${c##*/} c=${c%.gp}
	case $c in style | kernels | kernels_attribution | profile_matrix) continue ;; esac
	charts+="$c " ncharts=$((ncharts + 1))
done
for c in $charts; do
	png=$tmp/out/$c.png svg=$tmp/out/$c.svg
	# PNG signature, then IHDR width and height (big-endian) at bytes 16..23
	od -An -tu1 -N24 -v "$png" >"$tmp/png.hdr" 2>/dev/null || : >"$tmp/png.hdr"
	mapfile -t b <"$tmp/png.hdr"
	# shellcheck disable=SC2206 # od's numbers, one word each
	b=(${b[*]})
	sig="" wh=""
	if [ ${#b[@]} -eq 24 ]; then
		printf -v sig %02x "${b[@]:0:8}"
		wh=$((b[16] * 16777216 + b[17] * 65536 + b[18] * 256 + b[19]))x$((b[20] * 16777216 + b[21] * 65536 + b[22] * 256 + b[23]))
	fi
	check "$c.png is a 1600x900 PNG" "[ '$sig' = 89504e470d0a1a0a ] && [ '$wh' = 1600x900 ]" "$tmp/plot.out"
	case $c in
	agreement) title="Verdict agreement with the Linux 6.18 verifier" ;;
	before_after) title="run 2 (after) (1 verdict changes, " ;;
	bench_ratio) title="geometric mean: cnum 0.94, cnum-mainline 1.04, arc2 4.25" ;;
	cdf_time_ratio) title="Verification time per program, each tracker / old (60 programs)" ;;
	census) title="Operator precision" ;;
	metric_ratios) title="Every metric relative to old: geometric mean of tracker / old" ;;
	scatter_insns) title="Instructions processed per program: cnum vs old (60 programs," ;;
	scatter_states) title="Verifier states per program: cnum vs old (60 programs," ;;
	state_bytes) title="Bytes per state" ;;
	*) title="(a chart this test does not know: add it)" ;;
	esac
	s=""
	[ -f "$svg" ] && IFS= read -r -d '' s <"$svg"
	check "$c.svg is an SVG titled '$title'" "[[ \$s == *'<svg'* && \$s == *'$title'* ]]" "$tmp/plot.out"
done
check "every chart rendered ($ncharts), but kernels, kernels_attribution and profile_matrix (no kernel image, no @7.2 rows in the fixture)" "[ $ncharts -ge 8 ] && grep -q '^$ncharts charts rendered, 3 skipped, 0 failed' $tmp/plot.out && grep -q '^skipped  kernels ' $tmp/plot.out && grep -q '^skipped  kernels_attribution ' $tmp/plot.out && grep -q '^skipped  profile_matrix ' $tmp/plot.out" "$tmp/plot.out"
# the 2x2 matrix: the fixture's old and cnum rows as the four cells
cp "$db" "$tmp/pm.sqlite"
sqlite3 "$tmp/pm.sqlite" "UPDATE results SET tracker = 'cnum-mainline' WHERE tracker = 'cnum';
	INSERT INTO results (run_id, program_id, tracker, verdict, insns_processed, total_states, peak_states, verify_us, peak_state_mem)
	SELECT run_id, program_id, tracker || '@7.2', verdict, insns_processed * 2, total_states, peak_states, verify_us, peak_state_mem
	FROM results WHERE tracker IN ('old', 'cnum-mainline');"
# (--only: every other chart was rendered again here, PNG and SVG, for nothing)
$RB plot --db "$tmp/pm.sqlite" -o "$tmp/pm" --only profile_matrix >"$tmp/pm.out" 2>&1
check "profile_matrix renders from the four rows old, cnum-mainline, old@7.2, cnum-mainline@7.2" \
	"grep -q '^wrote    $tmp/pm/profile_matrix.png' $tmp/pm.out && grep -qF 'Engine profile (6.18, 7.2) x tracker' $tmp/pm/profile_matrix.svg" "$tmp/pm.out"
check "profile_matrix data: instructions of the 7.2 cells twice the 6.18 old cell" \
	"awk -F'\t' '\$1 == \"instructions\" && \$5 != \"2.0000\" { bad = 1 } \$1 == \"instructions\" { n++ } END { exit bad || !n }' $tmp/pm/data/profile_matrix.tsv" "$tmp/pm/data/profile_matrix.tsv"
$RB query --db "$tmp/pm.sqlite" --run 2 profile_matrix >"$tmp/pmq.out" 2>&1
check "query profile_matrix: four cells per source" \
	"[ \$? -eq 0 ] && grep -q ' 7.2  cnum-mainline ' $tmp/pmq.out && grep -q ' 6.18  old ' $tmp/pmq.out" "$tmp/pmq.out"
$RB query --db "$tmp/pm.sqlite" --run 2 profile_tracker_changes >"$tmp/ptc.out" 2>&1
check "query profile_tracker_changes runs" "[ \$? -eq 0 ]" "$tmp/ptc.out"
check "before/after data: run 1 -> run 2 has one verdict change" \
	"[ \$(awk -F'\t' '!/^#/ && \$7 == 1' $tmp/out/data/before_after.tsv | wc -l) -eq 1 ]" "$tmp/out/data/before_after.tsv"
vprog=$(awk -F'\t' '!/^#/ && $7 == 1 { print $1; exit }' "$tmp/out/data/before_after.tsv")
check "before/after chart: the verdict change is number 1 of the changed programs, named with both verdicts in the list" \
	"awk -F'\t' '!/^#/ && \$7 == 1 && \$9 == 1 && \$10 != \$11 { ok = 1 } END { exit !ok }' $tmp/out/data/before_after.tsv && grep -qF '1 ' $tmp/out/before_after.svg && grep -qF '$vprog' $tmp/out/before_after.svg" "$tmp/out/data/before_after.tsv"
check "scatter data: one row per program with the baseline and the candidate" \
	"[ \$(grep -vc '^#' $tmp/out/data/pair.tsv) -eq 60 ]" "$tmp/out/data/pair.tsv"

# every registry tracker the data has, in registry order, by name: a
# column of the census and bench files, a row of the state sizes, a block
# of the time-ratio CDF; the legends name them
d=$tmp/out/data
check "census: one column per tracker, registry order" \
	"[ \"\$(head -n1 $d/census.tsv | tr '\t' ' ')\" = '#op old cnum cnum-mainline arc2' ]" "$d/census.tsv"
check "bench: one ratio column per tracker but the baseline" \
	"[ \"\$(head -n1 $d/bench.tsv | tr '\t' ' ')\" = '#op cnum cnum-mainline arc2' ]" "$d/bench.tsv"
check "bench: no repetition spread stored, no whiskers" \
	"[ \$(grep -vc '^#' $d/bench_spread.tsv) -eq 0 ] && ! grep -q whiskers $tmp/out/bench_ratio.svg" "$d/bench_spread.tsv"
# a run that kept its repetitions' spread: whiskers over the range of the
# ratio between any two repetitions of the baseline and the tracker
cp "$db" "$tmp/spread.sqlite"
sqlite3 "$tmp/spread.sqlite" "UPDATE bench SET ns_min = ns_per_op * 0.9, ns_max = ns_per_op * 1.2"
$RB plot --db "$tmp/spread.sqlite" -o "$tmp/spread" --only bench_ratio >"$tmp/spread.out" 2>&1
check "bench spread: one row per op and tracker but the baseline, lo = 0.9/1.2 and hi = 1.2/0.9 of the ratio" \
	"awk -F'\t' '!/^#/ { n++; r = \$3; if (\$4 - r * 0.75 > 0.0002 || r * 0.75 - \$4 > 0.0002 || \$5 - r * 4 / 3 > 0.0002 || r * 4 / 3 - \$5 > 0.0002) bad = 1 } END { exit bad || n != 54 }' $tmp/spread/data/bench_spread.tsv" "$tmp/spread/data/bench_spread.tsv"
check "bench spread: the chart draws the whiskers and says so in its title" \
	"[ \$? -eq 0 ] && grep -q 'whiskers: range over the repetitions' $tmp/spread/bench_ratio.svg" "$tmp/spread.out"
regs=$($RB trackers | awk 'NR > 1 && $2 == "engine" {print $1}' | tr '\n' ' ')
check "state sizes: every registry tracker, then the kernel and its cnum layout" \
	"[ \"\$(grep -v '^#' $d/state_bytes.tsv | cut -f1 | tr '\n' ' ')\" = '${regs}kernel kernel-cnum ' ]" "$d/state_bytes.tsv"
check "metric ratios: one row per metric of the registry with data, the trackers but the baseline as columns" \
	"[ \"\$(grep -v '^#' $d/metric_ratios.tsv | cut -f1 | head -n3 | tr '\n' ' ')\" = 'insns states peak_states ' ] && [ \"\$(head -n1 $d/metric_ratios.tsv | cut -f1)\" = '#metric' ]" "$d/metric_ratios.tsv"
check "time-ratio CDF: one block per userspace tracker but the baseline" \
	"[ \"\$(grep -v '^#' $d/time_ratio_cdf.tsv | cut -f1 | grep . | uniq | tr '\n' ' ')\" = 'cnum arc2 ' ]" "$d/time_ratio_cdf.tsv"
for t in old cnum cnum-mainline arc2; do
	check "census legend names $t" "grep -q '>$t<' $tmp/out/census.svg" "$tmp/out/census.svg"
done
check "before/after legend names arc2" "grep -q '>arc2<' $tmp/out/before_after.svg" "$tmp/out/before_after.svg"

# the pair by role: --baseline arc2 --candidate cnum
$RB plot --db "$db" -o "$tmp/role" --only scatter_insns --baseline arc2 --candidate cnum after >"$tmp/role.out" 2>&1
check "--baseline/--candidate: the pair chart compares them" \
	"[ $? -eq 0 ] && grep -qF 'Instructions processed per program: cnum vs arc2 (60 programs' $tmp/role/scatter_insns.svg" "$tmp/role.out"
$RB plot --db "$db" -o "$tmp/role" --baseline nosuch >"$tmp/role_bad.out" 2>&1
check "an unknown --baseline is a usage error naming the trackers" \
	"[ $? -eq 2 ] && grep -q 'old, cnum, cnum-mainline, arc2, kernel' $tmp/role_bad.out" "$tmp/role_bad.out"

# a chart script runs by hand too (as its header says)
gnuplot -e "data='$tmp/out/data'; out='$tmp/hand'; fmt='png'" plots/census.gp >"$tmp/hand.out" 2>&1
check "a script renders by hand with gnuplot" "[ $? -eq 0 ] && [ -s $tmp/hand.png ]" "$tmp/hand.out"

# an empty database: nothing to draw but the state sizes
sqlite3 "$tmp/empty.sqlite" <db/schema.sql
$RB plot --db "$tmp/empty.sqlite" -o "$tmp/empty" >"$tmp/empty.out" 2>&1
check "empty database: exit 0, charts without data skipped with a note" \
	"[ $? -eq 0 ] && [ \$(grep -c '^skipped' $tmp/empty.out) -eq 11 ] && grep -q 'needs a run with both the baseline and the candidate tracker' $tmp/empty.out" "$tmp/empty.out"
$RB plot --db "$db" --only nosuch >"$tmp/bad.out" 2>&1
check "an unknown chart is a usage error" "[ $? -eq 2 ]" "$tmp/bad.out"
