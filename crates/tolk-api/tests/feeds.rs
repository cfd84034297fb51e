//! RSS feeds of recent changes (§27), read back by an XML parser, with the
//! visibility rules of the change lists, on each database.

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, get_json};
use quick_xml::events::Event;
use serde_json::json;
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
    }
}
