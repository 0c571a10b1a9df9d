-- cause classes of the changed programs per corpus source, as `compare
-- --changed --explain` stored them for one run (--run; --baseline,
-- --candidate, default old, cnum): how many programs each class explains
-- (cause found and counterfactual vanished) and how many it leaves
-- unexplained, with one example
SELECT coalesce(p.source, '?') AS source, e.class,
       count(*) AS programs,
       sum(e.explained) AS explained,
       count(*) - sum(e.explained) AS unexplained,
       min(p.name || ' @' || e.cause_insn) AS example
FROM explanations e
JOIN programs p ON p.id = e.program_id
WHERE e.run_id = :run AND e.baseline = :baseline AND e.candidate = :candidate
GROUP BY p.source, e.class
ORDER BY p.source, programs DESC, e.class;
