//! What those who look after a component do from its page: commit,
//! push and update its repository, lock and unlock it
//! (`POST /repository/{project}/{component path}/`), and add a language
//! (`POST /new-lang/{project}/{component path}/`, Weblate's address).
//! Each answers with a redirect to the component's page, which tells what
//! was done, or a new translation's page; a refused or failed action
//! shows the component's page with the reason.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tolk_service::repository::Operation;

use crate::component::component_again;
use crate::error::{WebError, refusal};
use crate::extract::{Guarded, Posted};
use crate::page::{blocking, see_other};
use crate::site::Pages;
use crate::upkeep::Upkeep;

/// Registers the actions.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/repository/{project}/{rest:.+}", web::post().to(upkeep))
        .route(
            "/new-lang/{project}/{rest:.+}",
            web::post().to(add_language),
        );
}

/// What the repository's forms post.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpkeepForm {
    /// The anti-forgery token.
    csrfmiddlewaretoken: String,
    /// `commit`, `push`, `pull`, `lock` or `unlock`.
    action: String,
}

impl Guarded for UpkeepForm {
    fn token(&self) -> &str {
        &self.csrfmiddlewaretoken
    }
}

/// What the form adding a language posts.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NewLanguageForm {
    /// The anti-forgery token.
    csrfmiddlewaretoken: String,
    /// The language's code.
    lang: String,
}

impl Guarded for NewLanguageForm {
    fn token(&self) -> &str {
        &self.csrfmiddlewaretoken
    }
}

/// The project and component path of an address.
fn component_of(params: web::Path<(String, String)>) -> (String, String) {
    let (project, rest) = params.into_inner();
    (project, rest.trim_end_matches('/').to_owned())
}

async fn upkeep(
    posted: Posted<UpkeepForm>,
    params: web::Path<(String, String)>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Posted { visitor, form } = posted;
    let action = Upkeep::parse(&form.action).ok_or(WebError::BadForm)?;
    let (project, path) = component_of(params);
    let (service, subject, at) = (
        pages.service.clone(),
        visitor.subject.clone(),
        (project.clone(), path.clone()),
    );
    let outcome = blocking(move || {
        let (project, path) = (at.0.as_str(), at.1.as_str());
        let operation = match action {
            Upkeep::Commit => Operation::Commit,
            Upkeep::Push => Operation::Push,
            Upkeep::Pull => Operation::Pull,
            Upkeep::Lock | Upkeep::Unlock => {
                let lock = Some(action == Upkeep::Lock);
                return service
                    .components()
                    .lock(&subject, project, path, lock)
                    .map(|_| (true, None));
            }
        };
        service
            .repository()
            .operation(&subject, project, path, operation)
    })
    .await?;
    let failure = match outcome {
        Ok((true, _)) => {
            let to = format!("/projects/{project}/{path}/?done={}", action.name());
            return Ok(see_other(&to).finish());
        }
        Ok((false, detail)) => (
            StatusCode::CONFLICT,
            detail.unwrap_or_else(|| "The operation failed.".to_owned()),
        ),
        Err(error) => refusal(error)?,
    };
    component_again(&pages, &visitor, (project, path), failure).await
}

async fn add_language(
    posted: Posted<NewLanguageForm>,
    params: web::Path<(String, String)>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Posted { visitor, form } = posted;
    let (project, path) = component_of(params);
    let (service, subject, at) = (
        pages.service.clone(),
        visitor.subject.clone(),
        (project.clone(), path.clone()),
    );
    let code = form.lang.trim().to_owned();
    let added = blocking(move || {
        service
            .translations()
            .add(&subject, &at.0, &at.1, &code)
            .map(|view| view.language.row.code.clone())
    })
    .await?;
    match added {
        Ok(code) => Ok(see_other(&format!("/projects/{project}/{path}/{code}/")).finish()),
        Err(error) => {
            let failure = refusal(error)?;
            component_again(&pages, &visitor, (project, path), failure).await
        }
    }
}
