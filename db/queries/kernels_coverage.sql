-- a kernel's rows of a run per corpus source (--run; --candidate the kernel,
-- e.g. kernel-7.2, a kernel image verifying in its guests): programs, how
-- many it verified (success), refused (failure), stopped at a limit, how
-- many never reached its verifier because of the guest (the guest did not
-- boot, crashed, stayed silent, or rangebench died inside it: the row
-- names the guest) and because the object did not load (the loader's
-- error, in the guest as on the host); covered = a verdict of the kernel's
-- own (success, failure or limit), as a share.
SELECT coalesce(p.source, 'unknown') AS source,
       count(*) AS programs,
       sum(k.verdict = 'success') AS verified,
       sum(k.verdict = 'failure') AS refused,
       sum(k.verdict = 'limit' AND coalesce(k.msg, '') NOT LIKE 'guest %') AS limit_,
       sum(k.verdict IN ('load_error', 'limit') AND (coalesce(k.msg, '') LIKE 'guest %' OR coalesce(k.msg, '') LIKE '%inside guest%')) AS guest_error,
       sum(k.verdict NOT IN ('success', 'failure', 'limit') AND coalesce(k.msg, '') NOT LIKE 'guest %'
           AND coalesce(k.msg, '') NOT LIKE '%inside guest%') AS load_error,
       printf('%.1f%%', 100.0 * sum(k.verdict IN ('success', 'failure', 'limit') AND coalesce(k.msg, '') NOT LIKE 'guest %')
              / count(*)) AS covered,
       max(k.kernel_release) AS release,
       max(k.clock) AS clock
FROM results k
JOIN programs p ON p.id = k.program_id
WHERE k.run_id = :run AND k.tracker = :candidate
GROUP BY 1
ORDER BY 1;
