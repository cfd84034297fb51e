//! The users page against a real service on every configured database:
//! an administrator adds a person and hands them a one-time link to
//! choose a password; those who do not manage accounts are refused.

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
use tolk_service::testing::TestDb;

const PASSWORD: &str = "a long passphrase";

/// The one-time link a page shows.
fn link_on(body: &str) -> String {
    let marker = "<input id=\"id_link\" type=\"text\" readonly value=\"";
    let start = body
        .find(marker)
        .unwrap_or_else(|| panic!("a link in {body}"))
        + marker.len();
    body[start..start + body[start..].find('"').unwrap()].to_owned()
}

/// What the page answers `browser` asking for a password link for `name`.
async fn ask_link<S>(app: &S, browser: &mut Browser, token: &str, name: &str) -> common::Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
        >,
{
    let fields = [
        ("csrfmiddlewaretoken", token),
        ("action", "link"),
        ("username", name),
    ];
    browser.post(app, "/manage/users/", &fields).await
}

#[actix_web::test]
async fn an_administrator_adds_people_and_hands_them_password_links() {
    for db in TestDb::all() {
        let (_upstream, service) = common::demo_site(&db);
        common::person(&service, "marta", Some(PASSWORD));
        common::admin(&service, "ada", Some(PASSWORD));
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;

        // Who does not manage accounts is refused, and offered no link to it.
        let mut visitor = Browser::default();
        let mut marta = Browser::default();
        let page = common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER);
        for (who, browser) in [("a visitor", &mut visitor), ("marta", &mut marta)] {
            let reply = browser.get(&app, "/manage/users/").await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "{who}");
            let front = browser.get(&app, "/").await;
            assert!(
                !front.body.contains("/manage/users/"),
                "{who}: {}",
                front.body
            );
        }
        let token = marta.get(&app, "/").await.token();
        let fields = [
            ("csrfmiddlewaretoken", token.as_str()),
            ("action", "link"),
            ("username", "ada"),
        ];
        let refused = marta.post(&app, "/manage/users/", &fields).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);

        // The administrator: every account, and a person added.
        let mut ada = Browser::default();
        common::sign_in_as(&app, &mut ada, ("ada", PASSWORD), "/").await;
        let page = ada.get(&app, "/manage/users/").await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(
            page.body.contains("<a href=\"/manage/users/\">People</a>"),
            "{}",
            page.body
        );
        assert!(
            page.body
                .contains("<td>marta &#60;b&#62;bold&#60;/b&#62;</td><td>marta@example.com</td>"),
            "{}",
            page.body
        );
        // The anonymous account gets no link.
        assert!(
            !page.body.contains("New password link for anonymous"),
            "{}",
            page.body
        );
        let token = page.token();
        let add = [
            ("csrfmiddlewaretoken", token.as_str()),
            ("action", "add"),
            ("username", "bob"),
            ("full_name", "Bob <i>B</i>"),
            ("email", "bob@example.com"),
        ];
        let added = ada.post(&app, "/manage/users/", &add).await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.body);
        let link = link_on(&added.body);
        let path = link
            .strip_prefix("http://localhost:8000")
            .unwrap_or_else(|| panic!("{link}"));
        assert!(path.starts_with("/accounts/password/set/"), "{link}");
        assert!(
            added.body.contains("<td>Bob &#60;i&#62;B&#60;/i&#62;</td>"),
            "{}",
            added.body
        );
        // The link answers, and leads bob to choose a password.
        let mut bob = Browser::default();
        let chosen = bob.get(&app, path).await;
        assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.body);
        assert!(chosen.body.contains("bob"), "{}", chosen.body);

        // The same username again: refused by field, what was typed kept.
        let again = ada.post(&app, "/manage/users/", &add).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.body);
        assert!(
            again.body.contains("id=\"username-error\""),
            "{}",
            again.body
        );
        assert!(
            again.body.contains("value=\"bob@example.com\""),
            "{}",
            again.body
        );
        assert!(!again.body.contains("id=\"id_link\""), "{}", again.body);

        // A new link for marta replaces her earlier one; none for the
        // anonymous account.
        let first = link_on(&ask_link(&app, &mut ada, &token, "marta").await.body);
        let second = link_on(&ask_link(&app, &mut ada, &token, "marta").await.body);
        assert_ne!(first, second);
        let spent = visitor
            .get(&app, first.strip_prefix("http://localhost:8000").unwrap())
            .await;
        assert!(!spent.body.contains("id_new_password1"), "{}", spent.body);
        let none = ask_link(&app, &mut ada, &token, "anonymous").await;
        assert_eq!(none.status, StatusCode::BAD_REQUEST, "{}", none.body);
    }
}
