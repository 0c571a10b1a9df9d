-- every run: id, label, kind, status, time, commit, trackers, rows stored
SELECT r.id, r.label, r.kind, r.status, r.started_at, r.ended_at,
       substr(r.git_commit, 1, 12) || CASE WHEN r.git_dirty THEN '+dirty' ELSE '' END AS git,
       r.kernel_release AS kernel, r.trackers,
       (SELECT count(*) FROM results x WHERE x.run_id = r.id) AS results
FROM runs r
ORDER BY r.id;
