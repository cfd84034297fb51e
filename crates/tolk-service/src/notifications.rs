//! Users' notification subscriptions (§3.3, §29.11): each user manages
//! their own; user managers anybody's.

use tolk_domain::notification::{Subscription, SubscriptionPatch};
use tolk_domain::permission::Subject;
use tolk_domain::validation::FieldErrors;
use tolk_store::subscriptions::{self, StoredSubscription};
use tolk_store::{DbConnection, Page, PageRequest};

use crate::access::page;
use crate::conflict::{Unique, unique_violation};
use crate::users::editable_user;
use crate::{ServiceError, ServiceResult};

/// A user subscribes to a notification once per scope.
const NOTIFICATION: Unique = Unique {
    attr: "notification",
    model: "Subscription",
    label: "Notification",
};

/// The account whose subscriptions the caller manages.
fn owner(conn: &mut DbConnection, subject: &Subject, username: &str) -> ServiceResult<i64> {
    Ok(editable_user(conn, subject, username, true)?.0.row.id)
}

/// Checks `fields`, and that the user has no other such subscription.
fn checked(
    conn: &mut DbConnection,
    user: i64,
    fields: &Subscription,
    except: Option<i64>,
) -> ServiceResult<()> {
    let mut errors = fields.validate();
    if errors.is_empty() && subscriptions::taken(conn, user, fields, except)? {
        NOTIFICATION.report(&mut errors);
    }
    Ok(errors.into_result()?)
}

crate::service::area!(
    /// The use-cases of a person's subscriptions to notifications.
    Notifications,
    notifications
);

impl Notifications<'_> {
    /// A user's subscriptions, by id.
    pub fn list(
        &self,
        subject: &Subject,
        username: &str,
        request: PageRequest,
    ) -> ServiceResult<Page<StoredSubscription>> {
        self.store.read(|conn| {
            let user = owner(conn, subject, username)?;
            page(subscriptions::of_user(conn, user, request))
        })
    }

    /// One subscription of a user.
    pub fn get(
        &self,
        subject: &Subject,
        username: &str,
        id: i64,
    ) -> ServiceResult<StoredSubscription> {
        self.store.read(|conn| {
            let user = owner(conn, subject, username)?;
            subscriptions::get(conn, user, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Subscribes a user to a notification.
    pub fn subscribe(
        &self,
        subject: &Subject,
        username: &str,
        body: Result<SubscriptionPatch, FieldErrors>,
    ) -> ServiceResult<StoredSubscription> {
        self.store.write(|conn| {
            let user = owner(conn, subject, username)?;
            let empty = Subscription {
                notification: String::new(),
                scope: 0,
                frequency: 0,
            };
            let fields = body?.apply(&empty);
            checked(conn, user, &fields, None)?;
            let id = subscriptions::insert(conn, user, &fields)
                .map_err(|e| unique_violation(e, &[NOTIFICATION]))?;
            Ok(StoredSubscription { id, fields })
        })
    }

    /// Changes a subscription of a user.
    pub fn change(
        &self,
        subject: &Subject,
        username: &str,
        id: i64,
        body: Result<SubscriptionPatch, FieldErrors>,
    ) -> ServiceResult<StoredSubscription> {
        self.store.write(|conn| {
            let user = owner(conn, subject, username)?;
            let current = subscriptions::get(conn, user, id)?.ok_or(ServiceError::NotFound)?;
            let fields = body?.apply(&current.fields);
            checked(conn, user, &fields, Some(id))?;
            if !subscriptions::update(conn, user, id, &fields)
                .map_err(|e| unique_violation(e, &[NOTIFICATION]))?
            {
                return Err(ServiceError::NotFound);
            }
            Ok(StoredSubscription { id, fields })
        })
    }

    /// Removes a subscription of a user.
    pub fn unsubscribe(&self, subject: &Subject, username: &str, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let user = owner(conn, subject, username)?;
            if subscriptions::delete(conn, user, id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }
}
