DROP TABLE unit_removals;
