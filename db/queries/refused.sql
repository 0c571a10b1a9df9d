-- programs the running kernel refused to load (verdict 'refused': bpf()
-- denied, e.g. fentry/fexit/fmod_ret/lsm trampolines under
-- lockdown=integrity, or an attach target it does not have), per corpus
-- source (--run): not disagreements, so the engine's verdicts are the
-- only ones. refused: how many; then the baseline's (--baseline, default
-- old) and candidate's (--candidate, default cnum) verdicts on them:
-- success, failure, other (unsupported, limit, or refused by the loader
-- too: the attach target is missing); differ: baseline and candidate
-- both gave a verdict and the verdicts differ.
SELECT coalesce(p.source, '?') AS source,
       count(*) AS refused,
       sum(b.verdict = 'success') AS base_success,
       sum(b.verdict = 'failure') AS base_failure,
       sum(b.verdict NOT IN ('success', 'failure')) AS base_other,
       sum(c.verdict = 'success') AS cand_success,
       sum(c.verdict = 'failure') AS cand_failure,
       sum(c.verdict NOT IN ('success', 'failure')) AS cand_other,
       sum(b.verdict IN ('success', 'failure') AND c.verdict IN ('success', 'failure')
           AND b.verdict <> c.verdict) AS differ
FROM results k
JOIN programs p ON p.id = k.program_id
JOIN results b ON b.run_id = k.run_id AND b.program_id = k.program_id AND b.tracker = :baseline
JOIN results c ON c.run_id = k.run_id AND c.program_id = k.program_id AND c.tracker = :candidate
WHERE k.run_id = :run AND k.tracker = 'kernel' AND k.verdict = 'refused'
GROUP BY p.source
ORDER BY p.source;
