-- every program (--run) where the tracker (old -> cnum-mainline) changes
-- the verdict, or the instruction count by more than 5%, in either engine
-- profile (6.18: old vs cnum-mainline; 7.2: old@7.2 vs cnum-mainline@7.2),
-- each profile's pair side by side, with what the real kernels gave where
-- the run has them (kernel: 6.18.44; kernel-7.2: Linux 7.2.13). The cause
-- of one change: `rangebench explain OBJ:PROG --baseline old --candidate
-- cnum-mainline` (the first instruction where the explorations part).
WITH p AS (
	SELECT o.program_id, coalesce(pr.source, 'unknown') AS source, pr.obj_path AS object, pr.name AS program,
	       o.verdict AS ov, o.insns_processed AS oi, n.verdict AS nv, n.insns_processed AS ni,
	       o7.verdict AS o7v, o7.insns_processed AS o7i, n7.verdict AS n7v, n7.insns_processed AS n7i
	FROM results o
	JOIN programs pr ON pr.id = o.program_id
	JOIN results n ON n.run_id = o.run_id AND n.program_id = o.program_id AND n.tracker = 'cnum-mainline'
	JOIN results o7 ON o7.run_id = o.run_id AND o7.program_id = o.program_id AND o7.tracker = 'old@7.2'
	JOIN results n7 ON n7.run_id = o.run_id AND n7.program_id = o.program_id AND n7.tracker = 'cnum-mainline@7.2'
	WHERE o.run_id = :run AND o.tracker = 'old'
)
SELECT p.source, p.object, p.program,
       p.ov || ' ' || p.oi || ' -> ' || p.nv || ' ' || p.ni AS profile_618,
       p.o7v || ' ' || p.o7i || ' -> ' || p.n7v || ' ' || p.n7i AS profile_72,
       coalesce(k.verdict || ' ' || k.insns_processed, '-') AS kernel_618,
       coalesce(k7.verdict || ' ' || k7.insns_processed, '-') AS kernel_72
FROM p
LEFT JOIN results k ON k.run_id = :run AND k.program_id = p.program_id AND k.tracker = 'kernel'
LEFT JOIN results k7 ON k7.run_id = :run AND k7.program_id = p.program_id AND k7.tracker = 'kernel-7.2'
WHERE p.ov <> p.nv OR p.o7v <> p.n7v
   OR abs(p.ni - p.oi) > 0.05 * p.oi OR abs(p.n7i - p.o7i) > 0.05 * p.o7i
ORDER BY p.source, p.object, p.program;
