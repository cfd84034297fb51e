//! What the web editor shows of one string of a translation: the unit,
//! its place in the list being worked through (a search), what the caller
//! may do with it, its suggestions and comments, the same string in the
//! other languages, and what helps translate it (`string_aids`); read in one transaction with a fixed number of
//! statements.

use std::sync::Arc;

use tolk_domain::permission::{Permission, Subject};
use tolk_domain::query::Condition;
use tolk_store::comments::{self, Comment};
use tolk_store::screenshots;
pub use tolk_store::screenshots::Screenshot;
use tolk_store::suggestions::{self, Suggestion};
use tolk_store::unit_cursor;
pub use tolk_store::unit_cursor::Place;
use tolk_store::units::{self, UnitFilter};
use tolk_store::{DbConnection, Page, PageRequest};

use crate::string_aids::{Aids, aids};
use crate::translations::TranslationView;
use crate::unit_plan::{editable_by, reviews_on};
use crate::unit_view::UnitView;
use crate::units::{Units, condition_of, views_of};
use crate::{ServiceError, ServiceResult};

/// Suggestions and comments shown with a string, newest first.
const SHOWN: u64 = 50;

/// Which string of a list the editor shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// The unit with this `id_hash` (a unit's `web_url` names it by its
    /// checksum, [`tolk_domain::unit::checksum`]).
    Unit(i64),
    /// The n-th string of the list, from 1.
    Offset(u64),
}

/// What the caller may do with the string shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rights {
    /// Why the caller may not translate it, if not.
    pub refusal: Option<String>,
    /// May suggest a translation.
    pub suggest: bool,
    /// May approve translations (the project reviews them).
    pub review: bool,
    /// May accept suggestions.
    pub accept: bool,
    /// May delete suggestions.
    pub delete_suggestion: bool,
    /// May vote on suggestions (the component has voting).
    pub vote: bool,
    /// May comment.
    pub comment: bool,
    /// May dismiss failing checks.
    pub dismiss: bool,
}

/// One string in the editor.
#[derive(Debug, Clone)]
pub struct Editing {
    /// The translation worked on.
    pub translation: Arc<TranslationView>,
    /// The string shown; none when the list is empty.
    pub unit: Option<UnitView>,
    /// Its place in the list.
    pub place: Place,
    /// What the caller may do with it.
    pub rights: Rights,
    /// Its suggestions, newest first.
    pub suggestions: Vec<Suggestion>,
    /// Comments on it and on its string, by id.
    pub comments: Vec<Comment>,
    /// The same string in the other languages, by id.
    pub others: Vec<UnitView>,
    /// Glossary terms, the memory's offers and the string's history.
    pub aids: Aids,
    /// The screenshots showing its string, by id.
    pub screenshots: Vec<Screenshot>,
}

impl Units<'_> {
    /// The string at `position` among the units of the translation `path`
    /// matching `q`, as the caller may see it; not found for a hidden
    /// translation or an unknown unit.
    pub fn editor(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        q: Option<&str>,
        position: Position,
    ) -> ServiceResult<Editing> {
        let condition = condition_of(q)?;
        self.store.read(|conn| {
            let translation = Arc::new(self.translation_of_units(conn, subject, path)?);
            let filter = list_filter(conn, &translation, condition)?;
            let row = match position {
                Position::Unit(hash) => units::by_hash(conn, &[translation.translation.id], hash)?
                    .pop()
                    .ok_or(ServiceError::NotFound)?,
                Position::Offset(n) => {
                    let request = PageRequest {
                        number: Some(n.max(1)),
                        size: 1,
                    };
                    match units::list(conn, &subject.project_visibility(), &filter, request)? {
                        Some(page) => match page.items.into_iter().next() {
                            Some(row) => row,
                            None => return Ok(Editing::empty(translation)),
                        },
                        None => return Err(ServiceError::NotFound),
                    }
                }
            };
            let place = unit_cursor::place(conn, &filter, row.id)?;
            let unit = crate::units::with_labels(
                conn,
                vec![UnitView {
                    unit: row,
                    translation: Arc::clone(&translation),
                    labels: Vec::new(),
                }],
            )?
            .pop()
            .ok_or(ServiceError::NotFound)?;
            self.around(conn, subject, unit, place)
        })
    }

    /// The unit `id_hash` of the translation `path` with its place in
    /// the list of those matching `q`: what an action in the editor acts
    /// on, and where it goes next.
    pub fn locate(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        q: Option<&str>,
        id_hash: i64,
    ) -> ServiceResult<(UnitView, Place)> {
        let condition = condition_of(q)?;
        self.store.read(|conn| {
            let translation = self.translation_of_units(conn, subject, path)?;
            let unit = units::by_hash(conn, &[translation.translation.id], id_hash)?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let filter = list_filter(conn, &translation, condition)?;
            let place = unit_cursor::place(conn, &filter, unit.id)?;
            let view = UnitView {
                unit,
                translation: Arc::new(translation),
                labels: Vec::new(),
            };
            Ok((view, place))
        })
    }

    /// What goes with `unit` on the page.
    fn around(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        unit: UnitView,
        place: Place,
    ) -> ServiceResult<Editing> {
        let first = PageRequest {
            number: Some(1),
            size: SHOWN,
        };
        let suggestions = if unit.unit.has_suggestion {
            let all = tolk_domain::permission::ProjectVisibility::All;
            suggestions::list(conn, &all, Some(unit.unit.id), first)?
                .map(|page| page.items)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let comments = if unit.unit.has_comment {
            let on = [unit.unit.id, unit.source_id()];
            comments::of_units(conn, &on, first)?
                .map(|page| page.items)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let rows: Vec<_> = units::translations_of(conn, unit.source_id())?
            .into_iter()
            .filter(|(row, _)| row.id != unit.unit.id)
            .collect();
        let others = if rows.is_empty() {
            Vec::new()
        } else {
            let generation = self.cache.sync(conn)?;
            self.unit_views(conn, generation, rows, false)?
        };
        Ok(Editing {
            aids: aids(conn, subject, &unit)?,
            screenshots: screenshots::of_unit(conn, unit.source_id())?,
            rights: Rights::of(subject, &unit),
            translation: Arc::clone(&unit.translation),
            unit: Some(unit),
            place,
            suggestions,
            comments,
            others,
        })
    }
}

/// A page of strings of a translation, each with what the caller may do
/// with it: the list view (Weblate's "Zen").
#[derive(Debug, Clone)]
pub struct StringList {
    /// The translation worked on.
    pub translation: Arc<TranslationView>,
    /// The strings of the page, each with the caller's rights.
    pub strings: Page<(UnitView, Rights)>,
}

impl Units<'_> {
    /// A page of the units of the translation `path` matching `q`, as
    /// the caller may see them; a fixed number of statements.
    pub fn string_list(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        q: Option<&str>,
        request: PageRequest,
    ) -> ServiceResult<StringList> {
        let condition = condition_of(q)?;
        self.store.read(|conn| {
            let translation = Arc::new(self.translation_of_units(conn, subject, path)?);
            let filter = list_filter(conn, &translation, condition)?;
            let visibility = subject.project_visibility();
            let found = crate::access::page(units::list(conn, &visibility, &filter, request))?;
            let strings = found.try_map_items(|rows| {
                let views = crate::units::with_labels(conn, views_of(rows, &translation))?;
                Ok::<_, ServiceError>(
                    views
                        .into_iter()
                        .map(|view| {
                            let rights = Rights::of(subject, &view);
                            (view, rights)
                        })
                        .collect(),
                )
            })?;
            Ok(StringList {
                translation,
                strings,
            })
        })
    }
}

/// The units of `translation` matching `condition`; counted by the
/// translation's counters when they hold the count (every unit, and the
/// common searches).
fn list_filter(
    conn: &mut DbConnection,
    translation: &TranslationView,
    condition: Option<Condition>,
) -> ServiceResult<UnitFilter> {
    let counters = &translation.translation.counters;
    let known_count = match &condition {
        None => Some(counters.total.strings),
        Some(condition) => condition.counted_by(counters),
    };
    let project = translation.component.project.id;
    Ok(UnitFilter {
        translation_id: Some(translation.translation.id),
        condition: crate::glossary::resolve_search(conn, condition, Some(project))?,
        known_count,
    })
}

impl Editing {
    /// The editor of a list with no string.
    fn empty(translation: Arc<TranslationView>) -> Editing {
        Editing {
            translation,
            unit: None,
            place: Place {
                before: 0,
                count: 0,
                previous: None,
                next: None,
            },
            rights: Rights::default(),
            suggestions: Vec::new(),
            comments: Vec::new(),
            others: Vec::new(),
            aids: Aids::default(),
            screenshots: Vec::new(),
        }
    }
}

impl Rights {
    /// What `subject` may do with `unit`, by the rules the use-cases apply.
    fn of(subject: &Subject, unit: &UnitView) -> Rights {
        let target = unit.translation.target();
        let component = &unit.translation.component.component;
        let workflow = unit.translation.workflow();
        let can = |permission| subject.can(permission, target);
        let open = !component.locked;
        Rights {
            refusal: editable_by(subject, unit).err().map(|error| match error {
                ServiceError::NotAuthenticated => "Sign in to translate.".to_owned(),
                other => other.to_string(),
            }),
            suggest: open && workflow.enable_suggestions && can(Permission::SUGGESTION_ADD),
            review: reviews_on(unit) && can(Permission::UNIT_REVIEW),
            accept: open && can(Permission::SUGGESTION_ACCEPT),
            delete_suggestion: can(Permission::SUGGESTION_DELETE),
            vote: workflow.suggestion_voting && can(Permission::SUGGESTION_VOTE),
            comment: can(Permission::COMMENT_ADD),
            dismiss: can(Permission::UNIT_CHECK),
        }
    }
}
