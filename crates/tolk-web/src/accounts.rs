//! The pages of one's account: sign-in and sign-out, the profile with the
//! API token and a password change, and choosing a password with a
//! one-time link. Every form carries the visitor's anti-forgery token;
//! signing in always makes a new session.

use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use actix_web::{HttpResponse, web};
use askama::Template;
use tolk_domain::password::MIN_CHARS;
use tolk_service::ServiceError;
use tolk_service::accounts::{PasswordChoice, Person, SignIn};

use crate::error::WebError;
use crate::extract::Posted;
use crate::forms::{FormErrors, NextQuery, PasswordForm, SignInForm, TokenOnly, safe_next};
use crate::page::{Chrome, answer, blocking, render, see_other};
use crate::paths::query_value;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Where the profile is.
const PROFILE: &str = "/accounts/profile/";

/// Registers the account pages.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/accounts/login/", web::get().to(sign_in_page))
        .route("/accounts/login/", web::post().to(sign_in))
        .route("/accounts/logout/", web::post().to(sign_out))
        .route(PROFILE, web::get().to(profile))
        .route("/accounts/profile/token/", web::post().to(renew_token))
        .route("/accounts/password/", web::post().to(change_password))
        .route("/accounts/password/set/{key}/", web::get().to(link_page))
        .route(
            "/accounts/password/set/{key}/",
            web::post().to(set_with_link),
        );
}

/// The address of a one-time password link on the site at `site_url`.
pub fn password_link_url(site_url: &str, key: &str) -> String {
    format!(
        "{}/accounts/password/set/{key}/",
        site_url.trim_end_matches('/')
    )
}

/// How new passwords are described under their field.
fn password_help() -> String {
    format!("At least {MIN_CHARS} characters, not only digits, not your username or e-mail.")
}

#[derive(Template)]
#[template(path = "login.html")]
struct SignInPage {
    chrome: Chrome,
    username: String,
    next: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage {
    chrome: Chrome,
    person: Person,
    notice: Option<String>,
    new_token: Option<String>,
    api_url: String,
    errors: FormErrors,
    password_help: String,
}

#[derive(Template)]
#[template(path = "password_set.html")]
struct PasswordSetPage {
    chrome: Chrome,
    person: Person,
    errors: FormErrors,
    password_help: String,
}

#[derive(Template)]
#[template(path = "message.html")]
struct MessagePage {
    chrome: Chrome,
    title: &'static str,
    message: &'static str,
}

/// The sign-in page for whoever is not signed in.
fn to_sign_in(next: &str) -> HttpResponse {
    see_other(&format!("/accounts/login/?next={}", query_value(next))).finish()
}

/// Signs the visitor in to the new session `key` and sends them on to
/// `to`, ending the session they had (as another person, say).
async fn replace_session(
    pages: &Pages,
    visitor: &Visitor,
    key: &str,
    to: &str,
) -> Result<HttpResponse, WebError> {
    if let Some(old) = visitor.session_key() {
        let (service, old) = (pages.service.clone(), old.to_owned());
        blocking(move || service.accounts().sign_out(&old)).await??;
    }
    let mut reply = see_other(to);
    visitor.start_session(pages, &mut reply, key);
    Ok(reply.finish())
}

async fn sign_in_page(
    visitor: Visitor,
    query: web::Query<NextQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let next = safe_next(&query.next);
    if visitor.person().is_some() {
        return Ok(see_other(next).finish());
    }
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    let page = SignInPage {
        chrome: Chrome::of(&pages, &visitor),
        username: String::new(),
        next: next.to_owned(),
        error: None,
    };
    render(reply, &page)
}

async fn sign_in(
    Posted { visitor, form }: Posted<SignInForm>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let service = pages.service.clone();
    let address = visitor.address.clone();
    let (username, password) = (form.username.clone(), form.password);
    let signed_in = blocking(move || {
        service.accounts().sign_in(SignIn {
            username: &username,
            password: &password,
            from: &address,
        })
    })
    .await?;
    let (status, error, wait) = match signed_in {
        Ok(key) => return replace_session(&pages, &visitor, &key, safe_next(&form.next)).await,
        Err(ServiceError::AuthenticationFailed(message)) => {
            (StatusCode::BAD_REQUEST, message, None)
        }
        Err(e @ ServiceError::TooManyAttempts { retry_after }) => (
            StatusCode::TOO_MANY_REQUESTS,
            e.to_string(),
            Some(retry_after),
        ),
        Err(other) => return Err(other.into()),
    };
    let mut reply = answer(status);
    if let Some(wait) = wait {
        reply.insert_header((RETRY_AFTER, wait));
    }
    let page = SignInPage {
        chrome: Chrome::of(&pages, &visitor),
        username: form.username,
        next: safe_next(&form.next).to_owned(),
        error: Some(error),
    };
    render(reply, &page)
}

async fn sign_out(
    Posted { visitor, .. }: Posted<TokenOnly>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    if let Some(key) = visitor.session_key() {
        let (service, key) = (pages.service.clone(), key.to_owned());
        blocking(move || service.accounts().sign_out(&key)).await??;
    }
    let mut reply = see_other("/accounts/login/");
    Visitor::end_session(&pages, &mut reply);
    Ok(reply.finish())
}

/// The profile page of a signed-in visitor, with what an action left to say.
fn profile_page(
    pages: &Pages,
    visitor: &Visitor,
    person: Person,
    outcome: ProfileOutcome,
) -> ProfilePage {
    let (notice, new_token, errors) = match outcome {
        ProfileOutcome::Shown => (None, None, FormErrors::default()),
        ProfileOutcome::NewToken(token) => (None, Some(token), FormErrors::default()),
        ProfileOutcome::PasswordChanged => (
            Some("Your password was changed. Your other sessions have ended.".to_owned()),
            None,
            FormErrors::default(),
        ),
        ProfileOutcome::Refused(errors) => (None, None, errors),
    };
    ProfilePage {
        chrome: Chrome::of(pages, visitor),
        person,
        notice,
        new_token,
        api_url: format!("{}/api/", pages.site_url),
        errors,
        password_help: password_help(),
    }
}

/// What the profile page shows beside the profile.
enum ProfileOutcome {
    Shown,
    NewToken(String),
    PasswordChanged,
    Refused(FormErrors),
}

async fn profile(visitor: Visitor, pages: web::Data<Pages>) -> Result<HttpResponse, WebError> {
    let Some(person) = visitor.person().cloned() else {
        return Ok(to_sign_in(PROFILE));
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(
        reply,
        &profile_page(&pages, &visitor, person, ProfileOutcome::Shown),
    )
}

async fn renew_token(
    Posted { visitor, .. }: Posted<TokenOnly>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Some(person) = visitor.person().cloned() else {
        return Ok(to_sign_in(PROFILE));
    };
    let (service, id) = (pages.service.clone(), person.id);
    let token = blocking(move || service.accounts().renew_api_token(id)).await??;
    let page = profile_page(&pages, &visitor, person, ProfileOutcome::NewToken(token));
    render(answer(StatusCode::OK), &page)
}

async fn change_password(
    Posted { visitor, form }: Posted<PasswordForm>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Some(person) = visitor.person().cloned() else {
        return Ok(to_sign_in(PROFILE));
    };
    let (service, id) = (pages.service.clone(), person.id);
    let changed = blocking(move || {
        service.accounts().change_password(
            id,
            PasswordChoice {
                current: Some(&form.old_password),
                new: &form.new_password1,
                repeated: &form.new_password2,
            },
        )
    })
    .await?;
    match changed {
        Ok(key) => {
            // The visitor's session ended with the others: the page is
            // shown in the new one, its forms with the new session's token.
            let mut reply = answer(StatusCode::OK);
            visitor.start_session(&pages, &mut reply, &key);
            let renewed = visitor.signed_in_as(&key);
            let page = profile_page(&pages, &renewed, person, ProfileOutcome::PasswordChanged);
            render(reply, &page)
        }
        Err(ServiceError::Validation(errors)) => {
            let outcome = ProfileOutcome::Refused(FormErrors::new(errors));
            render(
                answer(StatusCode::BAD_REQUEST),
                &profile_page(&pages, &visitor, person, outcome),
            )
        }
        Err(other) => Err(other.into()),
    }
}

/// The page of a link that no longer works.
fn spent_link(pages: &Pages, visitor: &Visitor) -> Result<HttpResponse, WebError> {
    let page = MessagePage {
        chrome: Chrome::of(pages, visitor),
        title: "This link no longer works",
        message: "It has been used or has expired. Ask an administrator for a new one.",
    };
    render(answer(StatusCode::NOT_FOUND), &page)
}

async fn link_page(
    visitor: Visitor,
    key: web::Path<String>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let service = pages.service.clone();
    let owner = blocking(move || service.accounts().link_owner(&key)).await?;
    let person = match owner {
        Ok(person) => person,
        Err(ServiceError::NotFound) => return spent_link(&pages, &visitor),
        Err(other) => return Err(other.into()),
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    let page = PasswordSetPage {
        chrome: Chrome::of(&pages, &visitor),
        person,
        errors: FormErrors::default(),
        password_help: password_help(),
    };
    render(reply, &page)
}

async fn set_with_link(
    Posted { visitor, form }: Posted<PasswordForm>,
    key: web::Path<String>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (service, key) = (pages.service.clone(), key.into_inner());
    let link = key.clone();
    let set = blocking(move || {
        service.accounts().set_password_with_link(
            &link,
            PasswordChoice {
                current: None,
                new: &form.new_password1,
                repeated: &form.new_password2,
            },
        )
    })
    .await?;
    match set {
        Ok(session) => replace_session(&pages, &visitor, &session, PROFILE).await,
        Err(ServiceError::Validation(errors)) => {
            let service = pages.service.clone();
            let person = blocking(move || service.accounts().link_owner(&key)).await??;
            let page = PasswordSetPage {
                chrome: Chrome::of(&pages, &visitor),
                person,
                errors: FormErrors::new(errors),
                password_help: password_help(),
            };
            render(answer(StatusCode::BAD_REQUEST), &page)
        }
        Err(ServiceError::NotFound) => spent_link(&pages, &visitor),
        Err(other) => Err(other.into()),
    }
}
