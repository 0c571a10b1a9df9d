-- per corpus source, the stored attributions (`rangebench attribute`,
-- table kernel_attributions) of the programs whose verdict, instructions
-- or states differ between two kernels of a run (--run; --baseline the old
-- kernel, e.g. kernel; --candidate the new, e.g. kernel-7.2): how many
-- differ (of them, in verdict), 'tracker' (the engine's old equals the old
-- kernel and cnum-mainline the new in all three figures), 'other', and the
-- others by the mechanism named where the two kernels' logs part
-- (src/oracle/ktrace.h): const_fold, prune_earlier, prune_later, branch,
-- path_ends, rejects_upfront, explores_now, stops_earlier, stops_later
-- (one log ends where the other goes on; 'ends' in rows stored before
-- they were told apart counts as unnamed), checkpoints (same path, other states), insn_rewrite,
-- unnamed (other; no log; too_large: past attribute --max-insns; beyond_head: the
-- heads of attribute --log-head agree as far as they go). `query kernels_diff` lists the programs.
WITH a AS (
	SELECT coalesce(p.source, 'unknown') AS source, a.*
	FROM kernel_attributions a JOIN programs p ON p.id = a.program_id
	WHERE a.run_id = :run AND a.baseline = :baseline AND a.candidate = :candidate
), s AS (
	SELECT source, count(*) AS differ, sum(differ LIKE '%verdict%') AS verdicts,
	       sum(attribution = 'tracker') AS tracker, sum(attribution = 'other') AS other,
	       sum(mechanism = 'const_fold') AS const_fold, sum(mechanism = 'prune_earlier') AS prune_earlier,
	       sum(mechanism = 'prune_later') AS prune_later, sum(mechanism = 'branch') AS branch,
	       sum(mechanism = 'path_ends') AS path_ends,
	       sum(mechanism = 'rejects_upfront') AS rejects_upfront, sum(mechanism = 'explores_now') AS explores_now,
	       sum(mechanism = 'stops_earlier') AS stops_earlier, sum(mechanism = 'stops_later') AS stops_later,
	       sum(mechanism = 'checkpoints') AS checkpoints, sum(mechanism = 'insn_rewrite') AS insn_rewrite,
	       sum(mechanism IN ('other', 'no_log', 'too_large', 'beyond_head', 'ends')) AS unnamed
	FROM a GROUP BY source
)
SELECT * FROM s
UNION ALL
SELECT 'all', sum(differ), sum(verdicts), sum(tracker), sum(other), sum(const_fold), sum(prune_earlier),
       sum(prune_later), sum(branch), sum(path_ends),
       sum(rejects_upfront), sum(explores_now), sum(stops_earlier), sum(stops_later), sum(checkpoints), sum(insn_rewrite), sum(unnamed)
FROM s;
