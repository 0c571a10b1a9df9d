-- per tracker in one run (--run, default the latest): verdict counts and totals
SELECT tracker,
       count(*) AS programs,
       sum(verdict = 'success') AS success,
       sum(verdict = 'failure') AS failure,
       sum(verdict NOT IN ('success', 'failure')) AS other,
       sum(insns_processed) AS insns,
       sum(total_states) AS states,
       printf('%.1f', sum(verify_us) / 1e3) AS time_ms
FROM results
WHERE run_id = :run
GROUP BY tracker
ORDER BY tracker;
