-- per tracker in one run (--run, default the latest): verdict counts and totals
SELECT tracker,
       count(*) AS programs,
       sum(verdict = 'accept') AS accepted,
       sum(verdict = 'reject') AS rejected,
       sum(verdict NOT IN ('accept', 'reject')) AS other,
       sum(insns_processed) AS insns,
       sum(total_states) AS states,
       printf('%.1f', sum(verify_us) / 1e3) AS time_ms
FROM results
WHERE run_id = :run
GROUP BY tracker
ORDER BY tracker;
