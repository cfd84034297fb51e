//! The list view (`/zen/{project}/{component}/{language}/`, Weblate's
//! "Zen"): a page of strings, each with its own field and save, with the
//! editor's search and filters. Each save is a plain form post that comes
//! back to the string; `static/zen.js` saves with Ctrl+Enter without
//! leaving the page, moves between fields with Ctrl+↑/↓, and loads the
//! next page as one scrolls.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use tolk_domain::unit::{UnitState, checksum, content_sum, split_plurals};
use tolk_service::PageRequest;

use crate::editor::{Form, forms};
use crate::error::{WebError, refused};
use crate::heading::Heading;
use crate::page::{Chrome, answer, blocking, render};
use crate::paths::TranslationPath;
use crate::searches::{SearchLink, links};
use crate::site::Pages;
use crate::visitor::Visitor;

/// Strings on one page of the list.
const PAGE_SIZE: u64 = 25;

/// Registers the list view.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/zen/{project}/{rest:.+}", web::get().to(zen));
}

/// What the list's address asks for.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ZenQuery {
    /// The search whose strings are listed.
    q: String,
    /// The page, from 1.
    page: Option<u64>,
}

/// One string of the list.
#[derive(Debug, Clone)]
struct ZenString {
    checksum: String,
    /// The digest of its translation and state, for the save's guard.
    content_sum: String,
    /// The visitor may suggest a translation.
    suggest: bool,
    sources: Vec<Form>,
    context: String,
    targets: Vec<Form>,
    state: &'static str,
    fuzzy: bool,
    /// Why the visitor may not save it, if not.
    refusal: Option<String>,
    /// The string in the editor.
    href: String,
}

#[derive(Template)]
#[template(path = "zen.html")]
struct ZenPage {
    chrome: Chrome,
    heading: Heading,
    action: String,
    editor_action: String,
    editor_href: String,
    q: String,
    filters: Vec<SearchLink>,
    strings: Vec<ZenString>,
    page: u64,
    /// The number of the page's first string in the list.
    first: u64,
    count: u64,
    more: Option<String>,
}

async fn zen(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<ZenQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let path = TranslationPath::parse(&params.0, &params.1).ok_or(WebError::NotFound)?;
    let q = query.q.trim().to_owned();
    let request = PageRequest {
        number: Some(query.page.unwrap_or(1).max(1)),
        size: PAGE_SIZE,
    };
    let (service, subject, key, q_used) = (
        pages.service.clone(),
        visitor.subject.clone(),
        path.clone(),
        q.clone(),
    );
    let list = blocking(move || {
        let q = Some(q_used.as_str()).filter(|q| !q.is_empty());
        service.units().string_list(&subject, key.key(), q, request)
    })
    .await?
    .map_err(refused)?;
    let translation = &list.translation;
    let component = &translation.component;
    let source_plural = component.source_language.plural.kind;
    let strings = list
        .strings
        .items
        .iter()
        .map(|(view, rights)| {
            let row = &view.unit;
            let state = UnitState::from_code(row.state).unwrap_or(UnitState::Empty);
            let hash = checksum(row.id_hash);
            ZenString {
                href: path.editor(Some(&hash), &q),
                checksum: hash,
                content_sum: content_sum(&row.target, row.state),
                sources: forms(&row.source, source_plural, split_plurals(&row.source).len()),
                context: row.context.clone(),
                targets: forms(&row.target, translation.language.plural.kind, view.forms()),
                state: state.label(),
                fuzzy: state.is_fuzzy(),
                refusal: rights.refusal.clone(),
                suggest: rights.suggest,
            }
        })
        .collect();
    let page_number = list.strings.number;
    let page = ZenPage {
        chrome: Chrome::of(&pages, &visitor),
        heading: Heading::of(translation, &path),
        action: path.zen("", None),
        editor_action: path.editor(None, ""),
        editor_href: path.editor(None, &q),
        filters: links(&q, |filter| path.zen(filter, None)),
        strings,
        page: page_number,
        first: (page_number - 1) * PAGE_SIZE + 1,
        count: list.strings.count,
        more: (page_number < list.strings.last_number())
            .then(|| path.zen(&q, Some(page_number + 1))),
        q,
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}
