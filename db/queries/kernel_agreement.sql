-- agreement of each tracker with the running kernel, per corpus source (--run); '–' where nothing was compared
SELECT coalesce(source, '?') AS source, tracker,
       count(agree) AS compared,
       sum(agree) AS agree,
       sum(verdict = 'failure' AND kernel_verdict = 'success') AS stricter,
       sum(verdict = 'success' AND kernel_verdict = 'failure') AS looser,
       CASE WHEN count(agree) > 0 THEN printf('%.1f%%', 100.0 * sum(agree) / count(agree))
            ELSE '–' END AS agree_pct,
       count(*) - count(agree) AS not_compared
FROM tracker_vs_kernel
WHERE run_id = :run
GROUP BY source, tracker
ORDER BY source, tracker;
