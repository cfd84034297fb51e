//! Users' notification subscriptions.

use diesel::prelude::*;
use tolk_domain::notification::Subscription;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::subscriptions;

/// A stored subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSubscription {
    /// Primary key.
    pub id: i64,
    /// Its fields.
    pub fields: Subscription,
}

type Row = (i64, String, i32, i32);

fn stored((id, notification, scope, frequency): Row) -> StoredSubscription {
    StoredSubscription {
        id,
        fields: Subscription {
            notification,
            scope,
            frequency,
        },
    }
}

const COLUMNS: (
    subscriptions::id,
    subscriptions::notification,
    subscriptions::scope,
    subscriptions::frequency,
) = (
    subscriptions::id,
    subscriptions::notification,
    subscriptions::scope,
    subscriptions::frequency,
);

/// A user's subscriptions by id; `None` for a page past the end.
pub fn of_user(
    conn: &mut DbConnection,
    user_id: i64,
    page: PageRequest,
) -> StoreResult<Option<Page<StoredSubscription>>> {
    let mine = || subscriptions::table.filter(subscriptions::user_id.eq(user_id));
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(mine().count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(mine()
                .order(subscriptions::id)
                .offset(offset)
                .limit(limit)
                .select(COLUMNS)
                .load::<Row>(conn)?
                .into_iter()
                .map(stored)
                .collect())
        },
    )
}

/// The subscription `id` of a user.
pub fn get(
    conn: &mut DbConnection,
    user_id: i64,
    id: i64,
) -> StoreResult<Option<StoredSubscription>> {
    Ok(subscriptions::table
        .filter(subscriptions::user_id.eq(user_id))
        .filter(subscriptions::id.eq(id))
        .select(COLUMNS)
        .first::<Row>(conn)
        .optional()?
        .map(stored))
}

/// True when the user has another subscription than `except` with the
/// same notification and scope (site-wide: no project or component).
pub fn taken(
    conn: &mut DbConnection,
    user_id: i64,
    fields: &Subscription,
    except: Option<i64>,
) -> StoreResult<bool> {
    let mut query = subscriptions::table
        .filter(subscriptions::user_id.eq(user_id))
        .filter(subscriptions::notification.eq(fields.notification.clone()))
        .filter(subscriptions::scope.eq(fields.scope))
        .filter(subscriptions::project_id.is_null())
        .filter(subscriptions::component_id.is_null())
        .into_boxed();
    if let Some(id) = except {
        query = query.filter(subscriptions::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

/// Stores a subscription; its id.
pub fn insert(conn: &mut DbConnection, user_id: i64, fields: &Subscription) -> StoreResult<i64> {
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        subscriptions::table
    )
    .values((
        subscriptions::user_id.eq(user_id),
        subscriptions::notification.eq(&fields.notification),
        subscriptions::scope.eq(fields.scope),
        subscriptions::frequency.eq(fields.frequency),
    ))
    .returning(subscriptions::id)
    .get_result(c))?)
}

/// Writes a subscription's fields; false when it is gone.
pub fn update(
    conn: &mut DbConnection,
    user_id: i64,
    id: i64,
    fields: &Subscription,
) -> StoreResult<bool> {
    Ok(diesel::update(
        subscriptions::table
            .filter(subscriptions::user_id.eq(user_id))
            .filter(subscriptions::id.eq(id)),
    )
    .set((
        subscriptions::notification.eq(&fields.notification),
        subscriptions::scope.eq(fields.scope),
        subscriptions::frequency.eq(fields.frequency),
    ))
    .execute(conn)?
        > 0)
}

/// Removes a subscription; false when it was gone.
pub fn delete(conn: &mut DbConnection, user_id: i64, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(
        subscriptions::table
            .filter(subscriptions::user_id.eq(user_id))
            .filter(subscriptions::id.eq(id)),
    )
    .execute(conn)?
        > 0)
}
