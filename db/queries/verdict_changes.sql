-- programs whose verdict (success vs failure) differs between the trackers of one run (--run)
SELECT program, object, source, verdicts
FROM verdict_differs_trackers
WHERE run_id = :run
ORDER BY source, object, program;
