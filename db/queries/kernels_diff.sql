-- every program whose verdict, instructions or states differ between two
-- kernels of one run (--run; --baseline the old kernel, e.g. kernel;
-- --candidate the new, e.g. kernel-7.2), with the engine's old and
-- cnum-mainline beside them and the attribution: tracker = old equals the
-- old kernel and cnum-mainline the new one (verdict, instructions and
-- states); other = anything else. Where `rangebench attribute` stored it
-- (kernel_attributions): the mechanism and the entries of the two kernels'
-- logs where they part (after the last entry both share).
SELECT coalesce(p.source, 'unknown') AS source, p.obj_path AS object, p.name AS program,
       b.verdict || ' ' || b.insns_processed || '/' || b.total_states AS old_kernel,
       c.verdict || ' ' || c.insns_processed || '/' || c.total_states AS new_kernel,
       o.verdict || ' ' || o.insns_processed || '/' || o.total_states AS engine_old,
       m.verdict || ' ' || m.insns_processed || '/' || m.total_states AS engine_cnum_mainline,
       CASE WHEN o.verdict IS b.verdict AND o.insns_processed IS b.insns_processed
                 AND o.total_states IS b.total_states AND m.verdict IS c.verdict
                 AND m.insns_processed IS c.insns_processed AND m.total_states IS c.total_states THEN 'tracker'
            ELSE 'other' END AS attribution,
       a.mechanism, a.part_index, a.common_line AS common_entry, a.baseline_line AS old_kernel_entry,
       a.candidate_line AS new_kernel_entry
FROM results b
JOIN results c ON c.run_id = b.run_id AND c.program_id = b.program_id AND c.tracker = :candidate
JOIN programs p ON p.id = b.program_id
LEFT JOIN results o ON o.run_id = b.run_id AND o.program_id = b.program_id AND o.tracker = 'old'
LEFT JOIN results m ON m.run_id = b.run_id AND m.program_id = b.program_id AND m.tracker = 'cnum-mainline'
LEFT JOIN kernel_attributions a ON a.run_id = b.run_id AND a.program_id = b.program_id
     AND a.baseline = b.tracker AND a.candidate = c.tracker
WHERE b.run_id = :run AND b.tracker = :baseline
  AND b.verdict IN ('success', 'failure') AND c.verdict IN ('success', 'failure')
  AND (b.verdict <> c.verdict OR b.insns_processed <> c.insns_processed OR b.total_states <> c.total_states)
ORDER BY attribution DESC, source, object, program;
