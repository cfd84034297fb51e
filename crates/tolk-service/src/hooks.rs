//! Notifications from Git hosts (§26): the components whose repository a
//! push names are updated by a queued pull; nothing waits for it.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::hooks::{MatchMethod, PushEvent};
use tolk_domain::permission::AccessControl;
use tolk_store::changes::{self, NewChange};
use tolk_store::{components, time};

use crate::component_view::{ComponentView, views};
use crate::components::visible_component;
use crate::jobs::{Job, Owner, enqueue};
use crate::{ServiceError, ServiceResult};

/// What a notification matched, stage by stage, and what it updates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookOutcome {
    /// Components whose repository the push names.
    pub repository_matches: usize,
    /// Of those, the ones on the pushed branch.
    pub branch_matches: usize,
    /// Of those, the ones whose project takes notifications: the
    /// components updated that anyone may see, as project and component
    /// slug.
    pub updated: Vec<(String, String)>,
    /// How many components were updated that an anonymous caller may not
    /// see (their names are not told).
    pub hidden: usize,
}

crate::service::area!(
    /// The use-cases of Git hosts' notifications of pushes.
    Hooks,
    hooks
);

impl Hooks<'_> {
    /// Queues an update of every component `event` names, on its branch,
    /// in a project with `enable_hooks`, recording a change for each; read
    /// with a fixed number of statements.
    pub fn notify(&self, service: &str, event: &PushEvent) -> ServiceResult<HookOutcome> {
        let (matched, method) = self.store.read(|conn| {
            let found = components::with_repo_ending(conn, &event.suffixes())?;
            let exact: Vec<_> = found
                .iter()
                .filter(|c| event.matches_exactly(&c.settings.repo))
                .cloned()
                .collect();
            let (chosen, method) = if exact.is_empty() {
                let by_name = found
                    .into_iter()
                    .filter(|c| event.matches_by_name(&c.settings.repo))
                    .collect();
                (by_name, MatchMethod::Fallback)
            } else {
                (exact, MatchMethod::Exact)
            };
            Ok::<_, crate::ServiceError>((views(conn, chosen)?, method))
        })?;
        let repository_matches = matched.len();
        let on_branch: Vec<ComponentView> = matched
            .into_iter()
            .filter(|v| {
                event
                    .branch
                    .as_deref()
                    .is_none_or(|b| v.component.settings.branch == b)
            })
            .collect();
        let branch_matches = on_branch.len();
        let enabled: Vec<ComponentView> = on_branch
            .into_iter()
            .filter(|v| v.project.settings.enable_hooks)
            .collect();
        self.store.write(|conn| {
            for view in &enabled {
                let change = NewChange {
                    project_id: Some(view.project.id),
                    component_id: Some(view.component.id),
                    details: json!({
                        "service_long_name": service,
                        "repo_url": event.repo_url,
                        "branch": event.branch,
                        "full_name": event.full_name,
                        "match_method": method.name(),
                    }),
                    ..NewChange::new(Action::HOOK, None)
                };
                changes::record(conn, &change, time::now())?;
                queue_pull(conn, view)?;
            }
            Ok::<_, crate::ServiceError>(())
        })?;
        if !enabled.is_empty() {
            self.queued();
        }
        // Whoever sends a notification is anonymous: private names stay untold.
        let anyone = self.auth().anonymous()?;
        let (seen, hidden): (Vec<ComponentView>, Vec<ComponentView>) =
            enabled.into_iter().partition(|v| v.visible_to(&anyone));
        Ok(HookOutcome {
            repository_matches,
            branch_matches,
            updated: seen
                .into_iter()
                .map(|v| (v.project.settings.slug, v.component.path))
                .collect(),
            hidden: hidden.len(),
        })
    }

    /// The deprecated `GET /hooks/update/{p}/[{c}/]`: queues an update of
    /// one component, or of every component of a project, if its project
    /// takes notifications; the components updated (none when it does not).
    /// As Weblate documents, these anonymous endpoints only serve public
    /// projects: any other project, and a component an anonymous caller
    /// cannot see, is not found, and nothing is queued.
    pub fn notify_update(
        &self,
        project_slug: &str,
        slug: Option<&str>,
    ) -> ServiceResult<Vec<(String, String)>> {
        let anyone = self.auth().anonymous()?;
        let targets: Vec<ComponentView> = self.store.read(|conn| {
            let project = crate::projects::visible_project(conn, &anyone, project_slug)?;
            if project.settings.access_control != AccessControl::Public.code() {
                return Err(ServiceError::NotFound);
            }
            match slug {
                Some(slug) => Ok(vec![visible_component(conn, &anyone, project_slug, slug)?]),
                None => {
                    let all = components::of_project(conn, project.id)?;
                    Ok(views(conn, all)?
                        .into_iter()
                        .filter(|v| v.visible_to(&anyone))
                        .collect())
                }
            }
        })?;
        let targets: Vec<ComponentView> = targets
            .into_iter()
            .filter(|v| {
                v.project.settings.enable_hooks && v.component.linked_component_id.is_none()
            })
            .collect();
        self.store.write(|conn| {
            for view in &targets {
                queue_pull(conn, view)?;
            }
            Ok::<_, crate::ServiceError>(())
        })?;
        if !targets.is_empty() {
            self.queued();
        }
        Ok(targets
            .into_iter()
            .map(|v| (v.project.settings.slug, v.component.settings.slug))
            .collect())
    }
}

/// Queues the background pull of a component a notification names.
fn queue_pull(conn: &mut tolk_store::DbConnection, view: &ComponentView) -> ServiceResult<()> {
    let owner = Owner {
        user_id: None,
        project_id: Some(view.project.id),
        component_id: Some(view.component.id),
    };
    let job = Job::Pull {
        component_id: view.component.id,
    };
    enqueue(conn, &job, owner)?;
    Ok(())
}
