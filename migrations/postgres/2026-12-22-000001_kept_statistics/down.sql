DROP TABLE stats_pending;
DROP TABLE stats_kept;
