//! SQL functions both backends share.

diesel::define_sql_function!(
    /// SQL `lower()`: the text in lower case (SQLite folds ASCII letters only).
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// The rows of a `VALUES` list of `rows` rows whose columns have the SQL
/// types `types`, as numbered parameters row by row, and the placeholder
/// of the next free number (for a parameter that follows them); the
/// caller binds the rows' values first, in this order, then the rest.
/// PostgreSQL gets `CAST($n AS type)`, so it knows the column types;
/// SQLite, whose columns take any type, gets bare `?n`: it finds a `$n`
/// by its name among all the statement's names, a cost that grows with
/// the square of the parameters (a tenth of a bulk edit's time).
pub(crate) fn numbered_rows(
    conn: &crate::DbConnection,
    rows: usize,
    types: &[&str],
) -> (String, String) {
    let mut n = 0;
    let rows: Vec<String> = (0..rows)
        .map(|_| {
            let cells: Vec<String> = types
                .iter()
                .map(|t| {
                    n += 1;
                    placeholder(conn, n, t)
                })
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    let next = match conn {
        crate::DbConnection::Sqlite(_) => format!("?{}", n + 1),
        crate::DbConnection::Pg(_) => format!("${}", n + 1),
    };
    (rows.join(", "), next)
}

/// The `n`th numbered parameter of a statement, of SQL type `ty`: `?n` on
/// SQLite, `CAST($n AS ty)` on PostgreSQL (see [`numbered_rows`]).
pub(crate) fn placeholder(conn: &crate::DbConnection, n: usize, ty: &str) -> String {
    match conn {
        crate::DbConnection::Sqlite(_) => format!("?{n}"),
        crate::DbConnection::Pg(_) => format!("CAST(${n} AS {ty})"),
    }
}

/// Declares a SQL expression whose text is fixed when Tolk is built (a
/// correlated subquery, say). Unlike `diesel::dsl::sql`, a query holding
/// it keeps a static identity, so diesel keeps its prepared statement
/// for the next call instead of preparing it again.
macro_rules! fixed_sql {
    ($(#[$doc:meta])* $name:ident: $ty:ty = $sql:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, diesel::query_builder::QueryId)]
        pub struct $name;

        impl diesel::expression::Expression for $name {
            type SqlType = $ty;
        }

        impl<DB: diesel::backend::Backend> diesel::query_builder::QueryFragment<DB> for $name {
            fn walk_ast<'b>(
                &'b self,
                mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
            ) -> diesel::QueryResult<()> {
                out.push_sql($sql);
                Ok(())
            }
        }

        impl<QS> diesel::expression::SelectableExpression<QS> for $name {}

        impl<QS> diesel::expression::AppearsOnTable<QS> for $name {}

        impl<GB> diesel::expression::ValidGrouping<GB> for $name {
            type IsAggregate = diesel::expression::is_aggregate::Never;
        }
    };
}
pub(crate) use fixed_sql;

/// An `UPDATE table SET changes WHERE filter` that stays prepared on its
/// connection. Diesel prepares every one of its own `UPDATE`s anew at
/// each run (a changeset that skips absent values could write another
/// text under the same Rust type); this one is keyed by its SQL text, so
/// it is for statements on the hot write path whose changeset never
/// skips a value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Update<T, V, W> {
    table: T,
    changes: V,
    filter: W,
}

/// Builds an [`Update`] of the rows of `table` that match `filter`.
pub(crate) fn update<T, V, W>(table: T, changes: V, filter: W) -> Update<T, V::Changeset, W>
where
    T: diesel::Table,
    V: diesel::AsChangeset<Target = T>,
    W: diesel::Expression<SqlType = diesel::sql_types::Bool>
        + diesel::expression::AppearsOnTable<T>,
{
    Update {
        table,
        changes: changes.as_changeset(),
        filter,
    }
}

impl<T, V, W> diesel::query_builder::QueryId for Update<T, V, W> {
    type QueryId = ();
    // Keyed by the SQL text, which one call site always writes alike.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<DB, T, V, W> diesel::query_builder::QueryFragment<DB> for Update<T, V, W>
where
    DB: diesel::backend::Backend,
    T: diesel::query_builder::QueryFragment<DB>,
    V: diesel::query_builder::QueryFragment<DB>,
    W: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> diesel::QueryResult<()> {
        out.push_sql("UPDATE ");
        self.table.walk_ast(out.reborrow())?;
        out.push_sql(" SET ");
        self.changes.walk_ast(out.reborrow())?;
        out.push_sql(" WHERE ");
        self.filter.walk_ast(out.reborrow())
    }
}

impl<T, V, W, Conn> diesel::RunQueryDsl<Conn> for Update<T, V, W> {}

/// Moves a subtree of paths in `table` (a table with `project_id` and
/// `path` columns): the project's rows whose path starts with `old/`
/// start with `new/` afterwards. One statement.
pub(crate) fn repath(
    conn: &mut crate::DbConnection,
    table: &'static str,
    project_id: i64,
    old: &str,
    new: &str,
) -> diesel::QueryResult<usize> {
    use diesel::RunQueryDsl;
    use diesel::sql_types::{BigInt, Integer, Text};
    let sqlite = matches!(conn, crate::DbConnection::Sqlite(_));
    let at = |n: usize| {
        if sqlite {
            format!("?{n}")
        } else {
            format!("${n}")
        }
    };
    let prefix = format!("{old}/");
    let length = i32::try_from(prefix.chars().count()).unwrap_or(i32::MAX);
    let statement = format!(
        "UPDATE {table} SET path = {} || substr(path, {}) \
         WHERE project_id = {} AND substr(path, 1, {}) = {}",
        at(1),
        at(2),
        at(3),
        at(4),
        at(5)
    );
    diesel::sql_query(statement)
        .into_boxed::<crate::MultiBackend>()
        .bind::<Text, _>(format!("{new}/"))
        .bind::<Integer, _>(length + 1)
        .bind::<BigInt, _>(project_id)
        .bind::<Integer, _>(length)
        .bind::<Text, _>(prefix)
        .execute(conn)
}

/// A statement written at run time in one of the few shapes its call site
/// writes, its numbers and times bound in the order they appear. Unlike
/// `diesel::sql_query`, which diesel prepares again at every run, it is
/// kept prepared on its connection, keyed by its text: for statements on
/// the hot write path.
#[derive(Debug, Clone, Default)]
pub(crate) struct Prepared {
    parts: Vec<Part>,
    /// Not to be kept: its text varies too much (a list of any length).
    once: bool,
}

/// A piece of a [`Prepared`] statement.
#[derive(Debug, Clone)]
enum Part {
    Sql(String),
    Number(i64),
    Time(Option<chrono::NaiveDateTime>),
}

impl Prepared {
    /// Appends SQL text.
    pub(crate) fn sql(&mut self, text: &str) -> &mut Prepared {
        self.parts.push(Part::Sql(text.to_owned()));
        self
    }

    /// Appends a parameter holding a number.
    pub(crate) fn number(&mut self, n: i64) -> &mut Prepared {
        self.parts.push(Part::Number(n));
        self
    }

    /// Appends parameters holding these numbers, separated by commas (the
    /// inside of an `IN (…)`).
    pub(crate) fn numbers(&mut self, ns: &[i64]) -> &mut Prepared {
        for (i, n) in ns.iter().enumerate() {
            if i > 0 {
                self.sql(", ");
            }
            self.number(*n);
        }
        self
    }

    /// Marks the statement as one not to keep prepared: its text takes
    /// too many shapes (a list of any length) for a cache of them.
    pub(crate) fn once(&mut self) -> &mut Prepared {
        self.once = true;
        self
    }

    /// Appends a parameter holding a time, or NULL.
    pub(crate) fn time(&mut self, at: Option<chrono::NaiveDateTime>) -> &mut Prepared {
        self.parts.push(Part::Time(at));
        self
    }
}

impl diesel::query_builder::QueryId for Prepared {
    type QueryId = ();
    // Keyed by the SQL text, as [`Update`] is.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<DB> diesel::query_builder::QueryFragment<DB> for Prepared
where
    DB: diesel::backend::Backend,
    i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
    Option<chrono::NaiveDateTime>:
        diesel::serialize::ToSql<diesel::sql_types::Nullable<diesel::sql_types::Timestamp>, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> diesel::QueryResult<()> {
        if self.once {
            out.unsafe_to_cache_prepared();
        }
        for part in &self.parts {
            match part {
                Part::Sql(text) => out.push_sql(text),
                Part::Number(n) => out.push_bind_param::<diesel::sql_types::BigInt, _>(n)?,
                Part::Time(at) => out.push_bind_param::<
                    diesel::sql_types::Nullable<diesel::sql_types::Timestamp>,
                    _,
                >(at)?,
            }
        }
        Ok(())
    }
}

impl<Conn> diesel::RunQueryDsl<Conn> for Prepared {}

/// Lists of at most this many values, all lists of a statement together,
/// keep a [`Kept`] statement prepared: few enough lengths to make few
/// texts.
const KEPT_VALUES: usize = 12;

/// A diesel query kept prepared on its connection, keyed by its SQL text,
/// that diesel would prepare again at every run because it holds lists of
/// values (`eq_any` on SQLite) whose lengths change its text. A single
/// edit's queries hold short lists (its old and new texts, its few
/// components), and preparing them was a fifth of an edit's time on
/// SQLite; longer lists (bulk work) are prepared at each run as before,
/// so that the cache holds few texts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Kept<Q> {
    query: Q,
    keep: bool,
}

/// Wraps `query`, whose lists hold `values` values in all, as [`Kept`].
pub(crate) fn kept<Q>(query: Q, values: usize) -> Kept<Q> {
    Kept {
        query,
        keep: values <= KEPT_VALUES,
    }
}

impl<Q> diesel::query_builder::QueryId for Kept<Q> {
    type QueryId = ();
    // Keyed by the SQL text, as [`Update`] is.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: diesel::query_builder::Query> diesel::query_builder::Query for Kept<Q> {
    type SqlType = Q::SqlType;
}

impl<DB, Q> diesel::query_builder::QueryFragment<DB> for Kept<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(
        &'b self,
        out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> diesel::QueryResult<()> {
        self.query.walk_ast(out)
    }

    fn is_safe_to_cache_prepared(&self, backend: &DB) -> diesel::QueryResult<bool> {
        // Keyed by its text, a statement with lists is as safe to keep as
        // any other; the lists' lengths only decide whether it is worth it.
        Ok(self.keep || self.query.is_safe_to_cache_prepared(backend)?)
    }
}

impl<Q, Conn> diesel::RunQueryDsl<Conn> for Kept<Q> {}
