//! Component lists (§15): everybody sees a list that is empty or holds a
//! component they see, with only the components they see; managing lists
//! needs `componentlist.edit` site-wide. Rules put matching components in
//! a list when they are saved and when components are created.

use tolk_domain::component_list::{
    AutoAssignRule, ComponentListPatch, Matcher, check_fields, matchers,
};
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::validation::FieldErrors;
use tolk_store::component_lists::{self, ComponentList, ListFields};
use tolk_store::{DbConnection, Page, PageRequest, components};

use crate::access::{page, page_in_memory, require};
use crate::component_view::{ComponentView, views};
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "Can not manage component lists";

const NAME: Unique = Unique {
    attr: "name",
    model: "Component list",
    label: "Name",
};
const SLUG: Unique = Unique {
    attr: "slug",
    model: "Component list",
    label: "URL slug",
};

/// A component list as the caller sees it.
#[derive(Debug, Clone)]
pub struct ComponentListView {
    /// The list.
    pub list: ComponentList,
    /// Its rules, in order.
    pub rules: Vec<AutoAssignRule>,
    /// The components in it the caller sees, as project and component slugs, by id.
    pub components: Vec<(String, String)>,
}

fn manages(subject: &Subject) -> bool {
    subject.can(Permission::COMPONENTLIST_EDIT, Target::Site)
}

/// The lists with their rules and the components the caller sees; lists
/// the caller should not know of (every component hidden) are left out.
/// A fixed number of statements whatever the number of lists.
fn seen(
    conn: &mut DbConnection,
    subject: &Subject,
    lists: Vec<ComponentList>,
) -> ServiceResult<Vec<ComponentListView>> {
    let ids: Vec<i64> = lists.iter().map(|l| l.id).collect();
    let members = component_lists::members(conn, &ids)?;
    let rules = component_lists::rules(conn, Some(&ids))?;
    let mut component_ids: Vec<i64> = members.iter().map(|(_, c)| *c).collect();
    component_ids.sort_unstable();
    component_ids.dedup();
    let listed = components::get_by_ids(conn, &component_ids)?;
    let mut shown = views(conn, listed)?;
    shown.sort_by_key(|v| v.component.id);
    let all = manages(subject);
    Ok(lists
        .into_iter()
        .filter_map(|list| {
            let mine: Vec<i64> = members
                .iter()
                .filter(|(l, _)| *l == list.id)
                .map(|(_, c)| *c)
                .collect();
            let components: Vec<(String, String)> = shown
                .iter()
                .filter(|v| mine.contains(&v.component.id) && (all || v.visible_to(subject)))
                .map(|v| (v.project.settings.slug.clone(), v.component.path.clone()))
                .collect();
            let known = all || mine.is_empty() || !components.is_empty();
            known.then(|| ComponentListView {
                rules: rules
                    .iter()
                    .filter(|(l, _)| *l == list.id)
                    .map(|(_, r)| r.clone())
                    .collect(),
                list,
                components,
            })
        })
        .collect())
}

/// The list `slug` if the caller may know of it.
fn visible_list(
    conn: &mut DbConnection,
    subject: &Subject,
    slug: &str,
) -> ServiceResult<ComponentListView> {
    let list = component_lists::get_by_slug(conn, slug)?.ok_or(ServiceError::NotFound)?;
    seen(conn, subject, vec![list])?
        .pop()
        .ok_or(ServiceError::NotFound)
}

/// The list `slug`, which the caller must be allowed to manage.
fn managed_list(
    conn: &mut DbConnection,
    subject: &Subject,
    slug: &str,
) -> ServiceResult<ComponentList> {
    let view = visible_list(conn, subject, slug)?;
    require(
        subject,
        Permission::COMPONENTLIST_EDIT,
        Target::Site,
        DENIED,
    )?;
    Ok(view.list)
}

/// Puts the components these rules match in list `list_id` (of all
/// components, or of `only`).
fn assign(
    conn: &mut DbConnection,
    list_id: i64,
    rules: &[Matcher],
    only: Option<&[i64]>,
) -> ServiceResult<()> {
    if rules.is_empty() {
        return Ok(());
    }
    let matching: Vec<i64> = component_lists::slugs(conn, only)?
        .into_iter()
        .filter(|(_, project, component)| rules.iter().any(|r| r.matches(project, component)))
        .map(|(id, _, _)| id)
        .collect();
    component_lists::add(conn, list_id, &matching)?;
    Ok(())
}

/// Puts a new component in every list whose rules match it.
pub(crate) fn assign_new(conn: &mut DbConnection, component_id: i64) -> ServiceResult<()> {
    let rules = component_lists::rules(conn, None)?;
    let mut lists: Vec<i64> = rules.iter().map(|(l, _)| *l).collect();
    lists.dedup();
    for list in lists {
        let mut ignored = FieldErrors::default();
        let compiled: Vec<Matcher> = rules
            .iter()
            .filter(|(l, _)| *l == list)
            .filter_map(|(_, r)| Matcher::new(r, &mut ignored))
            .collect();
        assign(conn, list, &compiled, Some(&[component_id]))?;
    }
    Ok(())
}

/// The fields to store and the compiled rules to save, if given.
type Checked = (ListFields, Option<(Vec<AutoAssignRule>, Vec<Matcher>)>);

/// Checks a body against the list's current fields and the other lists.
fn checked(
    conn: &mut DbConnection,
    body: Result<ComponentListPatch, FieldErrors>,
    current: Option<&ComponentList>,
) -> ServiceResult<Checked> {
    let body = body?;
    let mut errors = FieldErrors::default();
    let fields = ListFields {
        name: body
            .name
            .or_else(|| current.map(|c| c.name.clone()))
            .unwrap_or_default(),
        slug: body
            .slug
            .or_else(|| current.map(|c| c.slug.clone()))
            .unwrap_or_default(),
        show_dashboard: body
            .show_dashboard
            .or_else(|| current.map(|c| c.show_dashboard))
            .unwrap_or(true),
    };
    check_fields(&fields.name, &fields.slug, &mut errors);
    let (name, slug) =
        component_lists::taken(conn, &fields.name, &fields.slug, current.map(|c| c.id))?;
    for (clash, field) in [(name, NAME), (slug, SLUG)] {
        if clash && !errors.has(field.attr) {
            field.report(&mut errors);
        }
    }
    let rules = body.auto_assign.map(|rules| {
        let compiled = matchers(&rules, &mut errors);
        (rules, compiled)
    });
    errors.into_result()?;
    Ok((fields, rules))
}

crate::service::area!(
    /// The use-cases of component lists.
    ComponentLists,
    component_lists
);

impl ComponentLists<'_> {
    /// The component lists the caller may know of, by id.
    pub fn list(
        &self,
        subject: &Subject,
        request: PageRequest,
    ) -> ServiceResult<Page<ComponentListView>> {
        self.store.read(|conn| {
            let lists = component_lists::all(conn)?;
            page_in_memory(request, seen(conn, subject, lists)?)
        })
    }

    /// One component list.
    pub fn get(&self, subject: &Subject, slug: &str) -> ServiceResult<ComponentListView> {
        self.store.read(|conn| visible_list(conn, subject, slug))
    }

    /// Makes a component list (needs `componentlist.edit`); its rules
    /// fill it at once.
    pub fn create(
        &self,
        subject: &Subject,
        body: Result<ComponentListPatch, FieldErrors>,
    ) -> ServiceResult<ComponentListView> {
        require(
            subject,
            Permission::COMPONENTLIST_EDIT,
            Target::Site,
            DENIED,
        )?;
        self.store.write(|conn| {
            let (fields, rules) = checked(conn, body, None)?;
            let id = component_lists::insert(conn, &fields)
                .map_err(|e| unique_violation(e, &[NAME, SLUG]))?;
            if let Some((rules, compiled)) = rules {
                component_lists::set_rules(conn, id, &rules)?;
                assign(conn, id, &compiled, None)?;
            }
            visible_list(conn, subject, &fields.slug)
        })
    }

    /// Changes a component list (needs `componentlist.edit`): PUT gives
    /// every field (`show_dashboard` defaults to true), PATCH some; rules
    /// given replace the list's and add what they match.
    pub fn update(
        &self,
        subject: &Subject,
        slug: &str,
        body: Result<ComponentListPatch, FieldErrors>,
    ) -> ServiceResult<ComponentListView> {
        self.store.write(|conn| {
            let list = managed_list(conn, subject, slug)?;
            let (fields, rules) = checked(conn, body, Some(&list))?;
            if !component_lists::update(conn, list.id, &fields)
                .map_err(|e| unique_violation(e, &[NAME, SLUG]))?
            {
                return Err(ServiceError::NotFound);
            }
            if let Some((rules, compiled)) = rules {
                component_lists::set_rules(conn, list.id, &rules)?;
                assign(conn, list.id, &compiled, None)?;
            }
            visible_list(conn, subject, &fields.slug)
        })
    }

    /// Removes a component list (needs `componentlist.edit`).
    pub fn delete(&self, subject: &Subject, slug: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let list = managed_list(conn, subject, slug)?;
            if component_lists::delete(conn, list.id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }

    /// The components of a list the caller sees (all of them with
    /// `componentlist.edit`), by id.
    pub fn components(
        &self,
        subject: &Subject,
        slug: &str,
        request: PageRequest,
    ) -> ServiceResult<Page<ComponentView>> {
        self.store.read(|conn| {
            let list = visible_list(conn, subject, slug)?.list;
            let visibility = if manages(subject) {
                tolk_domain::permission::ProjectVisibility::All
            } else {
                subject.project_visibility()
            };
            let found = page(components::in_list(conn, &visibility, list.id, request))?;
            found.try_map_items(|items| views(conn, items))
        })
    }

    /// Puts component `component_id` in a list (needs `componentlist.edit`).
    pub fn add(
        &self,
        subject: &Subject,
        slug: &str,
        component_id: Option<i64>,
    ) -> ServiceResult<ComponentListView> {
        self.store.write(|conn| {
            let list = managed_list(conn, subject, slug)?;
            let id = component_id
                .ok_or_else(|| ServiceError::invalid("component_id", "This field is required."))?;
            if components::get_by_ids(conn, &[id])?.is_empty() {
                return Err(ServiceError::invalid(
                    "component_id",
                    "Component not found.",
                ));
            }
            component_lists::add(conn, list.id, &[id])?;
            visible_list(conn, subject, slug)
        })
    }

    /// Takes the component with slug `component_slug` out of a list
    /// (needs `componentlist.edit`); not found when it is not in it.
    pub fn remove(&self, subject: &Subject, slug: &str, component_slug: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let list = managed_list(conn, subject, slug)?;
            let members: Vec<i64> = component_lists::members(conn, &[list.id])?
                .into_iter()
                .map(|(_, c)| c)
                .collect();
            let found = components::get_by_ids(conn, &members)?
                .into_iter()
                .find(|c| c.settings.slug == component_slug)
                .ok_or(ServiceError::NotFound)?;
            if component_lists::remove(conn, list.id, found.id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }
}
