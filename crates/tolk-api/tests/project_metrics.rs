//! A project's metrics (§21.2), on each database: every translation's
//! figures as its statistics give them (failing characters counted from
//! the strings), Weblate's shape, the CSV and OpenMetrics renderings, and
//! shared components under their path.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, assert_same_shape, call, get_json, sample, with_gettext};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

const METRICS: &str = "/api/projects/demo/metrics/";

#[actix_web::test]
async fn every_translation_s_figures_by_component_and_language() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let metrics = get_json(&app, METRICS, None).await;
        let app_metrics = metrics["app"].as_object().unwrap();
        assert_eq!(metrics.as_object().unwrap().len(), 1);
        let codes: Vec<&String> = app_metrics.keys().collect();
        assert_eq!(codes, ["ar", "en", "ja", "pt_BR", "ru"], "by language name");
        let theirs = sample("33-project-metrics");
        assert_same_shape(&metrics["app"]["ja"], &theirs["app"]["cs"], "metrics");

        for (code, figures) in app_metrics {
            let uri = format!("/api/translations/demo/app/{code}/statistics/");
            let stats = get_json(&app, &uri, None).await;
            for key in [
                "name",
                "translated",
                "translated_words",
                "translated_chars",
                "total",
                "total_words",
                "total_chars",
                "fuzzy",
                "fuzzy_words",
                "fuzzy_chars",
                "failing",
                "approved",
                "approved_words",
                "approved_chars",
                "suggestions",
                "comments",
                "translated_percent",
                "translated_words_percent",
                "translated_chars_percent",
                "approved_percent",
                "approved_words_percent",
                "approved_chars_percent",
            ] {
                assert_eq!(figures[key], stats[key], "{code} {key}");
            }
            // Failing words and characters, counted from the strings (of
            // the translations: the source strings' checks are not
            // counted in the source language's figures).
            if code == "en" {
                continue;
            }
            let uri = format!("/api/translations/demo/app/{code}/units/?page_size=1000");
            let units = get_json(&app, &uri, None).await;
            let failing: Vec<&Value> = units["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|u| u["has_failing_check"] == json!(true))
                .collect();
            let chars: usize = failing
                .iter()
                .map(|u| {
                    let forms: Vec<&str> = u["source"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| f.as_str().unwrap())
                        .collect();
                    forms.join("\u{1e}\u{1e}").chars().count()
                })
                .sum();
            let words: i64 = failing
                .iter()
                .map(|u| u["num_words"].as_i64().unwrap())
                .sum();
            assert_eq!(figures["failing"], json!(failing.len()), "{code}");
            assert_eq!(figures["failing_words"], json!(words), "{code}");
            assert_eq!(figures["failing_chars"], json!(chars), "{code}");
        }
        assert!(
            app_metrics
                .values()
                .any(|f| f["failing_chars"].as_i64().unwrap() > 0),
            "some strings fail checks"
        );

        // CSV: one row per figure.
        let csv = call(
            &app,
            Method::GET,
            &format!("{METRICS}?format=csv"),
            None,
            Body::None,
        )
        .await;
        assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
        let text = csv.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "component,language,metric,name,value");
        assert_eq!(lines.len(), 1 + 5 * 23);
        let translated = format!(
            "app,ja,translated,Japanese,{}",
            app_metrics["ja"]["translated"]
        );
        assert!(lines.contains(&translated.as_str()), "{text}");

        // OpenMetrics.
        let uri = format!("{METRICS}?format=openmetrics");
        let text = call(&app, Method::GET, &uri, None, Body::None).await;
        assert!(
            text.header("content-type")
                .unwrap()
                .starts_with("application/openmetrics-text")
        );
        let text = text.text();
        assert!(
            text.contains(
                "weblate_translation_info{component=\"app\",language=\"ja\",name=\"Japanese\"} 1\n"
            ),
            "{text}"
        );
        let total = format!(
            "weblate_total{{component=\"app\",language=\"ja\"}} {}\n",
            app_metrics["ja"]["total"]
        );
        assert!(text.contains(&total), "{text}");
        assert!(
            text.contains(
                "weblate_strings_with_suggestions{component=\"app\",language=\"ja\"} 0\n"
            )
        );
        assert!(text.contains("# TYPE weblate_last_update_timestamp gauge\n"));
        assert!(text.ends_with("# EOF\n"));

        // A component shared into a project with one of the same path.
        let make = json!({"name": "Other", "slug": "other", "web": "https://other.example/"});
        let made = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(make),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED);
        let own = json!({"name": "App", "slug": "app", "repo": "weblate://demo/app", "filemask": "po/*.po", "file_format": "po"});
        let made = call(
            &app,
            Method::POST,
            "/api/projects/other/components/",
            admin,
            Body::Json(own),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        ctx.service.tasks().run_due().unwrap();
        let share = json!({"project_slug": "other"});
        let shared = call(
            &app,
            Method::POST,
            "/api/components/demo/app/links/",
            admin,
            Body::Json(share),
        )
        .await;
        assert_eq!(shared.status, StatusCode::CREATED, "{}", shared.text());
        let demo_app = get_json(&app, "/api/components/demo/app/", admin).await;
        let other = get_json(&app, "/api/projects/other/metrics/", admin).await;
        let keys: Vec<&String> = other.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["app", &format!("app@{}", demo_app["id"])]);
        assert_eq!(other["app"]["ja"]["total"], app_metrics["ja"]["total"]);

        // Hidden projects are not found.
        common::make_private(&ctx, "demo");
        let hidden = call(&app, Method::GET, METRICS, Some(&ctx.jane), Body::None).await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let project = get_json(&app, "/api/projects/demo/", admin).await;
        assert_eq!(
            project["metrics_url"],
            json!(format!("http://{}{METRICS}", common::HOST))
        );
    }
}
