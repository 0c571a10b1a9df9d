-- micro-benchmarks (--run, default the latest): ns/op of every tracker and
-- its ratio to the baseline's (--baseline, default old), costliest first
SELECT c.op, c.tracker, printf('%.2f', c.ns_per_op) AS ns, printf('%.2f', o.ns_per_op) AS baseline_ns,
       printf('%.2f', c.ns_per_op / o.ns_per_op) AS ratio
FROM bench c
JOIN bench o ON o.run_id = c.run_id AND o.op = c.op AND o.tracker = :baseline
WHERE c.tracker <> :baseline AND c.run_id = :bench_run AND o.ns_per_op > 0
ORDER BY c.tracker, c.ns_per_op / o.ns_per_op DESC;
