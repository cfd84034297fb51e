//! Moving the translation memory in and out as files (`tolk memory
//! import|export`), on each configured database: TMX and Weblate's memory
//! JSON read, imported entries seen by every user, written back in both
//! formats, and a bad file refused without changing anything.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::collections::HashMap;

use serde_json::{Value, json};
use tolk_domain::permission::Subject;
use tolk_service::memory::MemoryFilter;
use tolk_service::memory_transfer::MemoryFormat;
use tolk_service::{PageRequest, Service, ServiceConfig};
use tolk_store::testing::TestDb;

const TMX: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<tmx version="1.4"><header srclang="en-US" datatype="plaintext"/><body>
<tu><tuv xml:lang="en-US"><seg>Open file</seg></tuv><tuv xml:lang="cs"><seg>Otevřít soubor</seg></tuv><tuv xml:lang="de"><seg>Datei öffnen</seg></tuv></tu>
<tu><tuv xml:lang="de"><seg>Nur Deutsch</seg></tuv><tuv xml:lang="cs"><seg>Jen česky</seg></tuv></tu>
<tu><tuv xml:lang="en-US"><seg>Close &amp; save</seg></tuv><tuv xml:lang="cs"><seg>Zavřít a uložit</seg></tuv></tu>
</body></tmx>"#;

/// Every entry Subject::System sees, as (source, target, target language, origin).
fn entries(service: &Service, subject: &Subject) -> Vec<(String, String, i64, String, bool)> {
    let page = service
        .memory()
        .list(
            subject,
            &MemoryFilter::default(),
            PageRequest {
                number: Some(1),
                size: 100,
            },
        )
        .unwrap();
    let mut found: Vec<_> = page
        .items
        .into_iter()
        .map(|e| {
            (
                e.source,
                e.target,
                e.target_language_id,
                e.origin,
                e.from_file,
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn memory_files_import_and_export_as_weblate_writes_them() {
    for db in TestDb::all() {
        let service = Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
        let map = HashMap::from([("en-US".to_owned(), "en".to_owned())]);

        // TMX: every variant but the source language's is a translation of
        // it; a unit without a source variant is skipped.
        let read = service
            .memory()
            .import("/some/where/Glossary.TMX", TMX.as_bytes(), &map)
            .unwrap();
        assert_eq!(read, 3);
        // A plain user sees what was imported from a file.
        let user = common::user(&service, "tm", "T M", false);
        let seen = entries(&service, &Subject::user(user, false));
        let texts: Vec<(&str, &str, &str, bool)> = seen
            .iter()
            .map(|(s, t, _, o, f)| (s.as_str(), t.as_str(), o.as_str(), *f))
            .collect();
        assert_eq!(
            texts,
            [
                ("Close & save", "Zavřít a uložit", "glossary.tmx", true),
                ("Open file", "Datei öffnen", "glossary.tmx", true),
                ("Open file", "Otevřít soubor", "glossary.tmx", true),
            ]
        );
        // Importing it again adds nothing.
        service
            .memory()
            .import("glossary.tmx", TMX.as_bytes(), &map)
            .unwrap();
        assert_eq!(entries(&service, &Subject::System).len(), 3);

        // JSON as Weblate writes it; an unknown language refuses the file whole.
        let json_file = json!([
            {"source": "Save", "target": "Uložit", "source_language": "en",
             "target_language": "cs", "origin": "x", "category": 1, "status": 1},
        ]);
        let bytes = serde_json::to_vec(&json_file).unwrap();
        assert_eq!(
            service.memory().import("dump.json", &bytes, &map).unwrap(),
            1
        );
        let bad = json!([
            {"source": "A", "target": "B", "source_language": "en", "target_language": "cs"},
            {"source": "A", "target": "B", "source_language": "en", "target_language": "xx-nowhere"},
        ]);
        let refused = service
            .memory()
            .import("bad.json", &serde_json::to_vec(&bad).unwrap(), &map)
            .unwrap_err();
        assert!(
            refused.to_string().contains("xx_nowhere")
                || format!("{refused:?}").contains("xx_nowhere"),
            "{refused:?}"
        );
        for (name, bytes) in [
            ("broken.json", b"{\"not\": \"a list\"}".as_slice()),
            ("broken.tmx", b"<tmx><body><tu>".as_slice()),
            ("memory.csv", b"a,b".as_slice()),
        ] {
            assert!(
                service.memory().import(name, bytes, &map).is_err(),
                "{name}"
            );
        }
        assert_eq!(
            entries(&service, &Subject::System).len(),
            4,
            "nothing of a bad file"
        );

        // Exported as Weblate's JSON: every entry, with its languages and category.
        let mut out = Vec::new();
        let written = service
            .memory()
            .export(MemoryFormat::Json, &mut out)
            .unwrap();
        assert_eq!(written, 4);
        let exported: Vec<Value> = serde_json::from_slice(&out).unwrap();
        let mut rows: Vec<(String, String, String, String, i64, i64)> = exported
            .iter()
            .map(|e| {
                (
                    e["source"].as_str().unwrap().to_owned(),
                    e["target"].as_str().unwrap().to_owned(),
                    e["source_language"].as_str().unwrap().to_owned(),
                    e["target_language"].as_str().unwrap().to_owned(),
                    e["category"].as_i64().unwrap(),
                    e["status"].as_i64().unwrap(),
                )
            })
            .collect();
        rows.sort();
        let row = |s: &str, t: &str, l: &str| {
            (
                s.to_owned(),
                t.to_owned(),
                "en".to_owned(),
                l.to_owned(),
                1,
                1,
            )
        };
        assert_eq!(
            rows,
            [
                row("Close & save", "Zavřít a uložit", "cs"),
                row("Open file", "Datei öffnen", "de"),
                row("Open file", "Otevřít soubor", "cs"),
                row("Save", "Uložit", "cs"),
            ]
        );
        assert_eq!(exported[0]["origin"], json!("glossary.tmx"));

        // The JSON reads back into an empty memory as the same entries,
        // and so does the TMX.
        for format in [MemoryFormat::Json, MemoryFormat::Tmx] {
            let mut out = Vec::new();
            service.memory().export(format, &mut out).unwrap();
            let other_db = TestDb::sqlite();
            let other = Service::new(other_db.store.clone(), ServiceConfig::default()).unwrap();
            let name = if format == MemoryFormat::Json {
                "m.json"
            } else {
                "m.tmx"
            };
            assert_eq!(
                other.memory().import(name, &out, &HashMap::new()).unwrap(),
                4
            );
            let texts = |s: &Service| -> Vec<(String, String, i64)> {
                entries(s, &Subject::System)
                    .into_iter()
                    .map(|(s, t, l, _, _)| (s, t, l))
                    .collect()
            };
            assert_eq!(texts(&other), texts(&service), "{name}");
        }
    }
}
