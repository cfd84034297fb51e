//! Every page kind against hostile content and every kind of caller, on
//! every configured database: names, strings, notes, explanations,
//! translations, suggestions, comments, full names and searches holding
//! markup and script are shown as text on every page; a private project's
//! pages answer its members and not found for everybody else.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::Browser;
use tolk_domain::permission::{AccessControl, Subject};
use tolk_domain::unit::{checksum, id_hash};
use tolk_service::testing::TestDb;
use tolk_service::units::UnitEdit;
use tolk_service::vcs_testing::Upstream;
use tolk_service::{PageRequest, Service, ServiceConfig};

const PASSWORD: &str = "a long passphrase";

/// Markup and script, as a hostile person types them.
const HOSTILE: &str = "<script>alert('x')</script><img src=x onerror=alert(1)>";

/// What must never be live on a page: the hostile markup unescaped, and
/// a full name's markup (see [`common::person`]).
const LIVE: [&str; 3] = ["<script>alert", "<img src=x", "<b>bold</b>"];

/// A catalogue whose one string, its context, note and location hold
/// markup.
fn hostile_catalogue() -> Vec<u8> {
    format!(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\
         \"Language: cs\\n\"\n\"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n\"\n\n\
         #. {HOSTILE}\n#: <b>file</b>.c:1\nmsgctxt \"{HOSTILE}\"\nmsgid \"{HOSTILE}\"\nmsgstr \"\"\n\n\
         msgid \"Quit\"\nmsgstr \"\"\n"
    )
    .into_bytes()
}

/// The id of the hostile string of `hostile/app/{language}`.
fn hostile_unit(service: &Service, language: &str) -> i64 {
    common::unit_of(service, ("hostile", "app", language), HOSTILE)
        .unit
        .id
}

#[actix_web::test]
async fn hostile_content_is_text_on_every_page() {
    for db in TestDb::all() {
        let upstream = Upstream::new(&[
            ("po/cs.po", hostile_catalogue()),
            ("terms/cs.po", common::catalogue("cs", 0)),
        ]);
        let config = ServiceConfig {
            create_glossaries: false,
            ..ServiceConfig::local(upstream.root())
        };
        let service = Service::new(db.store.clone(), config).unwrap();
        common::named_project(
            &service,
            &upstream,
            ("hostile", HOSTILE, HOSTILE),
            AccessControl::Public,
        );
        common::person(&service, "marta", Some(PASSWORD));
        let string = hostile_unit(&service, "cs");
        let system = Subject::System;
        let explain = UnitEdit {
            explanation: Some(HOSTILE.into()),
            ..UnitEdit::default()
        };
        let source = hostile_unit(&service, "en");
        service.units().edit(&system, source, explain).unwrap();
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;

        // Marta translates, suggests and comments with markup.
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let hostile_sum = checksum(id_hash(HOSTILE, HOSTILE, false));
        let quit_sum = checksum(id_hash("Quit", "", false));
        let editor = format!("/translate/hostile/app/cs/?checksum={hostile_sum}");
        let page = marta.get(&app, &editor).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        let token = page.token();
        for (sum, action, field, text) in [
            (&hostile_sum, "save", "target_0", HOSTILE),
            (&quit_sum, "suggest", "target_0", HOSTILE),
            (&hostile_sum, "comment", "comment", HOSTILE),
        ] {
            let fields = [
                ("csrfmiddlewaretoken", token.as_str()),
                ("checksum", sum.as_str()),
                ("q", ""),
                ("scope", "global"),
                ("action", action),
                (field, text),
            ];
            let done = marta
                .post(&app, "/translate/hostile/app/cs/", &fields)
                .await;
            assert_eq!(
                done.status,
                StatusCode::SEE_OTHER,
                "{action}: {}",
                done.body
            );
        }
        assert_eq!(
            service.units().get(&system, string).unwrap().unit.target,
            HOSTILE
        );

        let search = format!(
            "/translate/hostile/app/cs/?q={}",
            encode(&format!("source:\"{HOSTILE}\""))
        );
        let broken = format!(
            "/translate/hostile/app/cs/?q={}",
            encode(&format!("state:<{HOSTILE}"))
        );
        let missing = format!("/projects/hostile/{}/", encode(HOSTILE));
        for (address, status) in [
            ("/", StatusCode::OK),
            ("/projects/hostile/", StatusCode::OK),
            ("/projects/hostile/app/", StatusCode::OK),
            ("/projects/hostile/app/cs/", StatusCode::OK),
            ("/projects/hostile/-/cs/", StatusCode::OK),
            (editor.as_str(), StatusCode::OK),
            (
                &format!("/translate/hostile/app/cs/?checksum={quit_sum}"),
                StatusCode::OK,
            ),
            (search.as_str(), StatusCode::OK),
            (broken.as_str(), StatusCode::BAD_REQUEST),
            ("/zen/hostile/app/cs/", StatusCode::OK),
            ("/engage/hostile/", StatusCode::OK),
            ("/engage/hostile/-/cs/", StatusCode::OK),
            ("/accounts/profile/", StatusCode::OK),
            ("/widget/hostile/svg-badge.svg", StatusCode::OK),
            (missing.as_str(), StatusCode::NOT_FOUND),
        ] {
            let page = marta.get(&app, address).await;
            assert_eq!(page.status, status, "{address}: {}", page.body);
            for live in LIVE {
                assert!(
                    !page.body.contains(live),
                    "{live} live on {address}: {}",
                    page.body
                );
            }
        }
        // Shown, as text: the string, its note, its explanation, the
        // translation, the comment, the suggestion, the names.
        let page = marta.get(&app, &editor).await;
        let text = "&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;";
        assert!(page.body.matches(text).count() >= 6, "{}", page.body);
        let page = marta
            .get(
                &app,
                &format!("/translate/hostile/app/cs/?checksum={quit_sum}"),
            )
            .await;
        assert!(page.body.contains(text), "the suggestion: {}", page.body);
    }
}

/// `text` escaped for an address.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-' | b'.' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// The id of the project team `name` of `project`.
fn team(service: &Service, project: &str, name: &str) -> i64 {
    let teams = service
        .groups()
        .list(
            &Subject::System,
            PageRequest {
                number: Some(1),
                size: 1000,
            },
        )
        .unwrap();
    teams
        .items
        .iter()
        .find(|t| t.defining_project.as_deref() == Some(project) && t.fields.name.ends_with(name))
        .unwrap_or_else(|| panic!("team {name} of {project}"))
        .id
}

#[actix_web::test]
async fn a_private_projects_pages_answer_its_members_only() {
    for db in TestDb::all() {
        let (_upstream, service) = common::demo_site(&db);
        for name in ["marta", "mia", "rev"] {
            common::person(&service, name, Some(PASSWORD));
        }
        common::admin(&service, "ada", Some(PASSWORD));
        let groups = service.groups();
        for (name, team_name) in [("mia", "Translate"), ("rev", "Review")] {
            let id = team(&service, "secret", team_name);
            groups
                .set_user_groups(&Subject::System, name, Some(id), &[], true)
                .unwrap();
        }
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut callers = vec![("a visitor", Browser::default(), false)];
        for (name, member) in [
            ("marta", false),
            ("mia", true),
            ("rev", true),
            ("ada", true),
        ] {
            let mut browser = Browser::default();
            common::sign_in_as(&app, &mut browser, (name, PASSWORD), "/").await;
            callers.push((name, browser, member));
        }
        let close = checksum(id_hash("Close", "", false));
        let editor = format!("/translate/secret/app/cs/?checksum={close}");
        let addresses = [
            "/projects/secret/",
            "/projects/secret/app/",
            "/projects/secret/app/cs/",
            "/projects/secret/-/cs/",
            "/translate/secret/app/cs/",
            editor.as_str(),
            "/zen/secret/app/cs/",
            "/engage/secret/",
            "/engage/secret/-/cs/",
            "/download/secret/app/cs/",
            "/download/secret/app/cs/?format=xliff",
        ];
        for (who, browser, member) in &mut callers {
            for address in addresses {
                let reply = browser.get(&app, address).await;
                let expected = if *member {
                    StatusCode::OK
                } else {
                    StatusCode::NOT_FOUND
                };
                assert_eq!(reply.status, expected, "{address} for {who}");
                if !*member {
                    assert!(
                        !reply.body.contains("Close"),
                        "{address} for {who}: {}",
                        reply.body
                    );
                }
            }
            // Badges show what anybody may see, whoever asks.
            for badge in [
                "/widget/secret/svg-badge.svg",
                "/widget/secret/app/svg-badge.svg",
            ] {
                let reply = browser.get(&app, badge).await;
                assert_eq!(reply.status, StatusCode::NOT_FOUND, "{badge} for {who}");
            }
            // The front page lists the project to its members only.
            let front = browser.get(&app, "/").await;
            assert_eq!(
                front.body.contains("href=\"/projects/secret/\""),
                *member,
                "the front page for {who}"
            );
        }
        // What each may do with a string: save, approve (the project does
        // not review, so nobody is offered it), dismiss.
        for (who, browser, member) in &mut callers {
            let page = browser.get(&app, &editor).await;
            if !*member {
                let visible = browser.get(&app, "/translate/demo/app/cs/").await;
                let token = visible.token();
                let fields = [
                    ("csrfmiddlewaretoken", token.as_str()),
                    ("checksum", close.as_str()),
                    ("q", ""),
                    ("action", "save"),
                    ("target_0", "Zavřít"),
                ];
                let refused = browser
                    .post(&app, "/translate/secret/app/cs/", &fields)
                    .await;
                assert_eq!(refused.status, StatusCode::NOT_FOUND, "a save for {who}");
                continue;
            }
            assert!(page.body.contains("id=\"save\""), "{who}: {}", page.body);
            assert!(
                !page.body.contains("id=\"id_approved\""),
                "{who}: {}",
                page.body
            );
        }
        let unit = common::unit_of(&service, ("secret", "app", "cs"), "Close");
        assert_eq!(
            unit.unit.target, "Close (cs)",
            "a refused save changed the string"
        );
    }
}
