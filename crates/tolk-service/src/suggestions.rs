//! Suggestions (§11) and comments (§10.4): what translators attach to a
//! unit besides its translation. The translation's counters of strings
//! with suggestions and with unresolved comments follow each change.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{UnitState, join_plurals};
use tolk_domain::validation::{FieldErrors, check_text};
use tolk_store::comments::{self, Comment};
use tolk_store::suggestions::{self, Suggestion};
use tolk_store::{DbConnection, Page, PageRequest, changes, time, translations};

use crate::access::{page, require};
use crate::unit_plan::{Planned, unit_change};
use crate::unit_view::UnitView;
use crate::units::record_translations;
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "You do not have permission to perform this action.";

/// Longest comment accepted.
const MAX_COMMENT: usize = 1000;

/// Longest form of a suggestion accepted, in characters, unless four
/// times its source string is longer (anyone may suggest where a project
/// lets them: no megabytes of text are stored for a short string).
const MAX_SUGGESTION: usize = 10_000;

/// What suggesting a translation did.
#[derive(Debug, Clone, PartialEq)]
pub enum Suggested {
    /// A new suggestion (with its author's vote where voting is on).
    Made(Suggestion),
    /// Someone else had suggested the same text: the caller voted for it.
    Voted(Suggestion),
    /// The votes accepted the suggestion at once: it is the translation.
    Accepted,
}

/// Where a comment goes (§10.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentScope {
    /// On the string, for every translation (kept on the source unit).
    Global,
    /// On this translation's unit.
    Translation,
    /// A report of a problem in the source string (needs source reviews).
    Report,
}

impl CommentScope {
    /// The scope a request names.
    pub fn parse(name: &str) -> Option<CommentScope> {
        match name {
            "global" => Some(CommentScope::Global),
            "translation" => Some(CommentScope::Translation),
            "report" => Some(CommentScope::Report),
            _ => None,
        }
    }
}

/// Moves a translation's counter of strings with suggestions or comments
/// by `delta`.
fn count(
    conn: &mut DbConnection,
    translation_id: i64,
    suggestions: i64,
    comments: i64,
) -> ServiceResult<()> {
    if suggestions == 0 && comments == 0 {
        return Ok(());
    }
    let delta = Counters {
        suggestions,
        comments,
        ..Counters::default()
    };
    translations::add_counters(conn, translation_id, &delta, time::now())?;
    Ok(())
}

crate::service::area!(
    /// The use-cases of suggestions and comments on strings.
    Suggestions,
    suggestions
);

impl Suggestions<'_> {
    /// Suggestions the caller may see (of one unit when given), newest first.
    pub fn list(
        &self,
        subject: &Subject,
        unit_id: Option<i64>,
        request: PageRequest,
    ) -> ServiceResult<Page<Suggestion>> {
        self.store.read(|conn| {
            if let Some(id) = unit_id {
                self.visible_unit(conn, subject, id)?;
            }
            page(suggestions::list(
                conn,
                &subject.project_visibility(),
                unit_id,
                request,
            ))
        })
    }

    /// One suggestion, if the caller may see its unit.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<Suggestion> {
        self.store
            .read(|conn| Ok(self.visible_suggestion(conn, subject, id)?.0))
    }

    fn visible_suggestion(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        id: i64,
    ) -> ServiceResult<(Suggestion, UnitView)> {
        let found = suggestions::get(conn, id)?.ok_or(ServiceError::NotFound)?;
        let unit = self.visible_unit(conn, subject, found.unit_id)?;
        Ok((found, unit))
    }

    /// Suggests a translation of a unit (§11.2). Where the component has
    /// voting and the caller may vote, the suggestion carries the author's
    /// vote, and the same text suggested by someone else gets that vote
    /// instead of a second suggestion; either may reach the votes that
    /// accept it.
    pub fn add(
        &self,
        subject: &Subject,
        unit_id: i64,
        target: Vec<String>,
    ) -> ServiceResult<Suggested> {
        self.store.write(|conn| {
            let unit = self.visible_unit(conn, subject, unit_id)?;
            let workflow = unit.translation.workflow();
            if !workflow.enable_suggestions {
                return Err(ServiceError::PermissionDenied(
                    "Suggestions are not allowed on this translation. The component's enable_suggestions setting (or the project's workflow for the language) allows them.".into(),
                ));
            }
            if unit.unit.state == UnitState::ReadOnly.code() {
                return Err(ServiceError::PermissionDenied(
                    "The string is read-only.".into(),
                ));
            }
            require(
                subject,
                Permission::SUGGESTION_ADD,
                unit.translation.target(),
                DENIED,
            )?;
            let mut errors = FieldErrors::default();
            if target.is_empty() || target.iter().all(String::is_empty) {
                errors.required("target");
            } else if target.len() != unit.forms() {
                errors.invalid("target", "Number of plurals does not match");
            } else {
                let longest = MAX_SUGGESTION.max(4 * unit.unit.source.chars().count());
                if target.iter().any(|form| form.chars().count() > longest) {
                    errors.max_length("target", longest);
                }
            }
            errors.into_result()?;
            let text = join_plurals(&target);
            if text == unit.unit.target {
                return Err(ServiceError::invalid(
                    "target",
                    "Your suggestion is similar to the current translation!",
                ));
            }
            let voting = workflow.suggestion_voting
                && subject.is_authenticated()
                && subject.can(Permission::SUGGESTION_VOTE, unit.translation.target());
            let same = suggestions::with_text(conn, unit_id, &text)?;
            let mine = same.iter().any(|s| s.user_id == subject.user_id());
            // Someone else's suggestion of this text (the oldest) gets a vote.
            if let (false, true, Some(other)) = (mine, voting, same.first()) {
                tolk_store::translations::lock(conn, unit.translation.translation.id)?;
                return self
                    .cast_vote(conn, subject, other, &unit, 1)
                    .map(|voted| voted.map_or(Suggested::Accepted, Suggested::Voted));
            }
            if !same.is_empty() {
                return Err(ServiceError::invalid(
                    "target",
                    "Your suggestion already exists!",
                ));
            }
            let at = time::now();
            let first = !unit.unit.has_suggestion;
            let id = suggestions::insert(conn, unit_id, subject.user_id(), &text, at)?;
            count(conn, unit.translation.translation.id, i64::from(first), 0)?;
            let change = tolk_store::changes::NewChange {
                target: text,
                ..unit_change(&unit, Action::SUGGESTION, subject)
            };
            changes::record(conn, &change, at)?;
            let made = suggestions::get(conn, id)?.ok_or(ServiceError::NotFound)?;
            if !voting {
                return Ok(Suggested::Made(made));
            }
            tolk_store::translations::lock(conn, unit.translation.translation.id)?;
            Ok(match self.cast_vote(conn, subject, &made, &unit, 1)? {
                Some(voted) => Suggested::Made(voted),
                None => Suggested::Accepted,
            })
        })
    }

    /// Removes a suggestion (its author, or with `suggestion.delete`).
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let (found, unit) = self.visible_suggestion(conn, subject, id)?;
            let own = found.user_id.is_some() && found.user_id == subject.user_id();
            if !own {
                require(
                    subject,
                    Permission::SUGGESTION_DELETE,
                    unit.translation.target(),
                    DENIED,
                )?;
            }
            self.forget_suggestion(conn, &found, &unit)?;
            let change = tolk_store::changes::NewChange {
                target: found.target,
                ..unit_change(&unit, Action::SUGGESTION_DELETE, subject)
            };
            changes::record(conn, &change, time::now())?;
            Ok(())
        })
    }

    /// Accepts a suggestion (needs `suggestion.accept`, and `unit.review`
    /// to approve): it becomes the unit's translation, translated or
    /// approved, and is removed.
    pub fn accept(&self, subject: &Subject, id: i64, approve: bool) -> ServiceResult<()> {
        self.store.write(|conn| {
            let (found, unit) = self.visible_suggestion(conn, subject, id)?;
            tolk_store::translations::lock(conn, unit.translation.translation.id)?;
            require(
                subject,
                Permission::SUGGESTION_ACCEPT,
                unit.translation.target(),
                DENIED,
            )?;
            self.accept_in(conn, subject, subject, &found, &unit, approve)
        })
    }

    /// Makes a suggestion its unit's translation (translated, or approved)
    /// under the rules for `acting` and removes it; the change names
    /// `subject` (who may differ: a vote accepts with the system's rights).
    fn accept_in(
        &self,
        conn: &mut DbConnection,
        acting: &Subject,
        subject: &Subject,
        found: &Suggestion,
        unit: &UnitView,
        approve: bool,
    ) -> ServiceResult<()> {
        let state = if approve {
            UnitState::Approved
        } else {
            UnitState::Translated
        };
        let forms = tolk_domain::unit::split_plurals(&found.target);
        let at = time::now();
        let mut glossary = crate::glossary::GlossaryTerms::default();
        let terms = glossary.for_unit(conn, unit)?;
        if let Some(mut planned) = Planned::new(acting, unit, &forms, state.code(), terms)? {
            planned.change.action = Action::ACCEPT;
            planned.change.user_id = subject.user_id();
            planned.change.author_id = found.user_id;
            if !planned.write(conn, unit, at)? {
                return Err(ServiceError::NotFound);
            }
            let spread = planned.spread(unit.unit.id_hash);
            record_translations(conn, subject, &unit.translation, &[planned], at)?;
            self.propagate(conn, acting, &unit.translation, &[spread])?;
        }
        self.forget_suggestion(conn, found, unit)
    }

    /// Votes on a suggestion (+1 or -1; needs `suggestion.vote` and the
    /// component's `suggestion_voting`), replacing the caller's earlier
    /// vote. With `suggestion_autoaccept` votes or more it is accepted:
    /// `None` then, else the suggestion with its new votes.
    pub fn vote(
        &self,
        subject: &Subject,
        id: i64,
        value: i32,
    ) -> ServiceResult<Option<Suggestion>> {
        self.store.write(|conn| {
            let (found, unit) = self.visible_suggestion(conn, subject, id)?;
            tolk_store::translations::lock(conn, unit.translation.translation.id)?;
            require(
                subject,
                Permission::SUGGESTION_VOTE,
                unit.translation.target(),
                DENIED,
            )?;
            if !unit.translation.workflow().suggestion_voting {
                return Err(ServiceError::PermissionDenied(
                    "Suggestion voting is disabled. The component's suggestion_voting setting (or the project's workflow for the language) turns it on.".into(),
                ));
            }
            if value != 1 && value != -1 {
                return Err(ServiceError::invalid("value", "The vote must be 1 or -1."));
            }
            self.cast_vote(conn, subject, &found, &unit, value)
        })
    }

    /// Records the caller's vote on a suggestion of `unit` (whose
    /// translation the caller locked) and accepts it when the votes reach
    /// the component's `suggestion_autoaccept`: `None` then, else the
    /// suggestion with its new votes.
    fn cast_vote(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        found: &Suggestion,
        unit: &UnitView,
        value: i32,
    ) -> ServiceResult<Option<Suggestion>> {
        let user = subject.user_id().ok_or(ServiceError::NotAuthenticated)?;
        suggestions::vote(conn, found.id, user, value)?;
        let voted = suggestions::get(conn, found.id)?.ok_or(ServiceError::NotFound)?;
        let needed = i64::from(unit.translation.workflow().suggestion_autoaccept);
        if needed > 0 && voted.votes >= needed {
            self.accept_in(conn, &Subject::System, subject, &voted, unit, false)?;
            return Ok(None);
        }
        Ok(Some(voted))
    }

    /// Deletes a suggestion, and counts its unit out of the strings with
    /// suggestions when it was the last.
    fn forget_suggestion(
        &self,
        conn: &mut DbConnection,
        found: &Suggestion,
        unit: &UnitView,
    ) -> ServiceResult<()> {
        if !suggestions::delete(conn, found.id)? {
            return Err(ServiceError::NotFound);
        }
        let last = suggestions::count_of_unit(conn, unit.unit.id)? == 0;
        count(conn, unit.translation.translation.id, -i64::from(last), 0)
    }

    /// Comments on a unit and on its string (§10.4), by id.
    pub fn comments(
        &self,
        subject: &Subject,
        unit_id: i64,
        request: PageRequest,
    ) -> ServiceResult<Page<Comment>> {
        self.store.read(|conn| {
            let unit = self.visible_unit(conn, subject, unit_id)?;
            let on = [
                unit.unit.id,
                unit.unit.source_unit_id.unwrap_or(unit.unit.id),
            ];
            page(comments::of_units(conn, &on, request))
        })
    }

    /// Comments on a unit (needs `comment.add`): on the string for every
    /// translation (`global`), on this translation's unit, or as a report
    /// on the source string.
    pub fn add_comment(
        &self,
        subject: &Subject,
        unit_id: i64,
        scope: CommentScope,
        text: &str,
    ) -> ServiceResult<Comment> {
        self.store.write(|conn| {
            let unit = self.visible_unit(conn, subject, unit_id)?;
            require(
                subject,
                Permission::COMMENT_ADD,
                unit.translation.target(),
                DENIED,
            )?;
            let mut errors = FieldErrors::default();
            check_text(text, "comment", MAX_COMMENT, &mut errors);
            let reviews = unit.translation.component.project.settings.source_review;
            match scope {
                CommentScope::Report if !reviews => errors.invalid(
                    "scope",
                    "\"report\" is not a valid choice as source review is disabled.",
                ),
                CommentScope::Translation if unit.is_source() => errors.invalid(
                    "scope",
                    "\"translation\" is not a valid choice on source strings.",
                ),
                _ => {}
            }
            errors.into_result()?;
            let on = match scope {
                CommentScope::Translation => unit.unit.id,
                CommentScope::Global | CommentScope::Report => {
                    unit.unit.source_unit_id.unwrap_or(unit.unit.id)
                }
            };
            let at = time::now();
            let first = comments::unresolved_on(conn, &[on])? == 0;
            let comment = comments::insert(conn, on, subject.user_id(), text, at)?;
            if on == unit.unit.id {
                count(conn, unit.translation.translation.id, 0, i64::from(first))?;
            }
            let change = tolk_store::changes::NewChange {
                target: text.to_owned(),
                details: json!({"comment": text}),
                ..unit_change(&unit, Action::COMMENT, subject)
            };
            changes::record(conn, &change, at)?;
            Ok(comment)
        })
    }
}
