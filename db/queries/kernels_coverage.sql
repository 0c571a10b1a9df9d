-- a kernel's rows of a run per corpus source (--run; --candidate the kernel,
-- e.g. kernel-7.2, a kernel image verifying in its guests): programs, how
-- many its verifier accepted (success) and rejected (failure), stopped at
-- a limit, how many the kernel refused before its verifier gave a verdict
-- (refused: e.g. EINVAL or EPERM without a log, a kfunc or attach target
-- it lacks), how many never reached the kernel because of the guest (it
-- did not boot, crashed, stayed silent, or rangebench died inside it: the
-- row names the guest), and because the object did not load or the
-- loader does not support it (load_error, unsupported); covered = a
-- verdict of the kernel's verifier (success, failure or limit), as a share.
SELECT coalesce(p.source, 'unknown') AS source,
       count(*) AS programs,
       sum(k.verdict = 'success') AS accepted,
       sum(k.verdict = 'failure') AS rejected,
       sum(k.verdict = 'limit' AND coalesce(k.msg, '') NOT LIKE 'guest %') AS limit_,
       sum(k.verdict = 'refused') AS refused,
       sum(k.verdict IN ('load_error', 'limit') AND (coalesce(k.msg, '') LIKE 'guest %'
           OR coalesce(k.msg, '') LIKE '%inside guest%')) AS guest_error,
       sum(k.verdict NOT IN ('success', 'failure', 'limit', 'refused') AND coalesce(k.msg, '') NOT LIKE 'guest %'
           AND coalesce(k.msg, '') NOT LIKE '%inside guest%') AS load_error,
       printf('%.1f%%', 100.0 * sum(k.verdict IN ('success', 'failure', 'limit')
              AND coalesce(k.msg, '') NOT LIKE 'guest %') / count(*)) AS covered,
       max(k.kernel_release) AS release,
       max(k.clock) AS clock
FROM results k
JOIN programs p ON p.id = k.program_id
WHERE k.run_id = :run AND k.tracker = :candidate
GROUP BY 1
ORDER BY 1;
