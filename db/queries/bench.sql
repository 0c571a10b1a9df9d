-- micro-benchmarks (--run, default the latest): ns/op per tracker and cnum/old
SELECT o.op, printf('%.2f', o.ns_per_op) AS old_ns, printf('%.2f', c.ns_per_op) AS cnum_ns,
       printf('%.2f', c.ns_per_op / o.ns_per_op) AS ratio
FROM bench o
JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker = 'cnum'
WHERE o.tracker = 'old' AND o.run_id = :bench_run
ORDER BY c.ns_per_op / o.ns_per_op DESC;
