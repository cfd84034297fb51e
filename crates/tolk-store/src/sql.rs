//! SQL functions both backends share.

diesel::define_sql_function!(
    /// SQL `lower()`: the text in lower case (SQLite folds ASCII letters only).
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);
