-- micro-benchmarks of the latest bench run (or --run): ns/op per tracker and cnum/old
SELECT o.op, printf('%.2f', o.ns_per_op) AS old_ns, printf('%.2f', c.ns_per_op) AS cnum_ns,
       printf('%.2f', c.ns_per_op / o.ns_per_op) AS ratio
FROM bench o
JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker = 'cnum'
WHERE o.tracker = 'old'
  AND o.run_id = coalesce((SELECT id FROM runs WHERE id = :run AND kind = 'bench'),
                          (SELECT max(id) FROM runs WHERE kind = 'bench'))
ORDER BY o.op;
