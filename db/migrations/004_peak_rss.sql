-- 004: version 3 -> 4.
-- The verifying process's peak resident set size per verification
-- (kibibytes; `run` measures it in its child processes, userspace trackers
-- only: the kernel's verifier memory is not in that process).

ALTER TABLE results ADD COLUMN peak_rss_kib INTEGER;

PRAGMA user_version = 4;
