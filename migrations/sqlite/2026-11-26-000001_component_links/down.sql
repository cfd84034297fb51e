DROP TABLE component_links;
