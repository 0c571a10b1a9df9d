-- 008: version 7 -> 8.
-- The identity of the process writing a 'running' run, beside its pid:
-- 'BOOT_ID:START_TIME' (the kernel's boot id and the process's start time
-- in clock ticks since boot). A run whose pid is now held by another
-- process (reused after the writer died, or after a reboot) is dead, not
-- 'running' for ever (issue 24). NULL for runs made before: for those
-- only a pid that no longer exists says so.

ALTER TABLE runs ADD COLUMN pid_start TEXT;

PRAGMA user_version = 8;
