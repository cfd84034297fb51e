//! The editor and the pages that lead to it, against a real service on
//! every configured database, driven over HTTP as a browser would
//! without script: a person signs in, opens strings by their checksum or
//! through a count, saves, suggests, accepts and comments with the forms
//! alone; what they may not do is refused with what they typed kept.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::{Browser, Reply};
use tolk_domain::permission::Subject;
use tolk_domain::unit::{checksum, id_hash};
use tolk_service::Service;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

const PASSWORD: &str = "marta's passphrase";

/// The checksum of the string `source` in a gettext file.
fn of(source: &str) -> &'static str {
    checksum(id_hash(source, "", false)).leak()
}

/// The target and state of the string `source` of `demo/app/{language}`.
fn stored(service: &Service, language: &str, source: &str) -> (String, i32) {
    let unit = common::unit_of(service, ("demo", "app", language), source).unit;
    (unit.target, unit.state)
}

/// The value of a page's `attribute="…"` after `marker`.
fn after<'a>(reply: &'a Reply, marker: &str) -> &'a str {
    let start = reply
        .body
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} in {}", reply.body));
    let rest = &reply.body[start + marker.len()..];
    &rest[..rest.find('"').unwrap()]
}

/// The posted fields of an editor action on `source`.
fn action<'a>(
    token: &'a str,
    checksum: &'a str,
    q: &'a str,
    act: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("csrfmiddlewaretoken", token),
        ("checksum", checksum),
        ("q", q),
        ("action", act),
    ]
}

/// The demo site (see [`common::demo_site`]) with the person `marta`
/// (password [`PASSWORD`]), and its pages.
fn site(db: &TestDb) -> (Upstream, Service, tolk_web::Pages) {
    let (upstream, service) = common::demo_site(db);
    common::person(&service, "marta", Some(PASSWORD));
    let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
    (upstream, service, pages)
}

#[actix_web::test]
async fn a_person_translates_through_the_pages_without_script() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;

        // The component's page: its languages, each leading to its page.
        let mut anonymous = Browser::default();
        let component = anonymous.get(&app, "/projects/demo/app/").await;
        assert_eq!(component.status, StatusCode::OK, "{}", component.body);
        for line in [
            "<a class=\"name\" href=\"/projects/demo/app/cs/\">Czech</a>",
            "<a class=\"name\" href=\"/projects/demo/app/de/\">German</a>",
        ] {
            assert!(
                component.body.contains(line),
                "{line} in {}",
                component.body
            );
        }
        // The translation's page: counts that open the editor on them.
        let german = anonymous.get(&app, "/projects/demo/app/de/").await;
        assert_eq!(german.status, StatusCode::OK);
        for row in [
            "<a href=\"/translate/demo/app/de/\">All strings</a></th><td class=\"number\">4</td>",
            "<a href=\"/translate/demo/app/de/?q=state%3A%3Ctranslated\">Not translated</a></th><td class=\"number\">3</td>",
            "<a href=\"/translate/demo/app/de/?q=state%3Aneeds%2Dediting\">Needs editing</a></th><td class=\"number\">0</td>",
        ] {
            assert!(german.body.contains(row), "{row} in {}", german.body);
        }
        // Hidden and unknown things are not found, on every page.
        for hidden in [
            "/projects/secret/app/",
            "/projects/secret/app/cs/",
            "/translate/secret/app/cs/",
            "/projects/demo/nothing/",
            "/projects/demo/app/xx/",
            "/translate/demo/app/xx/",
            "/translate/demo/app/cs/?checksum=nothex",
            "/translate/demo/app/cs/?checksum=0123",
        ] {
            let reply = anonymous.get(&app, hidden).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{hidden}");
        }
        // A search that does not parse says why.
        let bad = anonymous
            .get(&app, "/translate/demo/app/de/?q=state%3A%3C%3C")
            .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert!(
            bad.body.contains("Could not parse query string"),
            "{}",
            bad.body
        );

        // Anonymous visitors read the public project: the same page, no field.
        let read = anonymous
            .get(
                &app,
                &format!("/translate/demo/app/cs/?checksum={}", of("Close")),
            )
            .await;
        assert_eq!(read.status, StatusCode::OK);
        assert!(
            read.body
                .contains("<span id=\"position\">String 2 of 4</span>"),
            "{}",
            read.body
        );
        assert!(read.body.contains(">Close</p>"), "{}", read.body);
        assert!(
            read.body.contains(">Close (cs)</textarea>"),
            "{}",
            read.body
        );
        // They may suggest (the guests' grant on public projects), not save.
        assert!(!read.body.contains("id=\"save\""), "{}", read.body);
        assert!(read.body.contains("id=\"suggest\""), "{}", read.body);
        assert!(
            read.body
                .contains("<p class=\"muted\" id=\"refusal\">Sign in to translate.</p>"),
            "{}",
            read.body
        );
        // A post of theirs is refused, nothing changes.
        let token = read.token();
        let mut fields = action(&token, of("Close"), "", "save");
        fields.push(("target_0", "Zavřít"));
        let refused = anonymous
            .post(&app, "/translate/demo/app/cs/", &fields)
            .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
        assert_eq!(stored(&service, "cs", "Close").0, "Close (cs)");

        // Signed in, marta works through German's untranslated strings.
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        // Every page of the private project is not found for a person
        // outside it, as for a visitor.
        for hidden in [
            "/projects/secret/",
            "/projects/secret/-/cs/",
            "/projects/secret/app/",
            "/projects/secret/app/cs/",
            "/translate/secret/app/cs/",
            "/download/secret/app/cs/",
            "/engage/secret/",
            "/engage/secret/-/cs/",
        ] {
            for (who, browser) in [("marta", &mut marta), ("a visitor", &mut anonymous)] {
                let reply = browser.get(&app, hidden).await;
                assert_eq!(reply.status, StatusCode::NOT_FOUND, "{hidden} for {who}");
                assert!(reply.body.contains("<h1>Not found</h1>"), "{}", reply.body);
                assert!(!reply.body.contains("secret"), "{}", reply.body);
            }
        }
        let q = "state:<translated";
        let first = marta
            .get(&app, "/translate/demo/app/de/?q=state%3A%3Ctranslated")
            .await;
        assert_eq!(first.status, StatusCode::OK);
        assert!(first.body.contains("String 1 of 3"), "{}", first.body);
        assert_eq!(after(&first, "name=\"checksum\" value=\""), of("Close"));
        assert!(
            first
                .body
                .contains("<label for=\"id_target_0\">Singular</label>"),
            "{}",
            first.body
        );
        let token = first.token();
        // A save without the page's token changes nothing.
        let mut forged = action("0".repeat(64).leak(), of("Close"), q, "save");
        forged.push(("target_0", "Schließen"));
        let reply = marta.post(&app, "/translate/demo/app/de/", &forged).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN);
        assert_eq!(stored(&service, "de", "Close"), (String::new(), 0));
        // Saved: stored as translated, and on to the next untranslated string.
        let mut fields = action(&token, of("Close"), q, "save");
        fields.push(("target_0", "Schließen\r\nsofort"));
        let saved = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        assert_eq!(
            saved.location(),
            format!(
                "/translate/demo/app/de/?checksum={}&q=state%3A%3Ctranslated",
                of("Save")
            )
        );
        assert_eq!(
            stored(&service, "de", "Close"),
            ("Schließen\nsofort".into(), 20)
        );
        let next = marta.get(&app, saved.location()).await;
        assert!(next.body.contains("String 1 of 2"), "{}", next.body);
        // A long translation (past actix-web's default limit of forms
        // once percent-encoded) is read and saved whole.
        let long = "ř".repeat(6_000);
        let mut fields = action(&token, of("Open"), "", "save");
        fields.push(("target_0", &long));
        let saved_long = marta.post(&app, "/translate/demo/app/cs/", &fields).await;
        assert_eq!(
            saved_long.status,
            StatusCode::SEE_OTHER,
            "{}",
            saved_long.body
        );
        assert_eq!(stored(&service, "cs", "Open"), (long.clone(), 20));
        // Saved as needing editing.
        let mut fields = action(&token, of("Save"), q, "save");
        fields.extend([("target_0", "Speichern"), ("fuzzy", "on")]);
        let saved = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(
            saved.location(),
            format!(
                "/translate/demo/app/de/?checksum={}&q=state%3A%3Ctranslated",
                of("Quit")
            )
        );
        assert_eq!(stored(&service, "de", "Save"), ("Speichern".into(), 10));
        // Suggested, then accepted from its own form.
        let mut fields = action(&token, of("Quit"), q, "suggest");
        fields.push(("target_0", "Beenden"));
        let suggested = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(
            suggested.status,
            StatusCode::SEE_OTHER,
            "{}",
            suggested.body
        );
        assert_eq!(
            suggested.location(),
            "/projects/demo/app/de/",
            "the last string leads to the translation"
        );
        assert_eq!(stored(&service, "de", "Quit"), (String::new(), 0));
        let page = marta
            .get(
                &app,
                &format!("/translate/demo/app/de/?checksum={}", of("Quit")),
            )
            .await;
        assert!(
            page.body.contains("data-form=\"0\">Beenden</p>"),
            "{}",
            page.body
        );
        let suggestion = after(&page, "name=\"suggestion\" value=\"").to_owned();
        let mut fields = action(&token, of("Quit"), "", "accept");
        fields.push(("suggestion", &suggestion));
        let accepted = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(accepted.status, StatusCode::SEE_OTHER, "{}", accepted.body);
        assert_eq!(
            accepted.location(),
            format!("/translate/demo/app/de/?checksum={}", of("Quit"))
        );
        assert_eq!(stored(&service, "de", "Quit"), ("Beenden".into(), 20));

        // What helps: the memory offers what was saved (here, Close in
        // German: its own translation, 100% alike), the glossary its terms
        // (Quit is a term of demo's glossary, untranslated in Czech), the
        // history who changed the string.
        let close = marta
            .get(
                &app,
                &format!("/translate/demo/app/de/?checksum={}", of("Close")),
            )
            .await;
        assert!(
            close.body.contains("<li data-copy=\"1\">\n<p class=\"text\" lang=\"de\" dir=\"ltr\" data-form=\"0\">Schließen\nsofort</p>"),
            "{}",
            close.body
        );
        assert!(
            close
                .body
                .contains("100% alike: <span lang=\"en\" dir=\"ltr\">Close</span> (demo/app)"),
            "{}",
            close.body
        );
        assert!(close.body.contains(" by marta, "), "{}", close.body);
        let quit = marta
            .get(
                &app,
                &format!("/translate/demo/app/cs/?checksum={}", of("Quit")),
            )
            .await;
        assert!(quit.body.contains("<dt lang=\"en\" dir=\"ltr\">Quit</dt><dd lang=\"cs\" dir=\"ltr\"><span class=\"muted\">not translated</span></dd>"), "{}", quit.body);

        // Downloads: the file as stored, its pending edits written, and
        // converted; hidden ones not found, unknown formats refused.
        let german = marta.get(&app, "/projects/demo/app/de/").await;
        for link in [
            "<a href=\"/download/demo/app/de/\" download>As stored</a>",
            "<a href=\"/download/demo/app/de/?format=csv\" download>CSV</a>",
        ] {
            assert!(german.body.contains(link), "{link} in {}", german.body);
        }
        let file = marta.get(&app, "/download/demo/app/de/").await;
        assert_eq!(file.status, StatusCode::OK);
        assert_eq!(
            file.headers.get("content-disposition").unwrap(),
            "attachment; filename=\"demo-app-de.po\""
        );
        assert!(
            file.body
                .contains("msgid \"Close\"\nmsgstr \"\"\n\"Schließen\\n\"\n\"sofort\"\n"),
            "{}",
            file.body
        );
        let csv = marta.get(&app, "/download/demo/app/de/?format=csv").await;
        assert_eq!(
            csv.headers.get("content-type").unwrap(),
            "text/csv; charset=utf-8"
        );
        assert!(csv.body.contains("Beenden"), "{}", csv.body);
        let unknown = marta.get(&app, "/download/demo/app/de/?format=nope").await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
        assert!(
            unknown.body.contains("Conversion to nope is not supported"),
            "{}",
            unknown.body
        );
        let hidden = anonymous.get(&app, "/download/secret/app/cs/").await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);

        // A comment with markup is shown as text.
        let mut fields = action(&token, of("Quit"), "", "comment");
        fields.push(("comment", "<script>alert(1)</script> & <b>co</b>"));
        let commented = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(
            commented.status,
            StatusCode::SEE_OTHER,
            "{}",
            commented.body
        );
        let page = marta.get(&app, commented.location()).await;
        assert!(!page.body.contains("<script>alert"), "{}", page.body);
        assert!(
            page.body.contains(
                "&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#60;b&#62;co&#60;/b&#62;"
            ),
            "{}",
            page.body
        );
        // The other languages of the string, each leading to its editor.
        assert!(
            page.body.contains(&format!(
                "<a href=\"/translate/demo/app/cs/?checksum={}\">Czech</a>",
                of("Quit")
            )),
            "{}",
            page.body
        );

        // A locked component: the same page without a field; a save sent
        // anyway is refused with the text kept and the reason.
        service
            .components()
            .lock(&Subject::System, "demo", "app", Some(true))
            .unwrap();
        let locked = marta
            .get(
                &app,
                &format!("/translate/demo/app/cs/?checksum={}", of("Quit")),
            )
            .await;
        assert!(
            !locked.body.contains("<textarea id=\"id_target_0\""),
            "{}",
            locked.body
        );
        assert!(
            locked
                .body
                .contains("This translation is currently locked."),
            "{}",
            locked.body
        );
        let mut fields = action(&token, of("Quit"), "", "save");
        fields.push(("target_0", "Ukončit <i>hned</i>"));
        let refused = marta.post(&app, "/translate/demo/app/cs/", &fields).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(
            refused.body.contains(
                "role=\"alert\" id=\"action-error\">This translation is currently locked.</p>"
            ),
            "{}",
            refused.body
        );
        assert!(
            refused.body.contains("Ukončit &#60;i&#62;hned&#60;/i&#62;"),
            "{}",
            refused.body
        );
        assert_eq!(stored(&service, "cs", "Quit"), (String::new(), 0));
    }
}

#[actix_web::test]
async fn each_page_and_save_costs_a_fixed_number_of_statements() {
    for db in TestDb::all() {
        let (_upstream, _service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let editor = format!("/translate/demo/app/de/?checksum={}", of("Close"));
        // Signed in is 7 statements (the session, the person's teams and
        // grants); the rest is the page's, whatever the number of
        // languages, strings, suggestions or comments.
        for (uri, budget) in [
            ("/projects/demo/app/", 23),
            ("/projects/demo/app/de/", 10),
            ("/projects/demo/-/de/", 23),
            ("/engage/demo/", 23),
            (editor.as_str(), 20),
            ("/translate/demo/app/de/?q=state%3A%3Ctranslated", 21),
            ("/zen/demo/app/de/", 9),
        ] {
            // Once to fill the cache of components and languages.
            marta.get(&app, uri).await;
            let before = db.store.statements_run();
            let reply = marta.get(&app, uri).await;
            assert_eq!(reply.status, StatusCode::OK, "{uri}");
            let cost = db.store.statements_run() - before;
            assert!(cost <= budget, "{uri}: {cost} statements, over {budget}");
        }
        // Saving and going on: the editor's place of the string, then the
        // edit's transaction (one of them the difference it makes to the
        // statistics kept above the translation).
        let token = marta.get(&app, &editor).await.token();
        let mut fields = action(&token, of("Close"), "", "save");
        fields.push(("target_0", "Schließen"));
        let before = db.store.statements_run();
        let saved = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER);
        let cost = db.store.statements_run() - before;
        assert!(cost <= 26, "a save: {cost} statements");
    }
}

/// A multipart body of `fields` and one file `file` (name, bytes), with
/// its content type.
fn multipart(fields: &[(&str, &str)], file: (&str, &[u8])) -> (String, Vec<u8>) {
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
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n",
            file.0
        )
        .as_bytes(),
    );
    body.extend_from_slice(file.1);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[actix_web::test]
async fn a_file_uploaded_from_the_translation_page_is_taken_or_refused_with_the_reason() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let page = marta.get(&app, "/projects/demo/app/cs/").await;
        assert!(
            page.body.contains("<form method=\"post\" action=\"/upload/demo/app/cs/\" enctype=\"multipart/form-data\""),
            "{}",
            page.body
        );
        let token = page.token();
        let file = common::catalogue("cs", 4);
        let post = |fields: Vec<(&str, String)>, file: &[u8]| {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let (kind, body) = multipart(&fields, ("cs.po", file));
            test::TestRequest::post()
                .uri("/upload/demo/app/cs/")
                .insert_header(("content-type", kind))
                .set_payload(body)
        };

        // Without the page's token: refused, nothing taken.
        let forged = marta
            .send(&app, post(vec![("method", "translate".into())], &file))
            .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN);
        assert_eq!(stored(&service, "cs", "Quit"), (String::new(), 0));
        // A method one may not use: the page again, with the reason.
        let fields = vec![
            ("csrfmiddlewaretoken", token.clone()),
            ("method", "approve".into()),
        ];
        let refused = marta.send(&app, post(fields, &file)).await;
        assert!(
            refused.status == StatusCode::FORBIDDEN || refused.status == StatusCode::BAD_REQUEST,
            "{}",
            refused.body
        );
        assert!(
            refused.body.contains("id=\"upload-error\""),
            "{}",
            refused.body
        );
        assert_eq!(stored(&service, "cs", "Quit"), (String::new(), 0));
        // Taken: the untranslated string, and the page says what was done.
        let fields = vec![
            ("csrfmiddlewaretoken", token.clone()),
            ("method", "translate".into()),
            ("conflicts", String::new()),
            ("fuzzy", String::new()),
        ];
        let taken = marta.send(&app, post(fields, &file)).await;
        assert_eq!(taken.status, StatusCode::SEE_OTHER, "{}", taken.body);
        assert_eq!(
            taken.location(),
            "/projects/demo/app/cs/?accepted=1&skipped=3&not_found=0"
        );
        assert_eq!(stored(&service, "cs", "Quit"), ("Quit (cs)".into(), 20));
        let page = marta.get(&app, taken.location()).await;
        assert!(
            page.body.contains("The file was uploaded: 1 strings taken, 3 left as they were, 0 not in this translation."),
            "{}",
            page.body
        );
    }
}

#[actix_web::test]
async fn the_list_view_saves_each_string_and_comes_back_to_it() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        // A visitor reads the list: every string, no field.
        let mut anonymous = Browser::default();
        let list = anonymous.get(&app, "/zen/demo/app/de/").await;
        assert_eq!(list.status, StatusCode::OK, "{}", list.body);
        assert!(
            list.body.contains("<p class=\"muted\">4 strings"),
            "{}",
            list.body
        );
        assert!(!list.body.contains("class=\"zen-form\""), "{}", list.body);
        assert_eq!(
            anonymous.get(&app, "/zen/secret/app/de/").await.status,
            StatusCode::NOT_FOUND
        );
        // Marta: a field per string, the search kept.
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let list = marta
            .get(&app, "/zen/demo/app/de/?q=state%3A%3Ctranslated")
            .await;
        assert!(
            list.body.contains("<p class=\"muted\">3 strings"),
            "{}",
            list.body
        );
        assert_eq!(
            list.body.matches("class=\"zen-form\"").count(),
            3,
            "{}",
            list.body
        );
        let field = format!("<textarea id=\"t{}_0\" name=\"target_0\"", of("Save"));
        assert!(list.body.contains(&field), "{}", list.body);
        // A save comes back to the string in the list.
        let token = list.token();
        let mut fields = action(&token, of("Save"), "state:<translated", "save");
        fields.extend([("target_0", "Speichern"), ("zen", "1")]);
        let saved = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        assert_eq!(
            saved.location(),
            format!(
                "/zen/demo/app/de/?q=state%3A%3Ctranslated&page=1#c{}",
                of("Save")
            )
        );
        assert_eq!(stored(&service, "de", "Save"), ("Speichern".into(), 20));
    }
}

/// The editor's position line for `q` in German, as marta sees it.
async fn found<S>(app: &S, marta: &mut Browser, q: &str) -> String
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
        >,
{
    let uri = format!("/translate/demo/app/de/?q={}", url_escape(q));
    let page = marta.get(app, &uri).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    if page.body.contains("<p id=\"empty\">") {
        return "none".to_owned();
    }
    let line = after(&page, "<span id=\"position\">");
    line[..line.find('<').unwrap()].to_owned()
}

/// `text` escaped for a query string.
fn url_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Marta saves `text` as German's translation of "Close".
async fn save_close<S>(app: &S, marta: &mut Browser, text: &str)
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
        >,
{
    let close = of("Close");
    let page = marta
        .get(app, &format!("/translate/demo/app/de/?checksum={close}"))
        .await;
    let token = page.token();
    let mut fields = action(&token, close, "", "save");
    fields.push(("target_0", text));
    let saved = marta.post(app, "/translate/demo/app/de/", &fields).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
}

#[actix_web::test]
async fn a_failing_check_is_dismissed_restored_and_checked_as_typed() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let close = of("Close");
        let editor = format!("/translate/demo/app/de/?checksum={close}");
        save_close(&app, &mut marta, "Schließen.").await;
        assert_eq!(found(&app, &mut marta, "has:check").await, "String 1 of 1");
        let page = marta.get(&app, &editor).await;
        assert!(
            page.body.contains("<li><code>end_stop</code>"),
            "{}",
            page.body
        );
        assert!(page.body.contains("data-dismiss=\"1\""), "{}", page.body);
        let token = page.token();

        // As typed: the rules of a save, answered without saving.
        let mut typed = action(&token, close, "", "checks");
        typed.push(("target_0", "Schließen  ."));
        let checks = marta.post(&app, "/translate/demo/app/de/", &typed).await;
        assert_eq!(checks.status, StatusCode::OK, "{}", checks.body);
        assert_eq!(checks.body, r#"{"failing":["double_space","end_stop"]}"#);
        assert_eq!(stored(&service, "de", "Close").0, "Schließen.");

        // A visitor may not dismiss; nothing changes.
        let mut anonymous = Browser::default();
        let read = anonymous.get(&app, &editor).await;
        assert!(!read.body.contains("data-dismiss"), "{}", read.body);
        let visitor_token = read.token();
        let mut dismiss = action(&visitor_token, close, "", "dismiss");
        dismiss.push(("check", "end_stop"));
        let refused = anonymous
            .post(&app, "/translate/demo/app/de/", &dismiss)
            .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
        assert_eq!(found(&app, &mut marta, "has:check").await, "String 1 of 1");

        // Marta dismisses it: the string leaves the failing ones.
        let mut dismiss = action(&token, close, "", "dismiss");
        dismiss.push(("check", "end_stop"));
        let done = marta.post(&app, "/translate/demo/app/de/", &dismiss).await;
        assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
        assert_eq!(done.location(), editor);
        // A check it does not fail cannot be dismissed.
        let mut other = action(&token, close, "", "dismiss");
        other.push(("check", "double_space"));
        let missing = marta.post(&app, "/translate/demo/app/de/", &other).await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.body);
        assert_eq!(found(&app, &mut marta, "has:check").await, "none");
        assert_eq!(found(&app, &mut marta, "check:end_stop").await, "none");
        for q in ["has:dismissed-check", "dismissed_check:end_stop"] {
            assert_eq!(found(&app, &mut marta, q).await, "String 1 of 1", "{q}");
        }
        let counts = marta.get(&app, "/projects/demo/app/de/").await;
        let row = "<a href=\"/translate/demo/app/de/?q=has%3Acheck\">Failing checks</a></th><td class=\"number\">0</td>";
        assert!(counts.body.contains(row), "{}", counts.body);
        let page = marta.get(&app, &editor).await;
        assert!(
            page.body
                .contains("<ul class=\"checks\" id=\"dismissed\">\n<li><code>end_stop</code>"),
            "{}",
            page.body
        );
        // Typed text is checked without the dismissed check.
        typed[0].1 = &token;
        let checks = marta.post(&app, "/translate/demo/app/de/", &typed).await;
        assert_eq!(checks.body, r#"{"failing":["double_space"]}"#);

        // It stays dismissed while the check fails, and is forgotten once
        // the string passes it.
        save_close(&app, &mut marta, "Schließe.").await;
        assert_eq!(
            found(&app, &mut marta, "has:dismissed-check").await,
            "String 1 of 1"
        );
        assert_eq!(found(&app, &mut marta, "has:check").await, "none");
        save_close(&app, &mut marta, "Schließen").await;
        assert_eq!(found(&app, &mut marta, "has:dismissed-check").await, "none");
        save_close(&app, &mut marta, "Schließen.").await;
        assert_eq!(found(&app, &mut marta, "has:check").await, "String 1 of 1");

        // Dismissed again, then restored: it fails again.
        let page = marta.get(&app, &editor).await;
        let token = page.token();
        let mut dismiss = action(&token, close, "", "dismiss");
        dismiss.push(("check", "end_stop"));
        marta.post(&app, "/translate/demo/app/de/", &dismiss).await;
        let mut restore = action(&token, close, "", "restore");
        restore.push(("check", "end_stop"));
        let back = marta.post(&app, "/translate/demo/app/de/", &restore).await;
        assert_eq!(back.status, StatusCode::SEE_OTHER, "{}", back.body);
        assert_eq!(
            found(&app, &mut marta, "check:end_stop").await,
            "String 1 of 1"
        );
        assert_eq!(found(&app, &mut marta, "has:dismissed-check").await, "none");
        let counts = marta.get(&app, "/projects/demo/app/de/").await;
        assert!(
            counts.body.contains(&row.replace(">0<", ">1<")),
            "{}",
            counts.body
        );
    }
}

/// A PNG image of one pixel.
fn pixel() -> Vec<u8> {
    let hex = "89504e470d0a1a0a0000000d4948445200000001000000010806000000\
               1f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082";
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[actix_web::test]
async fn a_strings_screenshots_show_in_its_editor_to_those_who_see_it() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let mut shots = Vec::new();
        for project in ["demo", "secret"] {
            let image = tolk_service::screenshots::NewImage {
                name: Some("<b>Dialog</b>".into()),
                project_slug: Some(project.into()),
                component_slug: Some("app".into()),
                language_code: Some("en".into()),
                repository_filename: None,
                image: Some(("dialog.png".into(), pixel())),
            };
            let shot = service
                .screenshots()
                .create(&Subject::System, image)
                .unwrap();
            let source = common::unit_of(&service, (project, "app", "en"), "Close");
            let id = shot.screenshot.id;
            service
                .screenshots()
                .add_unit(&Subject::System, id, Some(source.unit.id))
                .unwrap();
            shots.push(id);
        }
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut visitor = Browser::default();
        let page = visitor
            .get(
                &app,
                &format!("/translate/demo/app/cs/?checksum={}", of("Close")),
            )
            .await;
        let figure = format!(
            "<figure class=\"screenshot\"><a href=\"/screenshots/{0}/image/\"><img src=\"/screenshots/{0}/image/\" alt=\"Screenshot: &#60;b&#62;Dialog&#60;/b&#62;\" loading=\"lazy\"></a>",
            shots[0]
        );
        assert!(page.body.contains(&figure), "{}", page.body);
        // Another string has none.
        let other = visitor
            .get(
                &app,
                &format!("/translate/demo/app/cs/?checksum={}", of("Open")),
            )
            .await;
        assert!(
            !other.body.contains("class=\"screenshot\""),
            "{}",
            other.body
        );
        let image = visitor
            .get(&app, &format!("/screenshots/{}/image/", shots[0]))
            .await;
        assert_eq!(image.status, StatusCode::OK);
        assert_eq!(image.headers.get("content-type").unwrap(), "image/png");
        assert_eq!(image.bytes, pixel());
        // The private project's: not found for a visitor or an outsider.
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        for browser in [&mut visitor, &mut marta] {
            for address in [
                format!("/screenshots/{}/image/", shots[1]),
                "/screenshots/999999/image/".to_owned(),
            ] {
                let reply = browser.get(&app, &address).await;
                assert_eq!(reply.status, StatusCode::NOT_FOUND, "{address}");
            }
        }
    }
}

#[actix_web::test]
async fn a_save_from_a_page_showing_older_content_is_refused_and_keeps_the_text() {
    for db in TestDb::all() {
        let (_upstream, service, pages) = site(&db);
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let close = of("Close");
        let page = marta
            .get(&app, &format!("/translate/demo/app/de/?checksum={close}"))
            .await;
        let token = page.token();
        let shown = after(&page, "name=\"shown\" value=\"").to_owned();
        // Meanwhile, somebody else saves the string.
        let id = common::unit_of(&service, ("demo", "app", "de"), "Close")
            .unit
            .id;
        let theirs = tolk_service::units::UnitEdit {
            target: Some(vec!["Schließen (API)".into()]),
            state: Some(20),
            ..Default::default()
        };
        service.units().edit(&Subject::System, id, theirs).unwrap();
        // Marta's save from the older page: refused, her text kept.
        let mut fields = action(&token, close, "", "save");
        fields.extend([("shown", shown.as_str()), ("target_0", "Zumachen")]);
        let refused = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
        assert!(
            refused.body.contains(
                "Someone changed this string since it was shown to you: it now reads “Schließen (API)”."
            ),
            "{}",
            refused.body
        );
        assert!(
            refused.body.contains(">Zumachen</textarea>"),
            "{}",
            refused.body
        );
        assert_eq!(stored(&service, "de", "Close").0, "Schließen (API)");
        // Saved again from that page, it replaces theirs.
        let newer = after(&refused, "name=\"shown\" value=\"").to_owned();
        assert_ne!(newer, shown);
        let mut fields = action(&token, close, "", "save");
        fields.extend([("shown", newer.as_str()), ("target_0", "Zumachen")]);
        let saved = marta.post(&app, "/translate/demo/app/de/", &fields).await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        assert_eq!(stored(&service, "de", "Close").0, "Zumachen");

        // Two saves racing from the same page: one is taken, the other
        // refused, as if one came after the other.
        let shown = tolk_domain::unit::content_sum("Zumachen", 20);
        let outcomes: Vec<bool> = std::thread::scope(|scope| {
            let racers: Vec<_> = ["Erste", "Zweite"]
                .into_iter()
                .map(|text| {
                    let (service, shown) = (service.clone(), shown.clone());
                    scope.spawn(move || {
                        let edit = tolk_service::units::UnitEdit {
                            target: Some(vec![text.into()]),
                            state: Some(20),
                            shown: Some(shown),
                            ..Default::default()
                        };
                        service.units().edit(&Subject::System, id, edit).is_ok()
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(
            outcomes.iter().filter(|taken| **taken).count(),
            1,
            "{outcomes:?}"
        );
        let winner = if outcomes[0] { "Erste" } else { "Zweite" };
        assert_eq!(stored(&service, "de", "Close").0, winner);
    }
}
