ALTER TABLE units DROP COLUMN dismissed;
