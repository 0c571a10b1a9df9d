-- the 20 slowest verifications of one run (--run), any tracker
SELECT program, object, tracker, verdict, insns_processed AS insns,
       total_states AS states, printf('%.1f', verify_us / 1e3) AS time_ms
FROM result_rows
WHERE run_id = :run
ORDER BY verify_us DESC
LIMIT 20;
