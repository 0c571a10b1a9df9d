-- operator census (--run, default the latest): unsound cases and optimal share per op
SELECT op, width, tracker, cases, unsound,
       CASE WHEN optimal IS NULL THEN '-' ELSE printf('%.1f%%', 100.0 * optimal / max(cases, 1)) END AS optimal,
       CASE WHEN optimal IS NULL THEN '-' ELSE printf('%.3f', mean_extra_log2) END AS extra_log2
FROM census
WHERE run_id = :census_run
ORDER BY width DESC, seq, tracker;
