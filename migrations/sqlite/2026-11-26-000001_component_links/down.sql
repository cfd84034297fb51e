DROP TABLE component_links;
DROP INDEX subscriptions_notification_unique;
