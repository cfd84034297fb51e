DROP TABLE suggestion_votes;
