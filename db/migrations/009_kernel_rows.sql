-- 009: version 8 -> 9.
-- Kernel rows (src/kernels/): the exact release of the kernel that gave a
-- row (uname -r, plus the package version for a Debian image), and the
-- clock its verify_us was measured on: NULL native, 'tcg' or 'kvm' inside
-- a guest (emulated or virtualized: never put in a ratio with a native
-- time). Rows of the running kernel made before get the run's release.

ALTER TABLE results ADD COLUMN kernel_release TEXT;
ALTER TABLE results ADD COLUMN clock TEXT;
UPDATE results SET kernel_release = (SELECT r.kernel_release FROM runs r WHERE r.id = results.run_id)
WHERE tracker = 'kernel';

PRAGMA user_version = 9;
