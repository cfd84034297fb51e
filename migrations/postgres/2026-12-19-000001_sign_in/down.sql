DROP TABLE site_secrets;
DROP TABLE password_links;
DROP TABLE sessions;
