//! RSS feeds of recent changes (§27), read back by an XML parser, with the
//! visibility rules of the change lists, on each database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, get_json};
use quick_xml::events::Event;
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

/// The channel's title and each item's (title, link, description,
/// guid), read by an XML parser.
fn read_feed(xml: &[u8]) -> (String, Vec<[String; 4]>) {
    let mut reader = quick_xml::Reader::from_reader(xml);
    reader.config_mut().check_end_names = true;
    let (mut path, mut channel, mut items) = (Vec::<String>::new(), String::new(), Vec::new());
    let mut buf = Vec::new();
    loop {
        // Text comes in runs, entity references (`&amp;`) apart.
        let text = match reader.read_event_into(&mut buf).unwrap() {
            Event::Start(e) => {
                let qname = e.name();
                let name: &str = qname.as_ref();
                if name == "item" {
                    items.push([String::new(), String::new(), String::new(), String::new()]);
                }
                path.push(name.to_owned());
                None
            }
            Event::End(_) => {
                path.pop();
                None
            }
            Event::Text(t) => Some(t.xml10_content().into_owned()),
            Event::GeneralRef(r) => Some(
                match r.into_inner().as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    other => panic!("unexpected entity {other}"),
                }
                .to_owned(),
            ),
            Event::Eof => break,
            _ => None,
        };
        let Some(text) = text else {
            buf.clear();
            continue;
        };
        let at: Vec<&str> = path.iter().map(String::as_str).collect();
        match at.as_slice() {
            ["rss", "channel", "title"] => channel.push_str(&text),
            ["rss", "channel", "item", field] => {
                let slot = ["title", "link", "description", "guid"]
                    .iter()
                    .position(|f| f == field);
                if let (Some(slot), Some(item)) = (slot, items.last_mut()) {
                    item[slot].push_str(&text);
                }
            }
            _ => {}
        }
        buf.clear();
    }
    (channel, items)
}

/// What Python's feedparser, a feed reader in wide use, makes of a feed:
/// whether it found a problem (`bozo`), the feed's version, and each
/// entry's link; `None` when feedparser is not installed, which fails
/// with `TOLK_REQUIRE_FEEDPARSER=1` (as CI sets).
fn feedparser(xml: &[u8]) -> Option<Value> {
    use std::io::Write;
    const READ: &str = "import feedparser, json, sys\n\
d = feedparser.parse(sys.stdin.buffer.read())\n\
print(json.dumps({'bozo': int(d.bozo), 'version': d.version, 'title': d.feed.get('title'), \
'links': [e.get('link') for e in d.entries], 'ids': [e.get('id') for e in d.entries]}))\n";
    let mut child = std::process::Command::new("python3")
        .args(["-c", READ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(xml).unwrap();
    let out = child.wait_with_output().unwrap();
    if !out.status.success() {
        let words = String::from_utf8_lossy(&out.stderr);
        assert!(
            words.contains("No module named 'feedparser'")
                && std::env::var("TOLK_REQUIRE_FEEDPARSER").as_deref() != Ok("1"),
            "feedparser: {words}"
        );
        eprintln!("feedparser is not installed: skipping its reading (pip install feedparser)");
        return None;
    }
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// Asserts that feedparser reads `xml` as a sound RSS 2.0 feed of
/// `count` entries, each linking to its change.
fn assert_readable(xml: &[u8], count: usize, what: &str) {
    let Some(read) = feedparser(xml) else {
        return;
    };
    assert_eq!(read["bozo"], json!(0), "{what}: {read}");
    assert_eq!(read["version"], json!("rss20"), "{what}");
    let links = read["links"].as_array().unwrap();
    assert_eq!(links.len(), count, "{what}");
    assert_eq!(
        read["ids"], read["links"],
        "{what}: each item's guid is its link"
    );
    assert!(
        links
            .iter()
            .all(|l| l.as_str().unwrap().contains("/api/changes/")),
        "{what}: {read}"
    );
}

#[actix_web::test]
async fn feeds_list_the_newest_visible_changes_linking_to_them() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let units = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=NOT%20has:plural",
            admin,
        )
        .await;
        for n in 0..12 {
            let uri = units["results"][n]["url"].as_str().unwrap();
            let edit = json!({"target": [format!("訳 {n}")], "state": 20});
            let edited = call(&app, Method::PATCH, uri, admin, Body::Json(edit)).await;
            assert_eq!(edited.status, StatusCode::OK);
        }
        let feed = call(
            &app,
            Method::GET,
            "/exports/rss/demo/app/ja/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(feed.status, StatusCode::OK, "{}", feed.text());
        assert_eq!(
            feed.header("content-type"),
            Some("application/rss+xml; charset=utf-8")
        );
        let (title, items) = read_feed(&feed.body);
        assert_eq!(title, "Recent changes in demo/app — ja");
        assert_readable(&feed.body, 10, "the translation's feed");
        assert_eq!(items.len(), 10);
        let newest = get_json(&app, "/api/translations/demo/app/ja/changes/", None).await;
        let newest = &newest["results"][0];
        let [title, link, description, guid] = &items[0];
        assert_eq!(title, newest["action_name"].as_str().unwrap());
        assert_eq!(link, newest["url"].as_str().unwrap());
        assert_eq!(guid, link);
        assert!(
            description.starts_with("Translation changed at ")
                || description.starts_with("New translation at "),
            "{description}"
        );
        assert!(
            description.ends_with(" on demo/app — ja by admin"),
            "{description}"
        );
        // Every link answers.
        let path = link
            .split_once("/api/")
            .map(|(_, rest)| format!("/api/{rest}"))
            .unwrap();
        let change = get_json(&app, &path, None).await;
        assert_eq!(change["id"], newest["id"]);

        for uri in [
            "/exports/rss/",
            "/exports/rss/language/ja/",
            "/exports/rss/demo/",
            "/exports/rss/demo/app/",
            "/exports/rss/demo/-/ja/",
        ] {
            let feed = call(&app, Method::GET, uri, None, Body::None).await;
            assert_eq!(feed.status, StatusCode::OK, "{uri}");
            assert_eq!(read_feed(&feed.body).1.len(), 10, "{uri}");
            assert_readable(&feed.body, 10, uri);
        }
        let unknown = call(
            &app,
            Method::GET,
            "/exports/rss/language/xx-nowhere/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        // Hidden objects are not found; the site feed leaves their changes out.
        common::make_private(&ctx, "demo");
        let hidden = call(
            &app,
            Method::GET,
            "/exports/rss/demo/app/ja/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let site = call(&app, Method::GET, "/exports/rss/", None, Body::None).await;
        assert!(read_feed(&site.body).1.is_empty());
        assert_readable(&site.body, 0, "an empty feed");
    }
}
