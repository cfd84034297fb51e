//! Every corpus format uploaded into a component of another format (PO,
//! or CSV for gettext's own files) and downloaded back: each string the
//! file translates is in the stored file afterwards, and in the download
//! converted back to the file's format where Tolk writes it. The
//! component holds the file's strings untranslated, read as the upload
//! reads them (by the file's extension), so every string is found.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::collections::HashMap;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, corpus, multipart};
use tolk_domain::component::ComponentSettings;
use tolk_formats::{State, Unit};
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

/// One file of each corpus format, with the language it translates into.
const FILES: &[(&str, &str)] = &[
    ("android/antennapod-values-ar-strings.xml", "ar"),
    ("arb/flutter-gallery-intl_ar.arb", "ar"),
    ("csv/smile-storedelivery-de_DE.csv", "de"),
    ("go-i18n/matterpoll-active.ja.json", "ja"),
    ("i18next/jitsi-meet-main-ru.json", "ru"),
    ("json/laravel-lang-ar.json", "ar"),
    ("json-nested/vee-validate-ar.json", "ar"),
    ("mo/sphinx-ja.mo", "ja"),
    ("php/laravel-lang-de-auth.php", "de"),
    ("po/gnome-calculator-es.po", "es"),
    (
        "properties/hibernate-validator-ValidationMessages_pt_BR.properties",
        "pt_BR",
    ),
    ("resx/humanizer-Resources.ja.resx", "ja"),
    ("strings/sparkle-ar-SUUpdateAlert.strings", "ar"),
    ("stringsdict/mastodon-ios-ar-Intents.stringsdict", "ar"),
    ("tbx/weblate-fixture-cs.tbx", "cs"),
    ("ts/flameshot-ja.ts", "ja"),
    ("webextension/ublock-ar-messages.json", "ar"),
    ("xliff12/kimai-messages-ta.xlf", "ta"),
    (
        "xliff20/oasis-xliff20-testsuite-testTranslateWithTarget.xlf",
        "fr",
    ),
    ("yaml/rails-i18n-pt-BR.yml", "pt_BR"),
];

/// The format an upload of `name` is read in: the first readable format
/// with its extension, the component's own first, else the codec named
/// by it, as its content says (the server's rule).
fn upload_format(name: &str, component: &str, bytes: &[u8]) -> &'static str {
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    let readable = tolk_formats::uploadable();
    let fits = |f: &&tolk_formats::FormatInfo| {
        f.extensions.contains(&extension) && readable.contains(&f.id)
    };
    tolk_formats::find(component)
        .filter(|f| fits(f))
        .or_else(|| tolk_formats::FORMATS.iter().find(fits))
        .map(|f| f.id)
        .or_else(|| readable.into_iter().find(|id| *id == extension))
        .map(|id| tolk_formats::by_content(id, bytes))
        .unwrap_or_else(|| panic!("no readable format for {name}"))
}

/// The component's format: another one than the file's (CSV for
/// gettext's own files: XLIFF would name each string by an id of its own,
/// which no other format's string has).
fn component_format(name: &str) -> &'static str {
    if name.ends_with(".po") || name.ends_with(".mo") {
        "csv"
    } else {
        "po"
    }
}

/// A string's identity across formats: context and source forms.
type Key = (String, String);

fn key(unit: &Unit) -> Key {
    (unit.context.clone(), unit.source.join("\u{1e}"))
}

/// A CSV cell as written before a spreadsheet's formula guard (a quote
/// before a leading `=`, `+`, `-`, `@`, `|` or `%`) was put in front of it.
fn unguarded(cell: &str) -> String {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '|', '%']) => rest.to_owned(),
        _ => cell.to_owned(),
    }
}

/// The translated strings of a file as `format` reads it; `guarded`: a
/// CSV download whose cells carry the formula guard.
fn translations(format: &str, name: &str, bytes: &[u8], guarded: bool) -> HashMap<Key, String> {
    tolk_formats::parse(format, name, bytes)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .units()
        .into_iter()
        .filter(|u| u.target.iter().any(|t| !t.is_empty()))
        .map(|mut u| {
            if guarded {
                u.source = u.source.iter().map(|s| unguarded(s)).collect();
                u.target = u.target.iter().map(|t| unguarded(t)).collect();
            }
            (key(&u), u.target.join("\u{1e}"))
        })
        .collect()
}

/// One corpus file and its component.
struct Case {
    path: &'static str,
    language: &'static str,
    slug: String,
    component: &'static str,
    read_as: &'static str,
    bytes: Vec<u8>,
}

impl Case {
    fn new(path: &'static str, language: &'static str) -> Case {
        let component = component_format(path);
        let bytes = std::fs::read(corpus(path)).unwrap();
        Case {
            path,
            language,
            slug: path.split('/').next().unwrap().replace(['-', '_'], ""),
            component,
            read_as: upload_format(path, component, &bytes),
            bytes,
        }
    }

    fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap()
    }

    /// The component's file: the corpus file's strings, untranslated.
    fn untranslated(&self) -> (String, Vec<u8>) {
        let mut seen = std::collections::HashSet::new();
        let units: Vec<Unit> = tolk_formats::parse(self.read_as, self.name(), &self.bytes)
            .unwrap()
            .units()
            .into_iter()
            .filter(|u| u.source.iter().any(|s| !s.is_empty()) && seen.insert(key(u)))
            .map(|u| Unit {
                target: vec![String::new(); u.target.len().max(1)],
                state: State::Untranslated,
                ..u
            })
            .collect();
        let extension = self.component;
        let path = format!("{}/{}.{extension}", self.slug, self.language);
        let bytes = tolk_formats::write_new(self.component, &path, None, &units)
            .unwrap_or_else(|e| panic!("{}: {e}", self.path));
        (path, bytes)
    }
}

#[actix_web::test]
async fn every_corpus_format_uploads_into_another_format_and_downloads_back() {
    let cases: Vec<Case> = FILES.iter().map(|(p, l)| Case::new(p, l)).collect();
    let files: Vec<(String, Vec<u8>)> = cases.iter().map(Case::untranslated).collect();
    for db in TestDb::all() {
        let listed: Vec<(&str, Vec<u8>)> =
            files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
        let upstream = Upstream::new(&listed);
        let ctx = common::context(db, &upstream);
        for case in &cases {
            let extension = case.component;
            common::add_component(
                &ctx,
                ComponentSettings {
                    name: case.slug.clone(),
                    slug: case.slug.clone(),
                    repo: upstream.url(),
                    filemask: format!("{}/*.{extension}", case.slug),
                    file_format: case.component.into(),
                    ..Default::default()
                },
            );
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        for case in &cases {
            let file = format!(
                "/api/translations/demo/{}/{}/file/",
                case.slug, case.language
            );
            let body = multipart(&[], &[("file", case.name(), &case.bytes)]);
            let reply = call(&app, Method::POST, &file, admin, body).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{}: {}",
                case.path,
                reply.text()
            );
            let answer = reply.json();
            let count = |field: &str| answer[field].as_u64().unwrap();
            assert_eq!(
                count("accepted") + count("skipped") + count("not_found"),
                count("total"),
                "{}",
                case.path
            );
            let units = tolk_formats::parse(case.read_as, case.name(), &case.bytes)
                .unwrap()
                .units();
            // Left out: strings the file does not translate (or marks as
            // needing editing), plurals of another number of forms, and
            // plurals whose source forms the component's format holds
            // otherwise (a keyed file repeats the key once per form of its
            // language where a catalogue has two; CSV joins them).
            let left_out: Vec<(&str, &str)> = answer["issues"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| (i["key"].as_str().unwrap(), i["result"].as_str().unwrap()))
                .collect();
            for (key, result) in &left_out {
                if *result == "not_found" {
                    let plural = units
                        .iter()
                        .any(|u| u.context_or_source() == *key && u.source.len() > 1);
                    assert!(plural, "{}: {key} not found", case.path);
                }
            }
            let skipped: Vec<&str> = left_out.iter().map(|(key, _)| *key).collect();
            let wanted: HashMap<Key, String> = units
                .into_iter()
                .filter(|u| u.state == State::Translated || u.state == State::Approved)
                .filter(|u| !skipped.contains(&u.context_or_source()))
                .map(|u| (key(&u), u.target.join("\u{1e}")))
                .collect();
            assert_eq!(
                u64::try_from(wanted.len()).unwrap(),
                count("accepted"),
                "{}: {answer}",
                case.path
            );
            assert!(count("accepted") > 0, "{}: {answer}", case.path);

            let stored = call(&app, Method::GET, &file, admin, Body::None).await;
            assert_eq!(stored.status, StatusCode::OK, "{}", case.path);
            let got = translations(case.component, "stored", &stored.body, false);
            for (key, target) in &wanted {
                assert_eq!(
                    got.get(key),
                    Some(target),
                    "{}: {key:?} in the stored file",
                    case.path
                );
            }
            let back = match case.read_as {
                "po" | "csv" | "tbx" => Some(case.read_as),
                "xliff" => Some("xliff"),
                _ => None,
            };
            if let Some(format) = back {
                let converted = call(
                    &app,
                    Method::GET,
                    &format!("{file}?format={format}"),
                    admin,
                    Body::None,
                )
                .await;
                assert_eq!(
                    converted.status,
                    StatusCode::OK,
                    "{}: {}",
                    case.path,
                    converted.text()
                );
                let got = translations(format, "converted", &converted.body, format == "csv");
                for (key, target) in &wanted {
                    assert_eq!(
                        got.get(key),
                        Some(target),
                        "{}: {key:?} converted back",
                        case.path
                    );
                }
            }
        }
    }
}
