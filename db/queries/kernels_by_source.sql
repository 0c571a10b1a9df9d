-- two kernels and the engine per corpus source in one run (--run):
-- --baseline the old kernel (e.g. kernel, the running 6.18), --candidate
-- the new one (e.g. kernel-7.2, src/kernels/). Over the programs both
-- kernels verified (success or failure): how many differ between them in
-- verdict, instructions or states, and the attribution of each difference:
-- 'tracker' when the engine reproduces it with the scalar tracker alone
-- (old equals the old kernel and cnum-mainline equals the new kernel, in
-- verdict, instructions and states), 'other' when it does not (another
-- verifier change between the two kernels, or an error of the emulation:
-- `rangebench attribute` stores where their logs part, `query
-- kernels_attribution` reads it). Last: cnum-mainline equal to the new
-- kernel (verdict and instructions) over all the programs, as a share.
WITH k AS (
	SELECT b.program_id, coalesce(p.source, 'unknown') AS source,
	       b.verdict AS bv, b.insns_processed AS bi, b.total_states AS bs,
	       c.verdict AS cv, c.insns_processed AS ci, c.total_states AS cs,
	       o.verdict AS ov, o.insns_processed AS oi, o.total_states AS os,
	       m.verdict AS mv, m.insns_processed AS mi, m.total_states AS ms
	FROM results b
	JOIN results c ON c.run_id = b.run_id AND c.program_id = b.program_id AND c.tracker = :candidate
	JOIN programs p ON p.id = b.program_id
	LEFT JOIN results o ON o.run_id = b.run_id AND o.program_id = b.program_id AND o.tracker = 'old'
	LEFT JOIN results m ON m.run_id = b.run_id AND m.program_id = b.program_id AND m.tracker = 'cnum-mainline'
	WHERE b.run_id = :run AND b.tracker = :baseline
	  AND b.verdict IN ('success', 'failure') AND c.verdict IN ('success', 'failure')
), d AS (
	SELECT *, (bv <> cv OR bi <> ci OR bs <> cs) AS differ,
	       (ov IS bv AND oi IS bi AND os IS bs AND mv IS cv AND mi IS ci AND ms IS cs) AS tracker
	FROM k
)
SELECT source,
       count(*) AS both_verified,
       sum(bv <> cv) AS verdicts_differ,
       sum(bv = cv AND bi <> ci) AS insns_differ,
       sum(differ) AS differ,
       sum(differ AND tracker) AS tracker,
       sum(differ AND NOT tracker) AS other,
       sum(differ AND NOT tracker AND mv IS bv AND mi IS bi) AS other_engine_as_old_kernel,
       printf('%.1f', 100.0 * sum(mv IS cv AND mi IS ci) / count(*)) AS ml_equals_new_pct
FROM d
GROUP BY source
ORDER BY source;
