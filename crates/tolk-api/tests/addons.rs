//! Add-ons (§14): installation with Weblate's checks and messages, who
//! sees and manages them, and what the ones Tolk runs do to real
//! repositories (LINGUAS, configure, msgmerge, cleanups, JSON layout,
//! squash, language consistency); every test runs on each configured
//! database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::body::MessageBody;
use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, Reply, TestApp, call, error_items, get_json, pluck};
use serde_json::{Value, json};
use tolk_domain::component::ComponentSettings;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

const HEADER: &str = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\
\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n";

fn catalogue(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut text = HEADER.to_owned();
    for (source, target) in entries {
        text.push_str(&format!("\nmsgid \"{source}\"\nmsgstr \"{target}\"\n"));
    }
    text.into_bytes()
}

/// An upstream with a gettext catalogue (`po/`: a POT, Czech and German,
/// `LINGUAS`), a `configure.ac`, a second catalogue (`other/`, Czech only)
/// and a monolingual JSON component (`json/`).
fn upstream() -> Upstream {
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("po/app.pot", catalogue(&[("Hello", ""), ("Bye", "")])),
        ("po/cs.po", catalogue(&[("Hello", "Ahoj"), ("Bye", "")])),
        ("po/de.po", catalogue(&[("Hello", "Hallo"), ("Bye", "Tschüss")])),
        ("po/LINGUAS", b"# Languages\ncs\n".to_vec()),
        (
            "configure.ac",
            b"AC_INIT([app], [1.0])\nALL_LINGUAS=\"\"\nAC_OUTPUT\n".to_vec(),
        ),
        ("other/app.pot", catalogue(&[("Open", "")])),
        ("other/cs.po", catalogue(&[("Open", "Otevřít")])),
        (
            "json/en.json",
            b"{\n    \"a\": \"A\",\n    \"b\": \"B\",\n    \"c\": \"C\"\n}\n".to_vec(),
        ),
        (
            "json/cs.json",
            "{\n    \"old\": \"Stale\",\n    \"c\": \"Cé\",\n    \"b\": \"\",\n    \"a\": \"Á\"\n}\n"
                .as_bytes()
                .to_vec(),
        ),
    ];
    Upstream::new(&files)
}

/// The project `demo` with `app` (po/), `other` (other/) and `web` (json/).
fn context(db: TestDb, upstream: &Upstream) -> Ctx {
    let ctx = common::context(db, upstream);
    for (slug, mask, base, format, template) in [
        ("app", "po/*.po", "po/app.pot", "po", ""),
        ("other", "other/*.po", "other/app.pot", "po", ""),
        ("web", "json/*.json", "", "json", "json/en.json"),
    ] {
        common::add_component(
            &ctx,
            ComponentSettings {
                name: slug.to_uppercase(),
                slug: slug.into(),
                repo: upstream.url(),
                filemask: mask.into(),
                new_base: base.into(),
                template: template.into(),
                file_format: format.into(),
                ..Default::default()
            },
        );
    }
    ctx
}

async fn install<S: TestApp<B>, B: MessageBody>(
    app: &S,
    place: &str,
    token: Option<&str>,
    body: Value,
) -> Reply {
    let uri = format!("/api/{place}/addons/");
    call(app, Method::POST, &uri, token, Body::Json(body)).await
}

/// The (attribute, message) pairs of a 400.
fn problems(reply: &Reply) -> Vec<(String, String)> {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
    error_items(&reply.json())
        .into_iter()
        .map(|(attr, _, detail)| (attr, detail))
        .collect()
}

fn pair(attr: &str, detail: &str) -> Vec<(String, String)> {
    vec![(attr.to_owned(), detail.to_owned())]
}

async fn operate<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: Option<&str>,
    component: &str,
    operation: &str,
) {
    let uri = format!("/api/components/demo/{component}/repository/");
    let reply = call(
        app,
        Method::POST,
        &uri,
        token,
        Body::Json(json!({"operation": operation})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(
        reply.json()["result"],
        json!(true),
        "{operation}: {}",
        reply.text()
    );
}

/// The unit of `translation` whose source is `source`: its id.
async fn unit<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: Option<&str>,
    translation: &str,
    source: &str,
) -> i64 {
    let uri = format!("/api/translations/demo/{translation}/units/");
    let units = get_json(app, &uri, token).await;
    units["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["source"][0] == source || u["context"] == source)
        .unwrap_or_else(|| panic!("no {source} in {units}"))["id"]
        .as_i64()
        .unwrap()
}

async fn translate<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: Option<&str>,
    id: i64,
    text: &str,
) {
    let uri = format!("/api/units/{id}/");
    let body = json!({"target": [text], "state": 20});
    let reply = call(app, Method::PATCH, &uri, token, Body::Json(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
}

#[actix_web::test]
async fn addons_are_checked_installed_once_and_managed_by_editors_only() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());

        let app_addons = "components/demo/app";
        let component = "/api/components/demo/app/";
        assert_eq!(get_json(&app, component, admin).await["addons"], json!([]));
        let made = install(
            &app,
            app_addons,
            admin,
            json!({"name": "weblate.gettext.linguas"}),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let linguas = made.json();
        let id = linguas["id"].as_i64().unwrap();
        let url = format!("http://{HOST}/api/addons/{id}/");
        assert_eq!(
            linguas,
            json!({
                "component": format!("http://{HOST}/api/components/demo/app/"),
                "project": null,
                "name": "weblate.gettext.linguas",
                "id": id,
                "configuration": {},
                "url": url,
            })
        );
        assert_eq!(made.header("location"), Some(url.as_str()));
        assert_eq!(
            get_json(&app, component, admin).await["addons"],
            json!([url]),
            "the component lists its add-ons"
        );
        let keys: Vec<&String> = linguas.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["component", "project", "name", "id", "configuration", "url"]
        );

        // Weblate's refusals, each on its field.
        let again = install(
            &app,
            app_addons,
            admin,
            json!({"name": "weblate.gettext.linguas"}),
        )
        .await;
        assert_eq!(
            problems(&again),
            pair("name", "Add-on already installed: weblate.gettext.linguas")
        );
        let unknown = install(&app, app_addons, admin, json!({"name": "weblate.nothing"})).await;
        assert_eq!(
            problems(&unknown),
            pair("name", "Add-on not found: weblate.nothing")
        );
        let wrong_format = install(
            &app,
            app_addons,
            admin,
            json!({"name": "weblate.json.customize"}),
        )
        .await;
        assert_eq!(
            problems(&wrong_format),
            pair(
                "name",
                "could not enable add-on weblate.json.customize, not compatible"
            )
        );
        let bilingual = install(
            &app,
            app_addons,
            admin,
            json!({"name": "weblate.cleanup.generic"}),
        )
        .await;
        assert_eq!(
            problems(&bilingual),
            pair(
                "name",
                "could not enable add-on weblate.cleanup.generic, not compatible"
            )
        );
        let no_linguas = install(
            &app,
            "components/demo/other",
            admin,
            json!({"name": "weblate.gettext.linguas"}),
        )
        .await;
        assert_eq!(
            problems(&no_linguas),
            pair(
                "name",
                "could not enable add-on weblate.gettext.linguas, not compatible"
            ),
            "other/ has no LINGUAS file"
        );
        let network = install(&app, app_addons, admin, json!({"name": "weblate.webhook.webhook", "configuration": {"webhook_url": "https://example.com/"}})).await;
        assert_eq!(
            problems(&network),
            pair(
                "name",
                "Tolk does not run the add-on weblate.webhook.webhook: it needs the network, which Tolk's add-ons do not use."
            )
        );
        let discovery = install(
            &app,
            "projects/demo",
            admin,
            json!({"name": "weblate.discovery.discovery"}),
        )
        .await;
        assert_eq!(
            problems(&discovery),
            pair(
                "component",
                "This add-on can only be installed on the component."
            )
        );
        let bad_config = install(&app, app_addons, admin, json!({"name": "weblate.git.squash", "configuration": {"squash": "everything", "append_trailers": "yes"}})).await;
        assert_eq!(
            problems(&bad_config),
            vec![
                ("configuration".to_owned(), "squash: Select a valid choice. everything is not one of the available choices.".to_owned()),
                ("configuration".to_owned(), "append_trailers: Must be a valid boolean.".to_owned()),
            ]
        );
        let not_object = install(
            &app,
            app_addons,
            admin,
            json!({"name": "weblate.git.squash", "configuration": "all"}),
        )
        .await;
        assert_eq!(
            problems(&not_object),
            pair(
                "configuration",
                "Expected a dictionary of items but got type \"str\"."
            )
        );
        let form = call(
            &app,
            Method::POST,
            "/api/projects/demo/addons/",
            admin,
            Body::Raw(
                "application/x-www-form-urlencoded",
                "name=weblate.git.squash&configuration=%7B%22squash%22%3A%22file%22%2C%22kept%22%3A1%7D",
            ),
        )
        .await;
        assert_eq!(form.status, StatusCode::CREATED, "{}", form.text());
        let squash = form.json();
        assert_eq!(
            (
                &squash["component"],
                &squash["project"],
                &squash["configuration"]
            ),
            (
                &Value::Null,
                &json!(format!("http://{HOST}/api/projects/demo/")),
                &json!({"squash": "file", "kept": 1})
            ),
            "a form gives the configuration as JSON text; keys the add-on does not define are kept"
        );
        let squash_url = format!("/api/addons/{}/", squash["id"]);

        // Only editors see and manage add-ons.
        let listed = get_json(&app, "/api/addons/", admin).await;
        assert_eq!(
            pluck(&listed["results"], "name"),
            json!(["weblate.gettext.linguas", "weblate.git.squash"])
        );
        for caller in [jane, None] {
            assert_eq!(
                get_json(&app, "/api/addons/", caller).await["count"],
                json!(0)
            );
            let hidden = call(
                &app,
                Method::GET,
                &format!("/api/addons/{id}/"),
                caller,
                Body::None,
            )
            .await;
            assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        }
        let denied = install(
            &app,
            app_addons,
            jane,
            json!({"name": "weblate.gettext.configure"}),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.text());
        let anonymous = install(
            &app,
            app_addons,
            None,
            json!({"name": "weblate.gettext.configure"}),
        )
        .await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        let read = call(
            &app,
            Method::GET,
            "/api/components/demo/app/addons/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(
            read.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "as Weblate: the component's add-ons are not listed there"
        );

        let trigger = format!("/api/addons/{id}/trigger/");
        let untriggered = call(&app, Method::POST, &trigger, admin, Body::None).await;
        assert_eq!(untriggered.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_items(&untriggered.json()),
            [(
                "".to_owned(),
                "invalid".to_owned(),
                "This add-on cannot be triggered manually.".to_owned()
            )]
        );
        let hidden = call(&app, Method::POST, &trigger, jane, Body::None).await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);

        // Configuration changes; the name does not.
        let renamed = call(
            &app,
            Method::PATCH,
            &squash_url,
            admin,
            Body::Json(json!({"name": "weblate.gettext.mo"})),
        )
        .await;
        assert_eq!(
            problems(&renamed),
            pair("name", "Can not change add-on name")
        );
        let changed = call(
            &app,
            Method::PUT,
            &squash_url,
            admin,
            Body::Json(json!({"name": "weblate.git.squash", "configuration": {"squash": "all"}})),
        )
        .await;
        assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
        assert_eq!(changed.json()["configuration"], json!({"squash": "all"}));
        let invalid = call(
            &app,
            Method::PATCH,
            &squash_url,
            admin,
            Body::Json(json!({"configuration": {"squash": 3}})),
        )
        .await;
        assert_eq!(problems(&invalid).len(), 1);
        assert_eq!(
            get_json(&app, &squash_url, admin).await["configuration"],
            json!({"squash": "all"}),
            "a refused change changes nothing"
        );
        let gone = call(&app, Method::DELETE, &squash_url, admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT);
        let again = call(&app, Method::DELETE, &squash_url, admin, Body::None).await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);

        // Each step is in the history with Weblate's action codes.
        for (action, count) in [(60, 2), (61, 1), (62, 1)] {
            let changes = get_json(&app, &format!("/api/changes/?action={action}"), admin).await;
            assert_eq!(changes["count"], json!(count), "action {action}: {changes}");
        }
        let installed = get_json(&app, "/api/changes/?action=60", admin).await;
        assert!(
            pluck(&installed["results"], "addon")
                .as_array()
                .unwrap()
                .contains(&json!(url)),
            "{installed}"
        );
    }
}

#[actix_web::test]
async fn gettext_addons_keep_build_files_and_catalogues_in_line() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let app_addons = "components/demo/app";
        for name in [
            "weblate.gettext.linguas",
            "weblate.gettext.configure",
            "weblate.gettext.msgmerge",
        ] {
            let made = install(&app, app_addons, admin, json!({"name": name})).await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        }
        ctx.service.tasks().run_due().unwrap();
        operate(&app, admin, "app", "push").await;
        assert_eq!(upstream.file("po/LINGUAS"), "# Languages\ncs\nde\n");
        assert_eq!(
            upstream.file("configure.ac"),
            "AC_INIT([app], [1.0])\nALL_LINGUAS=\"cs de\"\nAC_OUTPUT\n"
        );
        let log = upstream.git(&["log", "--format=%B", "main"]);
        assert!(log.contains("Add-on: Update LINGUAS file"), "{log}");

        // A new language reaches both lists.
        let added = call(
            &app,
            Method::POST,
            "/api/components/demo/app/translations/",
            admin,
            Body::Json(json!({"language_code": "fr"})),
        )
        .await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        operate(&app, admin, "app", "push").await;
        assert_eq!(upstream.file("po/LINGUAS"), "# Languages\ncs\nde\nfr\n");
        assert!(
            upstream
                .file("configure.ac")
                .contains("ALL_LINGUAS=\"cs de fr\"")
        );

        // The POT changes upstream: every catalogue follows at the pull,
        // keeping the translations of the strings that stay.
        upstream.developer_edits("po/app.pot", "msgid \"Bye\"", "msgid \"Welcome\"");
        operate(&app, admin, "app", "pull").await;
        let units = get_json(&app, "/api/translations/demo/app/cs/units/", admin).await;
        assert_eq!(
            pluck(&units["results"], "source"),
            json!([["Hello"], ["Welcome"]])
        );
        assert_eq!(pluck(&units["results"], "target"), json!([["Ahoj"], [""]]));
        operate(&app, admin, "app", "push").await;
        let czech = upstream.file("po/cs.po");
        assert!(
            czech.contains("msgid \"Hello\"\nmsgstr \"Ahoj\"")
                && czech.contains("msgid \"Welcome\"\nmsgstr \"\""),
            "{czech}"
        );
        assert!(!czech.contains("Bye"), "{czech}");
        assert!(!upstream.file("po/de.po").contains("Tschüss"));

        // Compiled catalogues: each PO file a commit writes gets its MO
        // file, by default beside it, in the same commit.
        let mo =
            json!({"name": "weblate.gettext.mo", "configuration": {"path": "", "fuzzy": false}});
        let made = install(&app, app_addons, admin, mo).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let welcome = unit(&app, admin, "app/cs", "Welcome").await;
        translate(&app, admin, welcome, "Vítejte").await;
        operate(&app, admin, "app", "push").await;
        let files = upstream.git(&["show", "--name-only", "--format=", "main"]);
        assert_eq!(files, "po/cs.mo\npo/cs.po\n");
        let compiled = upstream.root().join("vcs/1/po/cs.mo");
        let compiled = tolk_formats::parse("mo", "po/cs.mo", &std::fs::read(compiled).unwrap())
            .unwrap()
            .units();
        let pairs: Vec<(String, String)> = compiled
            .iter()
            .map(|u| (u.source[0].clone(), u.target[0].clone()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("Hello".into(), "Ahoj".into()),
                ("Welcome".into(), "Vítejte".into())
            ]
        );
        // A path that is no MO file is refused at the commit, saying so.
        let id = made.json()["id"].as_i64().unwrap();
        let changed = call(
            &app,
            Method::PATCH,
            &format!("/api/addons/{id}/"),
            admin,
            Body::Json(json!({"configuration": {"path": "po/de.po"}})),
        )
        .await;
        assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
        translate(&app, admin, welcome, "Vítejte!").await;
        let reply = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "commit"})),
        )
        .await;
        assert_eq!(
            reply.json()["detail"],
            json!(
                "po/cs.po: Generate MO files: \"po/de.po\" is no MO file path (it must end in .mo)"
            )
        );
        let german = std::fs::read_to_string(upstream.root().join("vcs/1/po/de.po")).unwrap();
        assert!(german.contains("msgid \"Hello\""), "{german}");
    }
}

#[actix_web::test]
async fn cleanup_and_layout_addons_rewrite_json_files() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let web = "components/demo/web";
        let cleanup = install(&app, web, admin, json!({"name": "weblate.cleanup.generic"})).await;
        assert_eq!(cleanup.status, StatusCode::CREATED, "{}", cleanup.text());
        ctx.service.tasks().run_due().unwrap();
        operate(&app, admin, "web", "push").await;
        assert_eq!(
            upstream.file("json/cs.json"),
            "{\n    \"c\": \"Cé\",\n    \"b\": \"\",\n    \"a\": \"Á\"\n}\n",
            "the key the template lacks is gone, nothing else moved"
        );
        for body in [
            json!({"name": "weblate.cleanup.blank"}),
            json!({"name": "weblate.json.customize", "configuration": {"indent": 2, "sort_keys": true}}),
        ] {
            let made = install(&app, web, admin, body).await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        }
        ctx.service.tasks().run_due().unwrap();
        operate(&app, admin, "web", "push").await;
        assert_eq!(
            upstream.file("json/cs.json"),
            "{\n    \"c\": \"Cé\",\n    \"a\": \"Á\"\n}\n",
            "blank strings leave at once; the layout waits for the next edit, as in Weblate"
        );
        let c = unit(&app, admin, "web/cs", "c").await;
        translate(&app, admin, c, "Cé!").await;
        operate(&app, admin, "web", "push").await;
        assert_eq!(
            upstream.file("json/cs.json"),
            "{\n  \"a\": \"Á\",\n  \"c\": \"Cé!\"\n}\n"
        );
        assert_eq!(
            upstream.file("json/en.json"),
            "{\n    \"a\": \"A\",\n    \"b\": \"B\",\n    \"c\": \"C\"\n}\n",
            "the template is never touched"
        );
    }
}

#[actix_web::test]
async fn squash_turns_the_unpushed_commits_into_one() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let made = install(
            &app,
            "components/demo/app",
            admin,
            json!({"name": "weblate.git.squash"}),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        ctx.service.tasks().run_due().unwrap();
        let before = upstream.git(&["rev-list", "--count", "main"]);
        for (translation, text) in [("app/cs", "Nashle"), ("app/de", "Auf Wiedersehen")] {
            let id = unit(&app, admin, translation, "Bye").await;
            translate(&app, admin, id, text).await;
        }
        operate(&app, admin, "app", "push").await;
        let after = upstream.git(&["rev-list", "--count", "main"]);
        assert_eq!(
            after.trim().parse::<u32>().unwrap(),
            before.trim().parse::<u32>().unwrap() + 1,
            "two translations' commits pushed as one"
        );
        let message = upstream.git(&["log", "-1", "--format=%B", "main"]);
        assert!(
            message.contains("Co-authored-by: admin <admin@example.com>"),
            "{message}"
        );
        assert!(
            upstream.file("po/cs.po").contains("Nashle")
                && upstream.file("po/de.po").contains("Auf Wiedersehen")
        );
    }
}

#[actix_web::test]
async fn language_consistency_adds_every_language_to_every_component() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let languages = |translations: Value| -> Value {
            let mut codes: Vec<String> = translations["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["language_code"].as_str().unwrap().to_owned())
                .collect();
            codes.sort();
            json!(codes)
        };
        let made = install(
            &app,
            "projects/demo",
            admin,
            json!({"name": "weblate.consistency.languages"}),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        ctx.service.tasks().run_due().unwrap();
        let other = get_json(&app, "/api/components/demo/other/translations/", admin).await;
        assert_eq!(
            languages(other),
            json!(["cs", "de", "en"]),
            "German came from app"
        );
        let web = get_json(&app, "/api/components/demo/web/translations/", admin).await;
        assert_eq!(languages(web), json!(["cs", "de", "en"]));

        // A language added to one component reaches the others.
        let added = call(
            &app,
            Method::POST,
            "/api/components/demo/other/translations/",
            admin,
            Body::Json(json!({"language_code": "fr"})),
        )
        .await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        for component in ["app", "web"] {
            let list = get_json(
                &app,
                &format!("/api/components/demo/{component}/translations/"),
                admin,
            )
            .await;
            assert_eq!(
                languages(list),
                json!(["cs", "de", "en", "fr"]),
                "{component}"
            );
        }
    }
}
