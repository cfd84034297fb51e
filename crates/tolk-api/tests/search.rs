//! The search language (`q=`, §30) end to end on a component of corpus
//! catalogues: every answer is checked against the same question asked of
//! the files themselves (read with `tolk-formats`), on each database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, context, corpus, get_json, upstream};
use serde_json::{Value, json};
use tolk_formats::{State, Unit};
use tolk_service::testing::TestDb;

/// The Japanese catalogue as the component reads it.
fn japanese() -> Vec<Unit> {
    tolk_formats::parse(
        "po",
        "ja.po",
        &std::fs::read(corpus("po/django-conf-ja.po")).unwrap(),
    )
    .unwrap()
    .units()
}

fn encoded(q: &str) -> String {
    form_urlencoded::byte_serialize(q.as_bytes()).collect()
}

/// Whether any form of `forms` holds `needle` in any case.
fn holds(forms: &[String], needle: &str) -> bool {
    forms
        .iter()
        .any(|f| f.to_lowercase().contains(&needle.to_lowercase()))
}

#[actix_web::test]
async fn searches_answer_what_the_files_say() {
    let regex = regex::Regex::new("^[A-C][a-z]+ian$").unwrap();
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let units = japanese();
        let count = |q: &str| {
            let path = format!("/api/translations/demo/app/ja/units/?q={}", encoded(q));
            let app = &app;
            async move { get_json(app, &path, None).await["count"].clone() }
        };
        let expect = |keep: &dyn Fn(&Unit) -> bool| json!(units.iter().filter(|u| keep(u)).count());

        // A bare word: source, translation or context, in any case.
        let word = |u: &Unit| {
            holds(&u.source, "ese")
                || holds(&u.target, "ese")
                || holds(std::slice::from_ref(&u.context), "ese")
        };
        assert_eq!(count("ESE").await, expect(&word));
        assert!(expect(&word).as_u64().unwrap() > 1);
        assert_eq!(count("source:=Arabic").await, json!(1));
        // Regular expressions, case-sensitive as in Weblate.
        assert_eq!(
            count("source:r\"^[A-C][a-z]+ian$\"").await,
            expect(&|u| regex.is_match(&u.source[0]))
        );
        assert!(expect(&|u| regex.is_match(&u.source[0])).as_u64().unwrap() > 1);
        assert_eq!(count("source:r\"^arabic$\"").await, json!(0));
        assert_eq!(
            count("source:arabic").await,
            expect(&|u| holds(&u.source, "arabic"))
        );
        assert_eq!(count("has:plural").await, expect(&|u| u.source.len() > 1));
        assert_eq!(
            count("has:context").await,
            expect(&|u| !u.context.is_empty())
        );
        assert_eq!(
            count("state:translated NOT source:e").await,
            expect(&|u| u.state == State::Translated && !holds(&u.source, "e"))
        );
        assert_eq!(
            count("(source:a OR source:o) has:context").await,
            expect(&|u| (holds(&u.source, "a") || holds(&u.source, "o")) && !u.context.is_empty())
        );
        // Wildcards of SQL are plain text here.
        assert_eq!(
            count("%").await,
            expect(&|u| holds(&u.source, "%") || holds(&u.target, "%"))
        );
        assert_eq!(count("position:[1 to 10]").await, json!(10));
        assert_eq!(count("position:>10").await, json!(units.len() - 10));
        assert_eq!(count("added:<2000").await, json!(0));
        assert_eq!(count("added:today").await, json!(units.len()));
        assert_eq!(
            count("language:ja project:demo component:app").await,
            json!(units.len())
        );
        assert_eq!(count("language:cs").await, json!(0));

        // Across translations: the language narrows /api/units/.
        let global = get_json(
            &app,
            &format!("/api/units/?q={}", encoded("source:=Arabic")),
            None,
        )
        .await;
        assert_eq!(global["count"], 5, "the source and four languages");
        let japanese_only = get_json(
            &app,
            &format!("/api/units/?q={}", encoded("source:=Arabic language:ja")),
            None,
        )
        .await;
        assert_eq!(japanese_only["count"], 1);
        let id = japanese_only["results"][0]["id"].as_i64().unwrap();
        let other = global["results"][0]["id"].as_i64().unwrap();
        assert_eq!(count(&format!("id:{id},{other}")).await, json!(1));

        // An edit not yet committed is pending.
        let edit = json!({"target": ["アラビア語（編集）"], "state": 20});
        let edited = call(
            &app,
            Method::PATCH,
            &format!("/api/units/{id}/"),
            Some(ctx.admin.as_str()),
            Body::Json(edit),
        )
        .await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        assert_eq!(count("is:pending").await, json!(1));
        // Its change event: by admin, today, a content change.
        assert_eq!(count("changed_by:admin").await, json!(1));
        assert_eq!(count("changed:today changed_by:admin").await, json!(1));
        assert_eq!(count("change_action:translation-changed").await, json!(1));
        assert_eq!(
            count("changed:<2000 changed_by:admin").await,
            json!(0),
            "one event"
        );
        assert_eq!(count("changed_by:nobody").await, json!(0));
        assert_eq!(count("changed_by:\"\"").await, json!(0));
        // A field without a value matches nothing, as in Weblate.
        for empty in ["source:", "state:>=", "has:", "source: OR state:translated"] {
            let expected = if empty.contains("OR") {
                expect(&|u| u.state == State::Translated)
            } else {
                json!(0)
            };
            assert_eq!(count(empty).await, expected, "{empty}");
        }
        assert_eq!(count("target:編集").await, json!(1));

        // Malformed queries and fields without data yet are 400s naming why.
        for (q, why) in [
            ("a AND b OR c", "Mixed operators!"),
            ("source:r\"(\"", "Invalid regular expression"),
            ("has:variant", "has:variant"),
            ("colour:red", "Unknown search field: colour"),
            ("position:first", "Invalid number: first"),
            (
                "change_action:dancing",
                "Unsupported change action: dancing",
            ),
            ("source:\"open", "unterminated quote"),
        ] {
            let path = format!("/api/translations/demo/app/ja/units/?q={}", encoded(q));
            let answer = call(&app, Method::GET, &path, None, Body::None).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{q}");
            let detail: Value = answer.json();
            assert!(detail.to_string().contains(why), "{q}: {detail}");
        }
    }
}

/// Every construct of Rust's regular expressions gives, on each database,
/// the units the same expression finds in the file itself: one engine
/// runs them whatever stores the units, also under negations, beside
/// other conditions, several in one query, and across translations.
#[actix_web::test]
async fn regular_expressions_answer_alike_on_every_database() {
    let patterns = [
        r"(?P<n>a+)n",
        r"s\z",
        r"\p{Greek}|\p{Han}",
        r"a{1000}",
        r"(?i)^ARABIC$",
        r"\bJa",
        r"(?m)^[A-Z]",
        r"([a-z ]{10}){3}",
        // Seconds of PostgreSQL's own engine per request, once.
        r"([a-z ]{100}){100}",
        r"^\S+$",
        r"[[:upper:]]{2}",
        r"\d",
        r"^$",
    ];
    let separator = tolk_domain::unit::PLURAL_SEPARATOR;
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let units = japanese();
        let count = |q: String| {
            let path = format!("/api/translations/demo/app/ja/units/?q={}", encoded(&q));
            let app = &app;
            async move {
                let answer = call(app, Method::GET, &path, None, Body::None).await;
                assert_eq!(answer.status, StatusCode::OK, "{q}: {}", answer.text());
                answer.json()["count"].clone()
            }
        };
        for pattern in patterns {
            let regex = regex::Regex::new(pattern).unwrap();
            let source = |u: &Unit| regex.is_match(&u.source.join(separator));
            let target = |u: &Unit| regex.is_match(&u.target.join(separator));
            let expect =
                |keep: &dyn Fn(&Unit) -> bool| json!(units.iter().filter(|u| keep(u)).count());
            let quoted = format!("r\"{pattern}\"");
            assert_eq!(
                count(format!("source:{quoted}")).await,
                expect(&source),
                "{pattern}"
            );
            assert_eq!(
                count(format!("target:{quoted}")).await,
                expect(&target),
                "{pattern}"
            );
            assert_eq!(
                count(format!("NOT source:{quoted}")).await,
                expect(&|u| !source(u)),
                "NOT {pattern}"
            );
            assert_eq!(
                count(format!("source:{quoted} OR has:context")).await,
                expect(&|u| source(u) || !u.context.is_empty()),
                "{pattern} OR"
            );
            assert_eq!(
                count(format!(
                    "NOT (source:{quoted} AND target:r\"a\") state:translated"
                ))
                .await,
                expect(&|u| !(source(u) && u.target.join(separator).contains('a'))
                    && u.state == State::Translated),
                "NOT ({pattern} AND …)"
            );
        }
        // Beside a long chain of alternatives (written as a balanced tree,
        // never as deep as it is long).
        let chain = vec!["zzq"; 250].join(" OR ");
        assert_eq!(
            count(format!("source:r\"^A\" ({chain} OR Arabic)")).await,
            json!(
                units
                    .iter()
                    .filter(|u| u.source[0].starts_with('A')
                        && (holds(&u.source, "arabic")
                            || holds(&u.target, "arabic")
                            || holds(std::slice::from_ref(&u.context), "arabic")))
                    .count()
            )
        );
        // Across translations, the same pattern in every language.
        let global = get_json(
            &app,
            &format!("/api/units/?q={}", encoded(r#"source:r"^Arabic$""#)),
            None,
        )
        .await;
        assert_eq!(global["count"], 5, "the source and four languages");
    }
}

#[actix_web::test]
async fn site_search_finds_names_the_caller_may_see() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let search = |q: &'static str, token: Option<&str>| {
            let app = &app;
            let token = token.map(str::to_owned);
            async move { get_json(app, &format!("/api/search/?q={q}"), token.as_deref()).await }
        };
        let admin_token = Some(ctx.admin.as_str());
        assert_eq!(
            search("dem", None).await,
            json!([{"url": "/projects/demo/", "name": "Demo", "category": "Project"}])
        );
        assert_eq!(
            search("APP", None).await,
            json!([{"url": "/projects/demo/app/", "name": "Demo/App", "category": "Component"}])
        );
        let czech = search("czech", None).await;
        assert!(
            czech
                .as_array()
                .unwrap()
                .iter()
                .all(|h| h["category"] == json!("Language"))
        );
        assert!(
            czech.as_array().unwrap().contains(
                &json!({"url": "/languages/cs/", "name": "Czech", "category": "Language"})
            )
        );
        // Users only for signed-in callers; nothing for an empty query.
        assert_eq!(search("admin", None).await, json!([]));
        let signed_in = search("admin", admin_token).await;
        assert_eq!(
            signed_in,
            json!([{"url": "/user/admin/", "name": "admin", "category": "User"}])
        );
        assert_eq!(search("", admin_token).await, json!([]));
        // A private project is not found by those who cannot see it.
        common::make_private(&ctx, "demo");
        assert_eq!(search("dem", None).await, json!([]));
        assert_eq!(
            search("dem", admin_token).await.as_array().unwrap().len(),
            1
        );
    }
}
