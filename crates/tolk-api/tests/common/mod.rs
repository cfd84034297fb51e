//! Shared helpers of the API tests: a real app on a real database (every
//! configured backend), requests, and shape comparison with Weblate's
//! recorded responses.

#![allow(dead_code)]

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode, header::HeaderMap};
use actix_web::test;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tolk_api::AppState;
use tolk_service::testing::TestDb;

use tolk_service::vcs_testing::Upstream;
use tolk_service::{Service as Tolk, ServiceConfig};

/// Host the test requests claim to be sent to.
pub const HOST: &str = "tolk.test:8123";
/// Configured site URL for browser links.
pub const SITE: &str = "https://site.example";

/// A database, the service on it and two tokens.
pub struct Ctx {
    pub db: TestDb,
    pub service: Tolk,
    /// Token of the superuser `admin`.
    pub admin: String,
    /// Token of the ordinary user `jane`.
    pub jane: String,
}

impl Ctx {
    /// A context on `db` with the server's settings, but no glossary
    /// made with a project's first component (the tests that ask for one
    /// say so).
    pub fn new(db: TestDb) -> Ctx {
        let config = ServiceConfig {
            create_glossaries: false,
            ..ServiceConfig::default()
        };
        Ctx::with_config(db, config)
    }

    /// A context whose service runs with `config`.
    pub fn with_config(db: TestDb, config: ServiceConfig) -> Ctx {
        let service = Tolk::new(db.store.clone(), config).unwrap();
        let admin = service
            .auth()
            .create_admin("admin", "admin@example.com", false, None)
            .unwrap();
        let jane_id = service
            .users()
            .create(
                &tolk_domain::permission::Subject::System,
                Ok(tolk_domain::user::UserFields {
                    username: "jane".into(),
                    full_name: "Jane Doe".into(),
                    email: "jane@example.com".into(),
                    is_superuser: false,
                    is_active: true,
                    is_bot: false,
                    date_expires: None,
                }),
            )
            .unwrap()
            .row
            .id;
        let jane = service.auth().issue_user_token(jane_id).unwrap();
        Ctx {
            db,
            service,
            admin,
            jane,
        }
    }

    /// Contexts on every configured backend.
    pub fn all() -> Vec<Ctx> {
        TestDb::all().into_iter().map(Ctx::new).collect()
    }

    /// The app's state without rate limits, for tests that send many requests.
    pub fn unthrottled_state(&self) -> AppState {
        AppState {
            throttle: std::sync::Arc::new(tolk_api::Throttle::new(tolk_api::RateLimits {
                anon: None,
                user: None,
            })),
            ..self.state()
        }
    }

    pub fn state(&self) -> AppState {
        AppState {
            service: self.service.clone(),
            site_url: SITE.into(),
            throttle: Default::default(),
            trusted_proxies: Default::default(),
            enable_hooks: true,
            request_metrics: Default::default(),
            metrics_token: None,
            body_budget: Default::default(),
        }
    }
}

/// The app under test, as `actix_web::test::init_service` makes it.
pub trait TestApp<B>:
    Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>
{
}

impl<S, B> TestApp<B> for S where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>
{
}

/// A response as the tests look at it.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// What a request carries.
pub enum Body<'a> {
    None,
    Json(Value),
    Raw(&'a str, &'a str),
    /// A body without a `Content-Type` header.
    Untyped(&'a str),
    /// Bytes with their content type.
    Bytes(String, Vec<u8>),
}

/// Sends one request to the app.
pub async fn call<S: TestApp<B>, B: MessageBody>(
    app: &S,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Body<'_>,
) -> Reply {
    let mut req = test::TestRequest::default()
        .method(method)
        .uri(uri)
        .insert_header(("host", HOST));
    if let Some(token) = token {
        req = req.insert_header(("authorization", format!("Token {token}")));
    }
    req = match body {
        Body::None => req,
        Body::Json(value) => req.set_json(value),
        Body::Raw(content_type, text) => req
            .insert_header(("content-type", content_type))
            .set_payload(text.to_owned()),
        Body::Untyped(text) => req.set_payload(text.to_owned()),
        Body::Bytes(content_type, bytes) => req
            .insert_header(("content-type", content_type))
            .set_payload(bytes),
    };
    let response = test::call_service(app, req.to_request()).await;
    let status = response.status();
    let headers = response.headers().clone();
    let body = test::read_body(response).await.to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

/// The JSON body of a GET.
pub async fn get_json<S: TestApp<B>, B: MessageBody>(
    app: &S,
    uri: &str,
    token: Option<&str>,
) -> Value {
    call(app, Method::GET, uri, token, Body::None).await.json()
}

/// The first source text of each unit a unit list (`uri`) answers, sorted.
pub async fn sorted_sources<S: TestApp<B>, B: MessageBody>(
    app: &S,
    uri: &str,
    token: Option<&str>,
) -> Vec<String> {
    let page = get_json(app, uri, token).await;
    let mut sources: Vec<String> = page["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{uri}: {page}"))
        .iter()
        .map(|u| u["source"][0].as_str().unwrap().to_owned())
        .collect();
    sources.sort();
    sources
}

/// Runs the repository `operation` on the component `component`
/// (`project/slug`) and asserts that it succeeded.
pub async fn operate<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: Option<&str>,
    component: &str,
    operation: &str,
) {
    let uri = format!("/api/components/{component}/repository/");
    let body = Body::Json(serde_json::json!({"operation": operation}));
    let done = call(app, Method::POST, &uri, token, body).await;
    assert_eq!(
        done.json()["result"],
        Value::Bool(true),
        "{operation}: {}",
        done.text()
    );
}

/// The superuser (`admin`) puts `username` in the team `team`.
pub async fn join_team<S: TestApp<B>, B: MessageBody>(
    app: &S,
    admin: Option<&str>,
    username: &str,
    team: i64,
) {
    let uri = format!("/api/users/{username}/groups/");
    let body = Body::Json(serde_json::json!({"group_id": team}));
    let joined = call(app, Method::POST, &uri, admin, body).await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text());
}

/// A recorded Weblate response from `tests/samples/`.
pub fn sample(name: &str) -> Value {
    let path = format!("{}/tests/samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Asserts that `ours` has exactly the keys of `theirs` (in any order: JSON
/// objects have none) with the same JSON types (null matching anything),
/// recursing into objects.
/// Links of Weblate's objects to features Tolk has not built (reports,
/// machinery settings): absent from Tolk's answers
/// rather than leading to a 404.
pub const UNBUILT_LINKS: &[&str] = &["reports_url", "reports", "machinery_settings"];

pub fn assert_same_shape(ours: &Value, theirs: &Value, path: &str) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let mut ka: Vec<&String> = a.keys().collect();
            // Links to what Tolk does not have are left out, not dead.
            let mut kb: Vec<&String> = b
                .keys()
                .filter(|k| a.contains_key(*k) || !UNBUILT_LINKS.contains(&k.as_str()))
                .collect();
            ka.sort();
            kb.sort();
            assert_eq!(ka, kb, "keys differ at {path}");
            for (k, v) in a {
                assert_same_shape(v, &b[k], &format!("{path}.{k}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if let (Some(x), Some(y)) = (a.first(), b.first()) {
                assert_same_shape(x, y, &format!("{path}[0]"));
            }
        }
        (Value::Null, _) | (_, Value::Null) => {}
        (a, b) => assert_eq!(kind(a), kind(b), "types differ at {path}: {a} vs {b}"),
    }
}

/// The value at `field` (dotted for nested keys) of every item of a JSON
/// array, as a JSON array.
pub fn pluck(list: &Value, field: &str) -> Value {
    let items = list.as_array().cloned().unwrap_or_default();
    Value::Array(
        items
            .iter()
            .map(|item| field.split('.').fold(item, |v, key| &v[key]).clone())
            .collect(),
    )
}

/// Runs `act(i)` on `n` threads released at the same moment; returns the
/// results in order.
pub fn race<T: Send>(n: usize, act: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let barrier = std::sync::Barrier::new(n);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (barrier, act) = (&barrier, &act);
                scope.spawn(move || {
                    barrier.wait();
                    act(i)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The app served over real HTTP on a loopback port, for tests that send
/// requests from several threads at once. Stops when dropped.
pub struct Served {
    /// `host:port` to connect to.
    pub address: String,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    pub fn start(state: AppState, workers: usize) -> Served {
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = actix_web::HttpServer::new(move || tolk_api::app(state.clone()))
                    .workers(workers)
                    .bind("127.0.0.1:0")
                    .expect("bind a loopback port");
                let address = server.addrs()[0].to_string();
                let server = server.run();
                sender.send((address, server.handle())).unwrap();
                server.await.unwrap();
            });
        });
        let (address, handle) = receiver.recv().unwrap();
        Served {
            address,
            handle,
            thread: Some(thread),
        }
    }

    /// Sends one request on its own connection; returns the status and body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        json: Option<&Value>,
    ) -> (u16, String) {
        use std::io::{Read, Write};

        let mut stream = std::net::TcpStream::connect(&self.address).unwrap();
        let body = json.map(Value::to_string).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(token) = token {
            head.push_str(&format!("Authorization: Token {token}\r\n"));
        }
        if json.is_some() {
            head.push_str("Content-Type: application/json\r\n");
        }
        stream
            .write_all(format!("{head}\r\n{body}").as_bytes())
            .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        let status = reply
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_owned())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        actix_web::rt::System::new().block_on(self.handle.stop(false));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `(attr, code, detail)` of each error of an error response (`attr` empty
/// when null).
pub fn error_items(reply: &Value) -> Vec<(String, String, String)> {
    reply["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no errors in {reply}"))
        .iter()
        .map(|e| {
            (
                e["attr"].as_str().unwrap_or("").to_owned(),
                e["code"].as_str().unwrap().to_owned(),
                e["detail"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Asserts that `reply` is a 400 whose errors are exactly `expected`, as
/// `(attr, code, detail)`.
pub fn assert_refused(reply: &Reply, expected: &[(&str, &str, &str)]) {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, c, d)| ((*a).to_owned(), (*c).to_owned(), (*d).to_owned()))
        .collect();
    assert_eq!(error_items(&reply.json()), expected);
}

/// `(attr, code)` of each error of an error response.
pub fn error_codes(reply: &Value) -> Vec<(String, String)> {
    error_items(reply)
        .into_iter()
        .map(|(attr, code, _)| (attr, code))
        .collect()
}

const LANGUAGES: [&str; 4] = ["ar", "ja", "pt_BR", "ru"];

pub fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tolk-formats/tests/corpus")
        .join(name)
}

/// An upstream with gettext catalogues (`po/`) and nested JSON with an
/// English base file (`countries/`), all from the corpus.
pub fn upstream() -> Upstream {
    let mut files: Vec<(String, Vec<u8>)> = LANGUAGES
        .iter()
        .map(|code| {
            let bytes = std::fs::read(corpus(&format!("po/django-conf-{code}.po"))).unwrap();
            (format!("po/{code}.po"), bytes)
        })
        .collect();
    for code in ["en", "ar", "zh"] {
        let path = format!("json-nested/i18n-iso-countries-{code}.json");
        files.push((
            format!("countries/{code}.json"),
            std::fs::read(corpus(&path)).unwrap(),
        ));
    }
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
    Upstream::new(&files)
}

/// A context whose service may clone the local upstream, with the project `demo`.
pub fn context(db: TestDb, upstream: &Upstream) -> Ctx {
    context_with(db, ServiceConfig::local(upstream.root()))
}

/// [`context`] with the service's settings given (for the local upstream).
pub fn context_with(db: TestDb, config: ServiceConfig) -> Ctx {
    let ctx = Ctx::with_config(db, config);
    ctx.service
        .projects()
        .create(
            &tolk_domain::permission::Subject::System,
            Ok(tolk_domain::project::ProjectSettings {
                name: "Demo".into(),
                slug: "demo".into(),
                web: "https://demo.example.com/".into(),
                ..Default::default()
            }),
        )
        .unwrap();
    ctx
}

/// The gettext component `demo/app` of the upstream's `po/*.po`, cloned and read.
pub fn gettext_component(ctx: &Ctx, upstream: &Upstream) {
    let settings = tolk_domain::component::ComponentSettings {
        name: "App".into(),
        slug: "app".into(),
        repo: upstream.url(),
        filemask: "po/*.po".into(),
        file_format: "po".into(),
        ..Default::default()
    };
    add_component(ctx, settings);
}

/// A context with the gettext component `demo/app` (keep the upstream
/// while the context is used).
pub fn with_gettext(db: TestDb) -> (Upstream, Ctx) {
    let upstream = upstream();
    let ctx = context(db, &upstream);
    gettext_component(&ctx, &upstream);
    (upstream, ctx)
}

/// The monolingual component `demo/countries`: nested JSON of the
/// upstream's `countries/`, keyed by the English base file.
pub fn countries_component(ctx: &Ctx, upstream: &Upstream) {
    let settings = tolk_domain::component::ComponentSettings {
        name: "Countries".into(),
        slug: "countries".into(),
        repo: upstream.url(),
        filemask: "countries/*.json".into(),
        file_format: "json-nested".into(),
        template: "countries/en.json".into(),
        ..Default::default()
    };
    add_component(ctx, settings);
}

/// The settings of a gettext component `slug` (also its name) reading
/// the upstream's files of `mask`.
pub fn po_settings(
    upstream: &Upstream,
    slug: &str,
    mask: &str,
) -> tolk_domain::component::ComponentSettings {
    tolk_domain::component::ComponentSettings {
        name: slug.into(),
        slug: slug.into(),
        repo: upstream.url(),
        filemask: mask.into(),
        file_format: "po".into(),
        ..Default::default()
    }
}

/// Creates a component of `demo` and runs its setup.
pub fn add_component(ctx: &Ctx, settings: tolk_domain::component::ComponentSettings) {
    ctx.service
        .components()
        .create(
            &tolk_domain::permission::Subject::System,
            "demo",
            Ok(settings),
            Default::default(),
        )
        .unwrap();
    ctx.service.tasks().run_due().unwrap();
}

/// Creates a component of `demo` through the API with `body` as `token`,
/// asserts 201 and runs its setup; the component as answered.
pub async fn post_component<S: TestApp<B>, B: MessageBody>(
    app: &S,
    ctx: &Ctx,
    token: Option<&str>,
    body: Value,
) -> Value {
    let made = call(
        app,
        Method::POST,
        "/api/projects/demo/components/",
        token,
        Body::Json(body),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    ctx.service.tasks().run_due().unwrap();
    made.json()
}

/// Makes the project `slug` private.
pub fn make_private(ctx: &Ctx, slug: &str) {
    ctx.service
        .projects()
        .update(&tolk_domain::permission::Subject::System, slug, |s| {
            Ok(tolk_domain::project::ProjectSettings {
                access_control: tolk_domain::permission::AccessControl::Private.code(),
                ..s.clone()
            })
        })
        .unwrap();
}

/// A multipart body of text fields and files (field, file name, bytes).
pub fn multipart(fields: &[(&str, &str)], files: &[(&str, &str, &[u8])]) -> Body<'static> {
    let boundary = "tolk-test-boundary";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    for (name, filename, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Body::Bytes(format!("multipart/form-data; boundary={boundary}"), body)
}

/// A recorded sample with its URLs on the test host.
pub fn sample_on_test_host(name: &str) -> Value {
    serde_json::from_str(
        &sample(name)
            .to_string()
            .replace("http://127.0.0.1:8080", &format!("http://{HOST}")),
    )
    .unwrap()
}

/// CRC-32 as PNG chunks carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A real PNG image of `width` × 1 grey pixels: signature, header, one
/// stored zlib block of pixel data and the end chunk, every CRC right.
pub fn png(width: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut typed = kind.to_vec();
        typed.extend_from_slice(data);
        out.extend_from_slice(&typed);
        out.extend_from_slice(&crc32(&typed).to_be_bytes());
    };
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&1u32.to_be_bytes());
    header.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(b"IHDR", &header);
    let mut row = vec![0u8]; // no filter
    row.extend(std::iter::repeat_n(0x80u8, width as usize));
    let (mut a, mut b) = (1u32, 0u32);
    for byte in &row {
        a = (a + u32::from(*byte)) % 65521;
        b = (b + a) % 65521;
    }
    let length = row.len() as u16;
    let mut zlib = vec![0x78, 0x01, 0x01];
    zlib.extend_from_slice(&length.to_le_bytes());
    zlib.extend_from_slice(&(!length).to_le_bytes());
    zlib.extend_from_slice(&row);
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes());
    chunk(b"IDAT", &zlib);
    chunk(b"IEND", &[]);
    out
}

/// A team `name` giving `permission` on the project `slug` to `username`,
/// written as the team endpoints will write it.
pub fn team(ctx: &Ctx, name: &str, permission: &str, slug: &str, username: &str) {
    ctx.db.execute(&format!(
        "INSERT INTO roles (name) VALUES ('{name} role');
         INSERT INTO role_permissions (role_id, codename)
           SELECT id, '{permission}' FROM roles WHERE name = '{name} role';
         INSERT INTO teams (name, project_selection, language_selection) VALUES ('{name}', 0, 1);
         INSERT INTO team_roles (team_id, role_id)
           SELECT t.id, r.id FROM teams t, roles r WHERE t.name = '{name}' AND r.name = '{name} role';
         INSERT INTO team_members (team_id, user_id)
           SELECT t.id, u.id FROM teams t, users u WHERE t.name = '{name}' AND u.username = '{username}';
         INSERT INTO team_projects (team_id, project_id)
           SELECT t.id, p.id FROM teams t, projects p WHERE t.name = '{name}' AND p.slug = '{slug}';"
    ));
}
