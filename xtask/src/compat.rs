//! The table of served operations in `docs/compatibility.md`, written
//! from the OpenAPI document: one row per operation (method, path, the
//! first paragraph of its description), grouped by tag.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// Where the generated part of the page begins; it runs to the end.
const HEADING: &str = "## Operations Tolk serves";
/// Tags listed after the API's own, in this order.
const LAST: &[&str] = &["exports", "operations", "hooks"];
/// Methods, in the order the document lists them.
const METHODS: &[&str] = &["get", "put", "post", "delete", "patch"];

/// The generated section of the page for the document `doc`.
pub fn section(doc: &Value) -> String {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    for (path, item) in &paths {
        for method in METHODS {
            let Some(operation) = item.get(*method) else {
                continue;
            };
            let tag = operation["tags"][0].as_str().unwrap_or("other").to_owned();
            let summary = operation["summary"].as_str().unwrap_or("");
            let description = operation["description"].as_str().unwrap_or("");
            let first = description.split("\n\n").next().unwrap_or("");
            let what = format!("{summary} {first}")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace('|', "\\|");
            let row = format!("| {} | `{path}` | {what} |", method.to_uppercase());
            groups.entry(tag).or_default().push(row);
        }
    }
    let mut order: Vec<String> = vec!["root".into()];
    order.extend(
        groups
            .keys()
            .filter(|t| *t != "root" && !LAST.contains(&t.as_str()))
            .cloned(),
    );
    order.extend(LAST.iter().map(|t| (*t).to_owned()));
    let mut out = format!(
        "{HEADING}\n\nGenerated from `openapi/openapi.json` (`cargo xtask openapi`), grouped by resource.\n"
    );
    for tag in order {
        let Some(rows) = groups.get(&tag) else {
            continue;
        };
        out.push_str(&format!(
            "\n### {tag}\n\n| Method | Path | What |\n|---|---|---|\n"
        ));
        for row in rows {
            out.push_str(row);
            out.push('\n');
        }
    }
    out
}

/// The page `text` with its generated section made from `doc`.
pub fn rewrite(text: &str, doc: &Value) -> String {
    let kept = text.find(HEADING).map_or(text, |at| &text[..at]);
    format!("{kept}{}", section(doc))
}

/// Rewrites the page under `root` from the document written there.
pub fn write(root: &Path) -> Result<(), String> {
    let page = root.join("docs").join("compatibility.md");
    let doc = root.join("openapi").join("openapi.json");
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let document: Value =
        serde_json::from_str(&read(&doc)?).map_err(|e| format!("{}: {e}", doc.display()))?;
    let text = read(&page)?;
    std::fs::write(&page, rewrite(&text, &document))
        .map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    println!("wrote {}", page.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_lists_what_the_document_serves() {
        let root = crate::root();
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("openapi/openapi.json")).unwrap(),
        )
        .unwrap();
        let text = std::fs::read_to_string(root.join("docs/compatibility.md")).unwrap();
        assert!(
            rewrite(&text, &doc) == text,
            "docs/compatibility.md is stale: run `cargo xtask openapi`"
        );
    }

    #[test]
    fn rows_are_grouped_by_tag_with_the_first_paragraph() {
        let doc = serde_json::json!({"paths": {
            "/api/x/": {"get": {"tags": ["x"], "summary": "Lists x.", "description": "More | here.\n\nNot this."}},
            "/": {"get": {"tags": ["root"], "summary": "Root."}}
        }});
        assert_eq!(
            rewrite("Intro\n\n## Operations Tolk serves\nold", &doc),
            "Intro\n\n## Operations Tolk serves\n\nGenerated from `openapi/openapi.json` (`cargo xtask openapi`), grouped by resource.\n\n### root\n\n| Method | Path | What |\n|---|---|---|\n| GET | `/` | Root. |\n\n### x\n\n| Method | Path | What |\n|---|---|---|\n| GET | `/api/x/` | Lists x. More \\| here. |\n"
        );
    }
}
