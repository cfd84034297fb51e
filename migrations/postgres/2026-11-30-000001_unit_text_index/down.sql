DROP INDEX units_context_trigrams;
DROP INDEX units_target_trigrams;
DROP INDEX units_source_trigrams;
