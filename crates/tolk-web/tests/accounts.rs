//! Signing in to the pages against a real service on every configured
//! database, driven over HTTP as a browser would: cookies kept between
//! requests, forms posted with the token their page carried.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::{Browser, Reply};
use tolk_domain::permission::Subject;
use tolk_service::testing::TestDb;
use tolk_service::{Service, ServiceConfig};

const PASSWORD: &str = "correct horse battery";

/// A service with a person `marta` (password [`PASSWORD`]) and `bob`
/// (no password yet).
fn service(db: &TestDb) -> Service {
    let service = Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
    common::person(&service, "marta", Some(PASSWORD));
    common::person(&service, "bob", None);
    service
}

/// Signs `browser` in as marta; the reply to the form.
async fn sign_in<S>(app: &S, browser: &mut Browser, next: &str) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = ServiceResponse,
            Error = actix_web::Error,
        >,
{
    common::sign_in_as(app, browser, ("marta", PASSWORD), next).await
}

#[actix_web::test]
async fn a_person_signs_in_sees_their_profile_and_signs_out() {
    for db in TestDb::all() {
        let service = service(&db);
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut browser = Browser::default();

        // The sign-in page: labelled fields, a token, the seed cookie
        // flagged, the page's policy.
        let page = browser.get(&app, "/accounts/login/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(
            page.headers.get("content-security-policy").unwrap(),
            tolk_web_policy()
        );
        assert_eq!(page.headers.get("x-frame-options").unwrap(), "DENY");
        assert_eq!(page.headers.get("cache-control").unwrap(), "no-store");
        for label in [
            "<label for=\"id_username\">Username</label>",
            "<label for=\"id_password\">Password</label>",
        ] {
            assert!(page.body.contains(label), "{}", page.body);
        }
        let seed = page.set_cookies();
        assert_eq!(seed.len(), 1, "{seed:?}");
        assert!(seed[0].starts_with("tolk_csrf="), "{seed:?}");
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(seed[0].contains(flag), "{seed:?}");
        }
        assert!(!seed[0].contains("Secure"), "an http site: {seed:?}");

        // Signed in: a session cookie, flagged, and on to `next`.
        let signed_in = sign_in(&app, &mut browser, "/accounts/profile/?tab=1").await;
        assert_eq!(
            signed_in.status,
            StatusCode::SEE_OTHER,
            "{}",
            signed_in.body
        );
        assert_eq!(signed_in.location(), "/accounts/profile/?tab=1");
        let session = signed_in.set_cookies();
        assert_eq!(session.len(), 1, "{session:?}");
        assert!(session[0].starts_with("tolk_session="), "{session:?}");
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(session[0].contains(flag), "{session:?}");
        }
        let profile = browser.get(&app, "/accounts/profile/").await;
        assert_eq!(profile.status, StatusCode::OK);
        // The name is shown escaped.
        assert!(
            profile.body.contains(
                "<h1>marta &#60;b&#62;bold&#60;/b&#62; <span class=\"muted\">(marta)</span></h1>"
            ) || profile.body.contains(
                "<h1>marta &lt;b&gt;bold&lt;/b&gt; <span class=\"muted\">(marta)</span></h1>"
            ),
            "{}",
            profile.body
        );
        assert!(!profile.body.contains("<b>bold</b>"));
        let last_login = service
            .users()
            .get(&Subject::System, "marta")
            .unwrap()
            .0
            .row
            .last_login;
        assert!(last_login.is_some());
        // Signed in, the sign-in page sends one on.
        let again = browser.get(&app, "/accounts/login/").await;
        assert_eq!(again.status, StatusCode::SEE_OTHER);
        assert_eq!(again.location(), "/accounts/profile/");

        // Sign-out needs the token; then the cookie is gone and the session ended.
        let stolen = browser.clone();
        let refused = browser
            .post(&app, "/accounts/logout/", &[("csrfmiddlewaretoken", "x")])
            .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let out = browser
            .post(
                &app,
                "/accounts/logout/",
                &[("csrfmiddlewaretoken", &profile.token())],
            )
            .await;
        assert_eq!(out.status, StatusCode::SEE_OTHER);
        assert_eq!(out.location(), "/accounts/login/");
        assert!(!browser.cookies.contains_key("tolk_session"));
        let mut stolen = stolen;
        let after = stolen.get(&app, "/accounts/profile/").await;
        assert_eq!(
            after.status,
            StatusCode::SEE_OTHER,
            "the old cookie no longer works"
        );
        assert_eq!(
            after.location(),
            "/accounts/login/?next=%2Faccounts%2Fprofile%2F"
        );
    }
}

/// The pages' policy, as the crate states it.
fn tolk_web_policy() -> &'static str {
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

#[actix_web::test]
async fn forms_without_this_browsers_token_are_refused() {
    for db in TestDb::all() {
        let service = service(&db);
        let pages = tolk_web::Pages::open(service.clone(), "https://l10n.example.com/").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        // No seed cookie at all, or no token, or another browser's token.
        let mut stranger = Browser::default();
        let mut victim = Browser::default();
        let victims_token = victim.get(&app, "/accounts/login/").await.token();
        assert!(victim.cookies.contains_key("tolk_csrf"));
        let zeros = "0".repeat(64);
        for (stranger_sends, token) in [
            (true, victims_token.as_str()),
            (false, ""),
            (false, zeros.as_str()),
        ] {
            let browser = if stranger_sends {
                &mut stranger
            } else {
                &mut victim
            };
            let reply = browser
                .post(
                    &app,
                    "/accounts/login/",
                    &[
                        ("csrfmiddlewaretoken", token),
                        ("username", "marta"),
                        ("password", PASSWORD),
                    ],
                )
                .await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
            assert!(
                reply.body.contains("CSRF verification failed"),
                "{}",
                reply.body
            );
            assert!(!browser.cookies.contains_key("tolk_session"));
        }
        // A body that is no form is refused as such.
        let reply = victim
            .send(
                &app,
                test::TestRequest::post()
                    .uri("/accounts/login/")
                    .insert_header(("content-type", "application/json"))
                    .set_payload("{}"),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        assert!(
            reply
                .body
                .contains("<h1>Not understood</h1>\n<p>The form could not be read.</p>"),
            "{}",
            reply.body
        );
        // On an HTTPS site every cookie is Secure.
        let reply = sign_in(&app, &mut victim, "/").await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
        assert!(reply.set_cookies().iter().all(|c| c.contains("Secure")));
        // A token of the time before signing in no longer passes.
        let reply = victim
            .post(
                &app,
                "/accounts/profile/token/",
                &[("csrfmiddlewaretoken", &victims_token)],
            )
            .await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN);
    }
}

#[actix_web::test]
async fn a_planted_or_forged_session_cookie_signs_no_one_in() {
    for db in TestDb::all() {
        let service = service(&db);
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        // Signing in again, as anyone, ends the session one had.
        let mut browser = Browser::default();
        sign_in(&app, &mut browser, "/").await;
        let first = browser.clone();
        let token = browser.get(&app, "/accounts/profile/").await.token();
        let reply = browser
            .post(
                &app,
                "/accounts/login/",
                &[
                    ("csrfmiddlewaretoken", &token),
                    ("username", "marta"),
                    ("password", PASSWORD),
                ],
            )
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
        assert_ne!(
            browser.cookies["tolk_session"],
            first.cookies["tolk_session"]
        );
        assert_eq!(
            first.clone().get(&app, "/accounts/profile/").await.status,
            StatusCode::SEE_OTHER
        );
        assert_eq!(
            browser.get(&app, "/accounts/profile/").await.status,
            StatusCode::OK
        );
        // A cookie the attacker knows (a signed key of a session that
        // ended), planted in the victim's browser, never becomes the
        // victim's session: signing in makes a new key.
        let mut attacker = Browser::default();
        sign_in(&app, &mut attacker, "/").await;
        let planted = attacker.cookies["tolk_session"].clone();
        let token = attacker.get(&app, "/accounts/profile/").await.token();
        attacker
            .post(
                &app,
                "/accounts/logout/",
                &[("csrfmiddlewaretoken", &token)],
            )
            .await;
        let mut victim = Browser::default();
        victim
            .cookies
            .insert("tolk_session".into(), planted.clone());
        let reply = sign_in(&app, &mut victim, "/").await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
        assert_ne!(victim.cookies["tolk_session"], planted);
        attacker.cookies.insert("tolk_session".into(), planted);
        let after = attacker.get(&app, "/accounts/profile/").await;
        assert_eq!(
            after.status,
            StatusCode::SEE_OTHER,
            "the planted key signs no one in"
        );
        // A cookie with another key, or an altered signature, is no one.
        let (key, signature) = victim.cookies["tolk_session"]
            .rsplit_once('.')
            .map(|(k, s)| (k.to_owned(), s.to_owned()))
            .unwrap();
        for forged in [
            format!(
                "{}{}.{signature}",
                &key[..key.len() - 1],
                if key.ends_with('X') { 'Y' } else { 'X' }
            ),
            format!("{key}.{}", "0".repeat(64)),
            key.clone(),
        ] {
            let mut forger = Browser::default();
            forger.cookies.insert("tolk_session".into(), forged.clone());
            let reply = forger.get(&app, "/accounts/profile/").await;
            assert_eq!(reply.status, StatusCode::SEE_OTHER, "{forged}");
        }
    }
}

#[actix_web::test]
async fn wrong_passwords_say_the_same_and_are_throttled() {
    for db in TestDb::all() {
        let service = service(&db);
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut browser = Browser::default();
        let token = browser.get(&app, "/accounts/login/").await.token();
        let attempt = |username: &'static str, password: &'static str| {
            let token = token.clone();
            let mut browser = browser.clone();
            let app = &app;
            async move {
                browser
                    .post(
                        app,
                        "/accounts/login/",
                        &[
                            ("csrfmiddlewaretoken", &token),
                            ("username", username),
                            ("password", password),
                        ],
                    )
                    .await
            }
        };
        // An unknown account, a wrong password, an account without one:
        // the same words; hostile input shown escaped.
        let mut words = Vec::new();
        // Past the longest username and password: the same words, and
        // (below) not counted against marta's account.
        let long_name: &'static str = Box::leak("m".repeat(151).into_boxed_str());
        let long_password: &'static str = Box::leak("p".repeat(1025).into_boxed_str());
        for (username, password) in [
            ("<script>alert(1)</script>", "x"),
            (long_name, "x"),
            ("marta", long_password),
            ("marta", "wrong password"),
            ("bob", "anything at all"),
        ] {
            let reply = attempt(username, password).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
            assert!(
                !reply
                    .set_cookies()
                    .iter()
                    .any(|c| c.starts_with("tolk_session"))
            );
            assert!(!reply.body.contains("<script>alert"), "{}", reply.body);
            let start = reply
                .body
                .find("<p class=\"error\" role=\"alert\">")
                .unwrap();
            words.push(reply.body[start..start + 120].to_owned());
        }
        assert!(words.iter().all(|w| *w == words[0]), "{words:?}");
        // marta's account has had one attempt; four more, then even the
        // right password waits.
        for _ in 0..4 {
            assert_eq!(
                attempt("marta", "wrong password").await.status,
                StatusCode::BAD_REQUEST
            );
        }
        let refused = attempt("MARTA", PASSWORD).await;
        assert_eq!(
            refused.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            refused.body
        );
        let wait: u64 = refused
            .headers
            .get("retry-after")
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        assert!(
            refused.body.contains("Too many attempts"),
            "{}",
            refused.body
        );
    }
}

#[actix_web::test]
async fn the_profile_renews_the_api_token_and_changes_the_password() {
    for db in TestDb::all() {
        let service = service(&db);
        let old_token = service.auth().issue_token_for("marta").unwrap();
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut browser = Browser::default();
        sign_in(&app, &mut browser, "/").await;
        let mut elsewhere = Browser::default();
        sign_in(&app, &mut elsewhere, "/").await;

        // A new token, shown once, with wlc's settings; the old one stops working.
        let profile = browser.get(&app, "/accounts/profile/").await;
        let renewed = browser
            .post(
                &app,
                "/accounts/profile/token/",
                &[("csrfmiddlewaretoken", &profile.token())],
            )
            .await;
        assert_eq!(renewed.status, StatusCode::OK);
        let marker = "<input id=\"id_token\" type=\"text\" readonly value=\"";
        let start = renewed.body.find(marker).unwrap() + marker.len();
        let token = &renewed.body[start..start + 40];
        assert!(token.starts_with("wlu_"), "{token}");
        assert!(
            renewed
                .body
                .contains(&format!("http://localhost:8000/api/ = {token}")),
            "{}",
            renewed.body
        );
        assert!(service.auth().authenticate(token).is_ok());
        assert!(service.auth().authenticate(&old_token).is_err());

        // A wrong current password and a weak new one: each said on its field.
        let refused = browser
            .post(
                &app,
                "/accounts/password/",
                &[
                    ("csrfmiddlewaretoken", &profile.token()),
                    ("old_password", "not it at all"),
                    ("new_password1", "1234567890123"),
                    ("new_password2", "1234567890124"),
                ],
            )
            .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        for (field, words) in [
            ("old_password", "Your old password was entered incorrectly."),
            ("new_password1", "This password is entirely numeric."),
            ("new_password2", "The two password fields didn&#39;t match."),
        ] {
            let error = format!("<p class=\"error\" id=\"{field}-error\">");
            let at = refused
                .body
                .find(&error)
                .unwrap_or_else(|| panic!("{field}: {}", refused.body));
            assert!(
                refused.body[at..].starts_with(&format!("{error}{words}")),
                "{field}: {}",
                &refused.body[at..at + 200]
            );
            let described = if field == "new_password1" {
                format!("aria-describedby=\"{field}-help {field}-error\"")
            } else {
                format!("aria-describedby=\"{field}-error\"")
            };
            assert!(
                refused.body.contains(&described),
                "{field}: {}",
                refused.body
            );
        }

        // The right one: the password changes, this browser stays signed
        // in (a new session), the other session ends.
        let changed = browser
            .post(
                &app,
                "/accounts/password/",
                &[
                    ("csrfmiddlewaretoken", &profile.token()),
                    ("old_password", PASSWORD),
                    ("new_password1", "a better passphrase"),
                    ("new_password2", "a better passphrase"),
                ],
            )
            .await;
        assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
        assert!(changed.body.contains("Your password was changed."));
        assert_eq!(
            browser.get(&app, "/accounts/profile/").await.status,
            StatusCode::OK
        );
        assert_eq!(
            elsewhere.get(&app, "/accounts/profile/").await.status,
            StatusCode::SEE_OTHER
        );
        // The page after the change carries the new session's token.
        let out = browser
            .post(
                &app,
                "/accounts/logout/",
                &[("csrfmiddlewaretoken", &changed.token())],
            )
            .await;
        assert_eq!(out.status, StatusCode::SEE_OTHER);
        let old = sign_in(&app, &mut Browser::default(), "/").await;
        assert_eq!(
            old.status,
            StatusCode::BAD_REQUEST,
            "the old password no longer works"
        );
    }
}

#[actix_web::test]
async fn a_one_time_link_sets_a_password_once() {
    for db in TestDb::all() {
        let service = service(&db);
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let first = service.accounts().password_link("bob").unwrap();
        let key = service.accounts().password_link("bob").unwrap();
        assert_eq!(
            tolk_web::password_link_url("http://localhost:8000/", &key),
            format!("http://localhost:8000/accounts/password/set/{key}/")
        );
        let mut browser = Browser::default();
        // A newer link replaces an older one; a made-up one is no link.
        for spent in [first.as_str(), "made-up"] {
            let reply = browser
                .get(&app, &format!("/accounts/password/set/{spent}/"))
                .await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND);
            assert!(reply.body.contains("This link no longer works"));
        }
        let uri = format!("/accounts/password/set/{key}/");
        let page = browser.get(&app, &uri).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains("<strong>bob</strong>"));
        let short = browser
            .post(
                &app,
                &uri,
                &[
                    ("csrfmiddlewaretoken", &page.token()),
                    ("new_password1", "bob"),
                    ("new_password2", "bob"),
                ],
            )
            .await;
        assert_eq!(short.status, StatusCode::BAD_REQUEST);
        assert!(
            short.body.contains("This password is too short."),
            "{}",
            short.body
        );
        let set = browser
            .post(
                &app,
                &uri,
                &[
                    ("csrfmiddlewaretoken", &page.token()),
                    ("new_password1", "bob's own passphrase"),
                    ("new_password2", "bob's own passphrase"),
                ],
            )
            .await;
        assert_eq!(set.status, StatusCode::SEE_OTHER);
        assert_eq!(set.location(), "/accounts/profile/");
        let profile = browser.get(&app, "/accounts/profile/").await;
        assert!(profile.body.contains("(bob)"), "{}", profile.body);
        // Used up.
        let again = browser.get(&app, &uri).await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
        // Not for bots or unknown people.
        assert!(service.accounts().password_link("nobody").is_err());
    }
}
