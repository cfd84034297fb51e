DROP TRIGGER unit_text_update;
DROP TRIGGER unit_text_delete;
DROP TRIGGER unit_text_insert;
DROP TABLE unit_text;
