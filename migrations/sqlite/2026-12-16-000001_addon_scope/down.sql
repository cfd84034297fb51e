DROP INDEX addons_scope;
