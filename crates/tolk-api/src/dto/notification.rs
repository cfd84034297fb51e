//! Notification subscriptions (§3.3).

use serde::Serialize;
use tolk_service::StoredSubscription;
use utoipa::ToSchema;

use crate::dto::component::ComponentDto;
use crate::dto::project::ProjectDto;

/// A subscription.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SubscriptionDto {
    /// Notification name (§29.11).
    pub notification: String,
    /// Id.
    pub id: i64,
    /// 0 all, 10 watched projects, 20 administered projects.
    pub scope: i32,
    /// 0 none, 1 instant, 2 daily, 3 weekly, 4 monthly.
    pub frequency: i32,
    /// The project of a project-scoped subscription (none over the API).
    pub project: Option<ProjectDto>,
    /// The component of a component-scoped subscription (none over the API).
    pub component: Option<Box<ComponentDto>>,
}

impl SubscriptionDto {
    /// The subscription as the API shows it.
    pub fn new(stored: StoredSubscription) -> SubscriptionDto {
        SubscriptionDto {
            notification: stored.fields.notification,
            id: stored.id,
            scope: stored.fields.scope,
            frequency: stored.fields.frequency,
            project: None,
            component: None,
        }
    }
}
