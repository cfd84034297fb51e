//! The editor (`/translate/{project}/{component}/{language}/`): one string
//! of a list at a time (all strings, or those a search finds), positioned
//! by a unit's checksum (`?checksum=`, as its `web_url` gives it) or by
//! its place in the list (`?offset=`). Every action is a plain form post
//! answered with a redirect, so the page works without script; the script
//! of `static/editor.js` only adds the keyboard. A save that fails shows
//! the page again with what was typed and why.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;
use tolk_domain::change::Action;
use tolk_domain::checks::dismissals;
use tolk_domain::language::html_lang;
use tolk_domain::plural::PluralType;
use tolk_domain::unit::{UnitState, checksum, content_sum, id_hash_of_checksum, split_plurals};
use tolk_service::check_dismissal::Dismissal;
use tolk_service::editor::{Editing, Position, Rights};
use tolk_service::suggestions::CommentScope;
use tolk_service::units::{UnitEdit, UnitView};

use crate::error::{WebError, refusal, refused};
use crate::extract::{Guarded, Posted};
use crate::heading::Heading;
use crate::page::{Chrome, answer, blocking, render, see_other};
use crate::paths::TranslationPath;
use crate::screenshot::image_href;
use crate::searches::{SearchLink, links};
use crate::site::Pages;
use crate::visitor::Visitor;

/// Registers the editor.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/translate/{project}/{rest:.+}", web::get().to(show))
        .route("/translate/{project}/{rest:.+}", web::post().to(act));
}

/// What the editor's address asks for.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct EditorQuery {
    /// The string, by its checksum.
    checksum: String,
    /// The search whose strings are worked through.
    q: String,
    /// The string by its place in the list, from 1.
    offset: Option<u64>,
}

/// What the editor's forms post.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EditorForm {
    /// The anti-forgery token.
    csrfmiddlewaretoken: String,
    /// The string acted on, by its checksum.
    checksum: String,
    /// The search being worked through.
    q: String,
    /// `save`, `suggest`, `accept`, `delete`, `upvote`, `downvote`,
    /// `comment`, `dismiss` or `restore` (a check), or `checks` (the checks
    /// the typed text fails, answered as JSON).
    action: String,
    /// Set: save as needing editing.
    fuzzy: String,
    /// Set: save as approved (reviewers).
    approved: String,
    /// The suggestion acted on.
    suggestion: String,
    /// A new comment.
    comment: String,
    /// Where the comment goes: `global`, `translation` or `report`.
    scope: String,
    /// The check dismissed or restored, by id.
    check: String,
    /// Posted from the list view: the page of it to go back to.
    zen: String,
    /// The content sum of what the page showed (a save is refused if the
    /// string changed since).
    shown: String,
    /// The translation's forms, `target_0`, `target_1`...
    #[serde(flatten)]
    fields: HashMap<String, String>,
}

impl Guarded for EditorForm {
    fn token(&self) -> &str {
        &self.csrfmiddlewaretoken
    }
}

impl EditorForm {
    /// The forms of the translation typed, as many as were posted.
    fn typed(&self) -> Vec<String> {
        let forms = (0..)
            .take_while(|n| self.fields.contains_key(&format!("target_{n}")))
            .count();
        self.targets(forms)
    }

    /// The `forms` forms of the translation typed.
    fn targets(&self, forms: usize) -> Vec<String> {
        (0..forms)
            .map(|n| {
                let text = self.fields.get(&format!("target_{n}"));
                // Browsers send line breaks as CR LF; files keep LF.
                text.map(|t| t.replace("\r\n", "\n")).unwrap_or_default()
            })
            .collect()
    }

    /// The state a save asks for.
    fn state(&self, targets: &[String]) -> i32 {
        let state = if targets.iter().all(String::is_empty) {
            UnitState::Empty
        } else if !self.fuzzy.is_empty() {
            UnitState::Fuzzy
        } else if !self.approved.is_empty() {
            UnitState::Approved
        } else {
            UnitState::Translated
        };
        state.code()
    }

    /// The suggestion acted on.
    fn suggestion(&self) -> Result<i64, WebError> {
        self.suggestion.parse().map_err(|_| WebError::BadForm)
    }
}

/// One form of a string: its label (a CLDR plural category) and text.
#[derive(Debug, Clone)]
pub(crate) struct Form {
    /// Its label.
    pub(crate) label: String,
    /// Its text.
    pub(crate) text: String,
}

/// A suggestion as shown.
#[derive(Debug, Clone)]
struct SuggestionShown {
    /// Its number for Ctrl+M.
    number: usize,
    id: i64,
    forms: Vec<String>,
    author: String,
    votes: i64,
}

/// A failing check as shown.
#[derive(Debug, Clone)]
struct CheckShown {
    /// Its number for Ctrl+I.
    number: usize,
    /// Its id.
    id: String,
}

/// A translation the memory offers, as shown.
#[derive(Debug, Clone)]
struct OfferShown {
    /// Its number for Ctrl+M, after the suggestions'.
    number: usize,
    forms: Vec<String>,
    source: String,
    similarity: i64,
    origin: String,
}

/// A change of the string, as shown.
#[derive(Debug, Clone)]
struct ChangeShown {
    action: &'static str,
    who: String,
    when: String,
    text: String,
}

/// A comment as shown.
#[derive(Debug, Clone)]
struct CommentShown {
    author: String,
    text: String,
    when: String,
}

/// The same string in another language.
#[derive(Debug, Clone)]
struct Other {
    language: String,
    /// Its language tag.
    code: String,
    direction: String,
    text: String,
    href: String,
}

/// The string shown, as the template needs it.
#[derive(Debug, Clone)]
struct Shown {
    checksum: String,
    /// The digest of its translation and state, for the save's guard.
    content_sum: String,
    sources: Vec<Form>,
    context: String,
    note: String,
    location: String,
    flags: String,
    explanation: String,
    labels: Vec<String>,
    state: &'static str,
    targets: Vec<Form>,
    fuzzy: bool,
    approved: bool,
    checks: Vec<CheckShown>,
    dismissed: Vec<String>,
    suggestions: Vec<SuggestionShown>,
    offers: Vec<OfferShown>,
    terms: Vec<(String, String)>,
    history: Vec<ChangeShown>,
    comments: Vec<CommentShown>,
    others: Vec<Other>,
    /// Screenshots of the string: name and image address.
    screenshots: Vec<(String, String)>,
    comment: String,
}

#[derive(Template)]
#[template(path = "editor.html")]
struct EditorPage {
    chrome: Chrome,
    heading: Heading,
    action: String,
    q: String,
    filters: Vec<SearchLink>,
    /// The same list in the list view.
    zen_href: String,
    position: i64,
    count: i64,
    previous: Option<String>,
    next: Option<String>,
    unit: Option<Shown>,
    rights: Rights,
    message: Option<String>,
}

impl EditorPage {
    /// Whether the string shown has a field to translate it.
    fn editable(&self) -> bool {
        self.unit.is_some() && self.rights.refusal.is_none()
    }
}

/// The labels of `count` forms in a language of this plural type.
fn form_labels(kind: i32, count: usize) -> Vec<String> {
    if count == 1 {
        return vec!["Singular".to_owned()];
    }
    match PluralType(kind).form_names() {
        Some(names) if names.len() == count => names
            .into_iter()
            .map(|name| format!("Plural form “{name}”"))
            .collect(),
        _ => (0..count).map(|n| format!("Plural form {n}")).collect(),
    }
}

/// Labelled forms of a stored text.
pub(crate) fn forms(text: &str, kind: i32, count: usize) -> Vec<Form> {
    let mut texts = split_plurals(text);
    texts.resize(count, String::new());
    form_labels(kind, count)
        .into_iter()
        .zip(texts)
        .map(|(label, text)| Form { label, text })
        .collect()
}

/// The string of `editing` as shown.
fn shown(editing: &Editing, unit: &UnitView, path: &TranslationPath) -> Shown {
    let row = &unit.unit;
    let translation = &unit.translation;
    let source_plural = &translation.component.source_language.plural;
    let source_forms = split_plurals(&row.source).len();
    let flags: Vec<&str> = [&row.flags, &row.source_flags, &row.extra_flags]
        .into_iter()
        .map(|f| f.trim())
        .filter(|f| !f.is_empty())
        .collect();
    let state = UnitState::from_code(row.state).unwrap_or(UnitState::Empty);
    let others = editing
        .others
        .iter()
        .map(|other| {
            let language = &other.translation.language.row;
            let there = TranslationPath {
                language: language.code.clone(),
                ..path.clone()
            };
            Other {
                language: language.name.clone(),
                code: html_lang(&language.code),
                direction: language.direction.clone(),
                text: split_plurals(&other.unit.target).join("\n"),
                href: there.editor(Some(&checksum(other.unit.id_hash)), ""),
            }
        })
        .collect();
    Shown {
        checksum: checksum(row.id_hash),
        content_sum: content_sum(&row.target, row.state),
        sources: forms(&row.source, source_plural.kind, source_forms),
        context: row.context.clone(),
        note: row.note.clone(),
        location: row.location.clone(),
        flags: flags.join(", "),
        explanation: row.explanation.clone(),
        labels: unit.labels.iter().map(|l| l.name.clone()).collect(),
        state: state.label(),
        targets: forms(&row.target, translation.language.plural.kind, unit.forms()),
        fuzzy: state.is_fuzzy(),
        approved: state == UnitState::Approved,
        checks: dismissals::ids(&row.failing)
            .enumerate()
            .map(|(n, id)| CheckShown {
                number: n + 1,
                id: id.to_owned(),
            })
            .collect(),
        dismissed: dismissals::ids(&row.dismissed).map(str::to_owned).collect(),
        suggestions: editing
            .suggestions
            .iter()
            .enumerate()
            .map(|(n, s)| SuggestionShown {
                number: n + 1,
                id: s.id,
                forms: split_plurals(&s.target),
                author: s.username.clone().unwrap_or_else(|| "Anonymous".into()),
                votes: s.votes,
            })
            .collect(),
        offers: editing
            .aids
            .offers
            .iter()
            .enumerate()
            .map(|(n, offer)| OfferShown {
                number: editing.suggestions.len() + n + 1,
                forms: split_plurals(&offer.target),
                source: offer.source.clone(),
                similarity: offer.similarity,
                origin: offer.origin.clone(),
            })
            .collect(),
        terms: editing
            .aids
            .terms
            .iter()
            .map(|t| (t.source.clone(), t.target.clone()))
            .collect(),
        history: editing
            .aids
            .history
            .iter()
            .map(|(change, who)| ChangeShown {
                action: Action(change.action).label(),
                who: who.clone().unwrap_or_else(|| "Tolk".into()),
                when: change.created.format("%Y-%m-%d %H:%M").to_string(),
                text: split_plurals(&change.target).join("\n"),
            })
            .collect(),
        comments: editing
            .comments
            .iter()
            .map(|c| CommentShown {
                author: c.username.clone().unwrap_or_else(|| "Deleted user".into()),
                text: c.comment.clone(),
                when: c.created.format("%Y-%m-%d %H:%M").to_string(),
            })
            .collect(),
        others,
        screenshots: editing
            .screenshots
            .iter()
            .map(|shot| (shot.name.clone(), image_href(shot.id)))
            .collect(),
        comment: String::new(),
    }
}

/// The page of `editing`.
fn page(
    pages: &Pages,
    visitor: &Visitor,
    path: &TranslationPath,
    q: &str,
    editing: &Editing,
) -> EditorPage {
    let translation = &editing.translation;
    let at = |hash: Option<i64>| hash.map(|h| path.editor(Some(&checksum(h)), q));
    let position = if editing.unit.is_some() {
        editing.place.before + 1
    } else {
        0
    };
    EditorPage {
        chrome: Chrome::of(pages, visitor),
        heading: Heading::of(translation, path),
        action: path.editor(None, ""),
        zen_href: path.zen(q, None),
        q: q.to_owned(),
        filters: links(q, |filter| path.editor(None, filter)),
        position,
        count: editing.place.count,
        previous: at(editing.place.previous),
        next: at(editing.place.next),
        unit: editing.unit.as_ref().map(|u| shown(editing, u, path)),
        rights: editing.rights.clone(),
        message: None,
    }
}

/// The search of a query or form: `None` when blank.
fn search(q: &str) -> Option<String> {
    let q = q.trim();
    (!q.is_empty()).then(|| q.to_owned())
}

/// The translation an address names, or 404.
fn translation_path(params: &(String, String)) -> Result<TranslationPath, WebError> {
    TranslationPath::parse(&params.0, &params.1).ok_or(WebError::NotFound)
}

async fn show(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<EditorQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    if let Some(language) = params.1.strip_prefix("-/") {
        // Every component of the project in one language: its page.
        let to = format!("/projects/{}/-/{language}", params.0);
        return Ok(see_other(&to).finish());
    }
    let path = translation_path(&params)?;
    let position = match query.checksum.as_str() {
        "" => Position::Offset(query.offset.unwrap_or(1)),
        given => Position::Unit(id_hash_of_checksum(given).ok_or(WebError::NotFound)?),
    };
    let q = search(&query.q);
    let (service, subject, key) = (pages.service.clone(), visitor.subject.clone(), path.clone());
    let q_used = q.clone();
    let editing = blocking(move || {
        service
            .units()
            .editor(&subject, key.key(), q_used.as_deref(), position)
    })
    .await?
    .map_err(refused)?;
    let page = page(
        &pages,
        &visitor,
        &path,
        q.as_deref().unwrap_or(""),
        &editing,
    );
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}

async fn act(
    posted: Posted<EditorForm>,
    params: web::Path<(String, String)>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Posted { visitor, form } = posted;
    let path = translation_path(&params)?;
    let hash = id_hash_of_checksum(&form.checksum).ok_or(WebError::NotFound)?;
    if form.action == "checks" {
        // Asked as one types: no place in the list is needed.
        let (service, subject, typed) =
            (pages.service.clone(), visitor.subject.clone(), form.typed());
        let fuzzy = !form.fuzzy.is_empty();
        let failing = blocking(move || {
            service
                .units()
                .checks_for(&subject, (path.key(), hash), &typed, fuzzy)
        })
        .await?
        .map_err(refused)?;
        return Ok(answer(StatusCode::OK).json(TypedChecks { failing }));
    }
    let q = search(&form.q).unwrap_or_default();
    let (service, subject, key, q_used) = (
        pages.service.clone(),
        visitor.subject.clone(),
        path.clone(),
        q.clone(),
    );
    let (unit, place) = blocking(move || {
        let q = search(&q_used);
        service
            .units()
            .locate(&subject, key.key(), q.as_deref(), hash)
    })
    .await?
    .map_err(refused)?;
    let here = path.editor(Some(&form.checksum), &q);
    let onward = match (form.zen.parse::<u64>().ok(), place.next) {
        // Back to the string in the list view.
        (Some(page), _) => format!("{}#c{}", path.zen(&q, Some(page)), form.checksum),
        (None, Some(next)) => path.editor(Some(&checksum(next)), &q),
        (None, None) => path.page(),
    };
    let targets = form.targets(unit.forms());
    let (service, subject, id) = (pages.service.clone(), visitor.subject.clone(), unit.unit.id);
    let done = match form.action.as_str() {
        "save" => {
            let edit = UnitEdit {
                state: Some(form.state(&targets)),
                target: Some(targets.clone()),
                shown: Some(form.shown.clone()).filter(|sum| !sum.is_empty()),
                ..UnitEdit::default()
            };
            blocking(move || service.units().edit(&subject, id, edit).map(|_| onward)).await?
        }
        "suggest" => {
            let forms = targets.clone();
            blocking(move || {
                service
                    .suggestions()
                    .add(&subject, id, forms)
                    .map(|_| onward)
            })
            .await?
        }
        "accept" => {
            let suggestion = form.suggestion()?;
            blocking(move || {
                service
                    .suggestions()
                    .accept(&subject, suggestion, false)
                    .map(|()| here)
            })
            .await?
        }
        "delete" => {
            let suggestion = form.suggestion()?;
            blocking(move || {
                service
                    .suggestions()
                    .delete(&subject, suggestion)
                    .map(|()| here)
            })
            .await?
        }
        "upvote" | "downvote" => {
            let suggestion = form.suggestion()?;
            let value = if form.action == "upvote" { 1 } else { -1 };
            blocking(move || {
                service
                    .suggestions()
                    .vote(&subject, suggestion, value)
                    .map(|_| here)
            })
            .await?
        }
        "comment" => {
            let scope = CommentScope::parse(&form.scope).unwrap_or(CommentScope::Global);
            let text = form.comment.clone();
            blocking(move || {
                service
                    .suggestions()
                    .add_comment(&subject, id, scope, &text)
                    .map(|_| here)
            })
            .await?
        }
        "dismiss" | "restore" => {
            let how = if form.action == "dismiss" {
                Dismissal::Dismiss
            } else {
                Dismissal::Restore
            };
            let check = form.check.clone();
            blocking(move || {
                service
                    .units()
                    .dismiss_check(&subject, id, &check, how)
                    .map(|_| here)
            })
            .await?
        }
        _ => return Err(WebError::BadForm),
    };
    match done {
        Ok(to) => Ok(see_other(&to).finish()),
        Err(error) => {
            let kept = Kept {
                targets,
                fuzzy: !form.fuzzy.is_empty(),
                approved: !form.approved.is_empty(),
                comment: form.comment,
            };
            again(&pages, &visitor, &path, &q, hash, kept, refusal(error)?).await
        }
    }
}

/// The checks a typed translation fails, for the editor's script.
#[derive(Debug, serde::Serialize)]
struct TypedChecks {
    /// Their ids.
    failing: Vec<String>,
}

/// What a refused post had typed, shown again.
struct Kept {
    targets: Vec<String>,
    fuzzy: bool,
    approved: bool,
    comment: String,
}

/// The editor again after a refused action, with what was typed and why
/// it was refused.
async fn again(
    pages: &web::Data<Pages>,
    visitor: &Visitor,
    path: &TranslationPath,
    q: &str,
    hash: i64,
    kept: Kept,
    (status, words): (StatusCode, String),
) -> Result<HttpResponse, WebError> {
    let (service, subject, key, q_used) = (
        pages.service.clone(),
        visitor.subject.clone(),
        path.clone(),
        search(q),
    );
    let editing = blocking(move || {
        service
            .units()
            .editor(&subject, key.key(), q_used.as_deref(), Position::Unit(hash))
    })
    .await??;
    let mut page = page(pages, visitor, path, q, &editing);
    if let Some(unit) = page.unit.as_mut() {
        for (field, text) in unit.targets.iter_mut().zip(kept.targets) {
            field.text = text;
        }
        unit.fuzzy = kept.fuzzy;
        unit.approved = kept.approved;
        unit.comment = kept.comment;
    }
    page.message = Some(words);
    let mut reply = answer(status);
    visitor.keep_seed(pages, &mut reply);
    render(reply, &page)
}
