DROP INDEX units_id_hash;
