DROP TABLE change_minutes;
