-- (program, tracker) pairs whose verdict changed between any two runs
SELECT program, object, tracker, verdicts
FROM verdict_differs_runs
ORDER BY object, program, tracker;
