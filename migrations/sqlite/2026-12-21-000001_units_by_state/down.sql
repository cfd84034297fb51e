DROP INDEX units_state;
