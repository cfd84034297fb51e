DROP TABLE team_member_languages;
