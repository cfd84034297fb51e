//! Labels: a project's tags for its source strings (§17.1). A label is
//! kept on the source unit; every translation of the string shows it.

use std::collections::HashMap;

use diesel::prelude::*;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{labels, unit_labels};

/// A stored label.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = labels)]
pub struct Label {
    /// Primary key.
    pub id: i64,
    /// Owning project.
    pub project_id: i64,
    /// Name, unique in the project.
    pub name: String,
    /// What it means.
    pub description: String,
    /// One of the glossary colours.
    pub color: String,
}

/// A label to store.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = labels)]
#[allow(missing_docs)]
pub struct NewLabel {
    pub project_id: i64,
    pub name: String,
    pub description: String,
    pub color: String,
}

/// Stores a label; its id. A name the project uses already is a unique
/// violation naming `name`.
pub fn insert(conn: &mut DbConnection, new: &NewLabel) -> StoreResult<i64> {
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        labels::table
    )
    .values(new)
    .returning(labels::id)
    .get_result(c))?)
}

/// A project's labels by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    project_id: i64,
    page: PageRequest,
) -> StoreResult<Option<Page<Label>>> {
    let of_project = || labels::table.filter(labels::project_id.eq(project_id));
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(of_project().count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(of_project()
                .order(labels::id)
                .offset(offset)
                .limit(limit)
                .select(Label::as_select())
                .load(conn)?)
        },
    )
}

/// The labels of a project with these ids; others are left out.
pub fn of_project(
    conn: &mut DbConnection,
    project_id: i64,
    ids: &[i64],
) -> StoreResult<Vec<Label>> {
    Ok(labels::table
        .filter(labels::project_id.eq(project_id))
        .filter(labels::id.eq_any(ids.to_vec()))
        .order(labels::id)
        .select(Label::as_select())
        .load(conn)?)
}

/// Deletes a project's label (and its uses); false when there is none.
pub fn delete(conn: &mut DbConnection, project_id: i64, id: i64) -> StoreResult<bool> {
    let rows = diesel::delete(
        labels::table
            .filter(labels::project_id.eq(project_id))
            .filter(labels::id.eq(id)),
    )
    .execute(conn)?;
    Ok(rows == 1)
}

/// The labels of source units by unit id, each list by label id; one statement.
pub fn of_units(
    conn: &mut DbConnection,
    unit_ids: &[i64],
) -> StoreResult<HashMap<i64, Vec<Label>>> {
    let rows: Vec<(i64, Label)> = unit_labels::table
        .inner_join(labels::table)
        .filter(unit_labels::unit_id.eq_any(unit_ids.to_vec()))
        .order((unit_labels::unit_id, labels::id))
        .select((unit_labels::unit_id, Label::as_select()))
        .load(conn)?;
    let mut found: HashMap<i64, Vec<Label>> = HashMap::new();
    for (unit, label) in rows {
        found.entry(unit).or_default().push(label);
    }
    Ok(found)
}

/// Attaches and detaches labels of a source unit.
pub fn change_unit_labels(
    conn: &mut DbConnection,
    unit_id: i64,
    added: &[i64],
    removed: &[i64],
) -> StoreResult<()> {
    if !removed.is_empty() {
        diesel::delete(
            unit_labels::table
                .filter(unit_labels::unit_id.eq(unit_id))
                .filter(unit_labels::label_id.eq_any(removed.to_vec())),
        )
        .execute(conn)?;
    }
    if !added.is_empty() {
        let rows: Vec<_> = added
            .iter()
            .map(|label| {
                (
                    unit_labels::unit_id.eq(unit_id),
                    unit_labels::label_id.eq(*label),
                )
            })
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(unit_labels::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}
