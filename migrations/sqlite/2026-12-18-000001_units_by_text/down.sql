DROP INDEX units_target_prefix;
