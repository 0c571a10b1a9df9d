-- kernel 6.18 vs kernel 7.2 vs the engine per corpus source (--run;
-- --baseline the old kernel, e.g. kernel, the running 6.18; --candidate
-- the new, e.g. kernel-7.2): over the programs both kernels verified
-- (success or failure) and the engine's cnum-mainline gave a verdict for,
-- the programs each accepts and the instructions and states each
-- processed in all; then how many programs cnum-mainline gives the new
-- kernel's verdict, instructions and states, and how many the two kernels
-- differ on.
WITH k AS (
	SELECT coalesce(p.source, 'unknown') AS source,
	       b.verdict AS bv, b.insns_processed AS bi, b.total_states AS bs,
	       c.verdict AS cv, c.insns_processed AS ci, c.total_states AS cs,
	       m.verdict AS mv, m.insns_processed AS mi, m.total_states AS ms
	FROM results b
	JOIN results c ON c.run_id = b.run_id AND c.program_id = b.program_id AND c.tracker = :candidate
	JOIN results m ON m.run_id = b.run_id AND m.program_id = b.program_id AND m.tracker = 'cnum-mainline'
	JOIN programs p ON p.id = b.program_id
	WHERE b.run_id = :run AND b.tracker = :baseline
	  AND b.verdict IN ('success', 'failure') AND c.verdict IN ('success', 'failure')
	  AND m.verdict IN ('success', 'failure', 'limit')
), t AS (
	SELECT source, count(*) AS programs,
	       sum(bv = 'success') AS old_kernel_accepts, sum(cv = 'success') AS new_kernel_accepts,
	       sum(mv = 'success') AS ml_accepts,
	       sum(bi) AS old_kernel_insns, sum(ci) AS new_kernel_insns, sum(mi) AS ml_insns,
	       sum(bs) AS old_kernel_states, sum(cs) AS new_kernel_states, sum(ms) AS ml_states,
	       sum(mv = cv) AS ml_new_verdict, sum(mv = cv AND mi = ci) AS ml_new_insns,
	       sum(mv = cv AND ms = cs) AS ml_new_states,
	       sum(bv <> cv OR bi <> ci OR bs <> cs) AS kernels_differ
	FROM k GROUP BY source
)
SELECT * FROM t
UNION ALL
SELECT 'all', sum(programs), sum(old_kernel_accepts), sum(new_kernel_accepts), sum(ml_accepts),
       sum(old_kernel_insns), sum(new_kernel_insns), sum(ml_insns), sum(old_kernel_states),
       sum(new_kernel_states), sum(ml_states), sum(ml_new_verdict), sum(ml_new_insns), sum(ml_new_states),
       sum(kernels_differ)
FROM t;
