-- operator census of the latest census run (or --run): unsound cases and optimal share
SELECT op, width, tracker, cases, unsound,
       printf('%.1f%%', 100.0 * optimal / max(cases, 1)) AS optimal,
       printf('%.3f', mean_extra_log2) AS extra_log2
FROM census
WHERE run_id = coalesce((SELECT id FROM runs WHERE id = :run AND kind = 'census'),
                        (SELECT max(id) FROM runs WHERE kind = 'census'))
ORDER BY width DESC, op, tracker;
