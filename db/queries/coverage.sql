-- coverage of the kernel-verified programs and baseline = kernel agreement,
-- per corpus source (--run; --baseline, default old, the tracker matched to
-- the kernel; the run must include it and the kernel).
-- kernel_verified: the kernel's verifier gave a verdict (success, failure,
-- limit); covered: of those, the engine's baseline tracker gave one too (not
-- unsupported, not a load error); then, of the covered, how many have the
-- kernel's verdict, and of those its processed instructions and states.
SELECT coalesce(p.source, '?') AS source,
       count(*) AS programs,
       sum(k.verdict IN ('success', 'failure', 'limit')) AS kernel_verified,
       sum(k.verdict IN ('success', 'failure', 'limit') AND o.verdict IN ('success', 'failure', 'limit')) AS covered,
       printf('%.1f%%', 100.0 * sum(k.verdict IN ('success', 'failure', 'limit') AND o.verdict IN ('success', 'failure', 'limit'))
              / max(sum(k.verdict IN ('success', 'failure', 'limit')), 1)) AS coverage,
       sum(k.verdict IN ('success', 'failure', 'limit') AND o.verdict = k.verdict) AS same_verdict,
       sum(k.verdict IN ('success', 'failure', 'limit') AND o.verdict = k.verdict
           AND o.insns_processed = k.insns_processed) AS same_insns,
       sum(k.verdict IN ('success', 'failure', 'limit') AND o.verdict = k.verdict
           AND o.total_states = k.total_states) AS same_states
FROM results o
JOIN results k ON k.run_id = o.run_id AND k.program_id = o.program_id AND k.tracker = 'kernel'
JOIN programs p ON p.id = o.program_id
WHERE o.run_id = :run AND o.tracker = :baseline
GROUP BY p.source
ORDER BY p.source;
