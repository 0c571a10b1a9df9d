-- agreement of each tracker with the running kernel, per corpus source (--run)
SELECT coalesce(source, '?') AS source, tracker,
       count(agree) AS compared,
       sum(agree) AS agree,
       sum(verdict = 'reject' AND kernel_verdict = 'accept') AS stricter,
       sum(verdict = 'accept' AND kernel_verdict = 'reject') AS looser,
       printf('%.1f%%', 100.0 * sum(agree) / max(count(agree), 1)) AS agree_pct,
       count(*) - count(agree) AS not_compared
FROM tracker_vs_kernel
WHERE run_id = :run
GROUP BY source, tracker
ORDER BY source, tracker;
