-- programs that need fewer states with cnum than with old, by how much (--run)
SELECT program, object, old_states, cnum_states,
       cnum_states - old_states AS diff,
       printf('%+.1f%%', 100.0 * (cnum_states - old_states) / max(old_states, 1)) AS pct,
       old_insns, cnum_insns
FROM old_vs_cnum
WHERE run_id = :run AND cnum_states < old_states
ORDER BY 1.0 * (cnum_states - old_states) / max(old_states, 1), diff;
