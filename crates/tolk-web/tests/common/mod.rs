//! What the pages' tests share: a Git upstream's project read into a
//! service, and a browser that keeps its cookies between requests.

#![allow(dead_code, reason = "each test file uses part of it")]

use std::collections::BTreeMap;

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::HeaderMap;
use actix_web::test;
use tolk_domain::component::ComponentSettings;
use tolk_domain::permission::{AccessControl, Subject};
use tolk_domain::project::ProjectSettings;
use tolk_domain::user::UserFields;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;
use tolk_service::{Service, ServiceConfig};

/// A catalogue of four strings of which the `translated` first are.
pub fn catalogue(language: &str, translated: usize) -> Vec<u8> {
    let mut text = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\
         \"Language: {language}\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"
    );
    for (n, word) in ["Open", "Close", "Save", "Quit"].iter().enumerate() {
        let target = if n < translated {
            format!("{word} ({language})")
        } else {
            String::new()
        };
        text.push_str(&format!("\nmsgid \"{word}\"\nmsgstr \"{target}\"\n"));
    }
    text.into_bytes()
}

/// A project `slug` of the upstream's app (`po/`: Czech 3 of 4, German 1
/// of 4) and glossary (`terms/`: Czech 0 of 4), with `access`.
pub fn project(service: &Service, upstream: &Upstream, slug: &str, access: AccessControl) {
    named_project(service, upstream, (slug, slug, "app"), access);
}

/// A project as [`project`] makes it, with the names given to it and to
/// its component `app`: `(slug, project name, component name)`.
pub fn named_project(
    service: &Service,
    upstream: &Upstream,
    (slug, project_name, app_name): (&str, &str, &str),
    access: AccessControl,
) {
    let settings = ProjectSettings {
        name: project_name.into(),
        slug: slug.into(),
        web: "https://example.com/".into(),
        access_control: access.code(),
        ..Default::default()
    };
    service
        .projects()
        .create(&Subject::System, Ok(settings))
        .unwrap();
    for (component, name, mask, is_glossary) in [
        ("app", app_name, "po/*.po", false),
        ("terms", "terms", "terms/*.po", true),
    ] {
        let settings = ComponentSettings {
            name: name.into(),
            slug: component.into(),
            repo: upstream.url(),
            filemask: mask.into(),
            file_format: "po".into(),
            is_glossary,
            ..Default::default()
        };
        service
            .components()
            .create(&Subject::System, slug, Ok(settings), Default::default())
            .unwrap();
        service.tasks().run_due().unwrap();
    }
}

/// A service on `db` with two projects of one upstream (see [`project`]):
/// `demo`, public, and `secret`, private. The upstream lives as long as
/// what is returned.
pub fn demo_site(db: &TestDb) -> (Upstream, Service) {
    let upstream = Upstream::new(&[
        ("po/cs.po", catalogue("cs", 3)),
        ("po/de.po", catalogue("de", 1)),
        ("terms/cs.po", catalogue("cs", 0)),
    ]);
    let config = ServiceConfig {
        create_glossaries: false,
        ..ServiceConfig::local(upstream.root())
    };
    let service = Service::new(db.store.clone(), config).unwrap();
    project(&service, &upstream, "demo", AccessControl::Public);
    project(&service, &upstream, "secret", AccessControl::Private);
    (upstream, service)
}

/// The unit of `path` (project, component, language) whose source is
/// `source`, as the system sees it.
pub fn unit_of(
    service: &Service,
    path: (&str, &str, &str),
    source: &str,
) -> tolk_service::units::UnitView {
    let page = service
        .units()
        .list(
            &Subject::System,
            Some(path),
            None,
            tolk_service::PageRequest {
                number: Some(1),
                size: 100,
            },
        )
        .unwrap();
    page.items
        .into_iter()
        .find(|u| u.unit.source == source)
        .unwrap_or_else(|| panic!("{source} in {path:?}"))
}

/// One answer, read whole.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
    /// The body as sent (`body` is it as text).
    pub bytes: Vec<u8>,
}

impl Reply {
    /// The anti-forgery token of the page's forms.
    pub fn token(&self) -> String {
        let marker = "name=\"csrfmiddlewaretoken\" value=\"";
        let start = self.body.find(marker).expect("a form with a token") + marker.len();
        self.body[start..start + 64].to_owned()
    }

    pub fn location(&self) -> &str {
        self.headers.get("location").unwrap().to_str().unwrap()
    }

    /// The `Set-Cookie` lines, whole.
    pub fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all("set-cookie")
            .map(|v| v.to_str().unwrap().to_owned())
            .collect()
    }
}

/// A browser: its cookies, and requests that carry them.
#[derive(Clone, Default)]
pub struct Browser {
    pub cookies: BTreeMap<String, String>,
}

impl Browser {
    pub async fn send<S>(&mut self, app: &S, request: test::TestRequest) -> Reply
    where
        S: actix_web::dev::Service<
                actix_http::Request,
                Response = ServiceResponse,
                Error = actix_web::Error,
            >,
    {
        let mut request = request.peer_addr("192.0.2.7:4000".parse().unwrap());
        for (name, value) in &self.cookies {
            request = request.cookie(actix_web::cookie::Cookie::new(name.clone(), value.clone()));
        }
        let response = app.call(request.to_request()).await.unwrap();
        for cookie in response.response().cookies() {
            if cookie.value().is_empty() {
                self.cookies.remove(cookie.name());
            } else {
                self.cookies
                    .insert(cookie.name().to_owned(), cookie.value().to_owned());
            }
        }
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = test::read_body(response).await.to_vec();
        let body = String::from_utf8_lossy(&bytes).into_owned();
        Reply {
            status,
            headers,
            body,
            bytes,
        }
    }

    pub async fn get<S>(&mut self, app: &S, uri: &str) -> Reply
    where
        S: actix_web::dev::Service<
                actix_http::Request,
                Response = ServiceResponse,
                Error = actix_web::Error,
            >,
    {
        self.send(app, test::TestRequest::get().uri(uri)).await
    }

    pub async fn post<S>(&mut self, app: &S, uri: &str, form: &[(&str, &str)]) -> Reply
    where
        S: actix_web::dev::Service<
                actix_http::Request,
                Response = ServiceResponse,
                Error = actix_web::Error,
            >,
    {
        self.send(app, test::TestRequest::post().uri(uri).set_form(form))
            .await
    }
}

/// Adds the person `name` (full name with markup, to be shown escaped),
/// with `password` when given.
pub fn person(service: &Service, name: &str, password: Option<&str>) {
    add_person(service, name, password, false);
}

/// Adds the superuser `name`, as [`person`] adds a person.
pub fn admin(service: &Service, name: &str, password: Option<&str>) {
    add_person(service, name, password, true);
}

fn add_person(service: &Service, name: &str, password: Option<&str>, is_superuser: bool) {
    let fields = UserFields {
        username: name.into(),
        full_name: format!("{name} <b>bold</b>"),
        email: format!("{name}@example.com"),
        is_superuser,
        is_active: true,
        is_bot: false,
        date_expires: None,
    };
    service
        .users()
        .create(&Subject::System, Ok(fields))
        .unwrap();
    if let Some(password) = password {
        let id = service
            .users()
            .get(&Subject::System, name)
            .unwrap()
            .0
            .row
            .id;
        service.accounts().set_password(id, password).unwrap();
    }
}

/// Signs `browser` in as `name` with `password` through the sign-in
/// page's form; the reply to the form.
pub async fn sign_in_as<S>(
    app: &S,
    browser: &mut Browser,
    (name, password): (&str, &str),
    next: &str,
) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = ServiceResponse,
            Error = actix_web::Error,
        >,
{
    let page = browser
        .get(app, &format!("/accounts/login/?next={next}"))
        .await;
    let token = page.token();
    browser
        .post(
            app,
            "/accounts/login/",
            &[
                ("csrfmiddlewaretoken", &token),
                ("username", name),
                ("password", password),
                ("next", next),
            ],
        )
        .await
}
