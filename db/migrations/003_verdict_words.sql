-- 003: version 2 -> 3.
-- Verdicts in one spelling everywhere, veristat's words: 'accept' becomes
-- 'success' and 'reject' becomes 'failure' (the other verdicts keep their
-- names). Runs that a version-1 rangebench left 'running' (it kept no
-- writer pid, so no later open could tell they had died) are 'incomplete'.

UPDATE results SET verdict = 'success' WHERE verdict = 'accept';
UPDATE results SET verdict = 'failure' WHERE verdict = 'reject';
UPDATE runs SET status = 'incomplete', ended_at = coalesce(ended_at, started_at)
WHERE status = 'running' AND pid IS NULL;

PRAGMA user_version = 3;
