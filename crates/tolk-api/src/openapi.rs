//! The OpenAPI document, generated from the handlers' annotations.

use actix_web::App;
use serde_json::{Value, json};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

use crate::error::{ErrorBody, ErrorItem};

/// Document-wide information; paths are collected from the handlers.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tolk",
        description = "Translation management server speaking Weblate's REST API.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    components(schemas(ErrorBody, ErrorItem)),
    modifiers(&TokenAuth),
    tags(
        (name = "root", description = "API root and site metrics"),
        (name = "languages", description = "Languages and plural rules"),
        (name = "projects", description = "Projects"),
        (name = "users", description = "User accounts"),
        (name = "changes", description = "Change history"),
        (name = "components", description = "Components: translation files in a repository"),
        (name = "translations", description = "Translations: one language of a component"),
        (name = "units", description = "Units: one string of a translation"),
        (name = "categories", description = "Categories: nested folders of a project's components"),
        (name = "component-lists", description = "Component lists: named sets of components"),
        (name = "screenshots", description = "Screenshots showing where strings appear"),
        (name = "addons", description = "Add-ons: automatic work on components' files and history"),
        (name = "memory", description = "Translation memory"),
        (name = "tasks", description = "Background tasks"),
        (name = "hooks", description = "Push notifications from Git hosts"),
        (name = "operations", description = "Health, readiness and the server's own metrics, for operators")
    )
)]
struct ApiDoc;

/// Declares the `Authorization: Token <key>` scheme.
struct TokenAuth;

impl utoipa::Modify for TokenAuth {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
        let components = api.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                "`Token <key>` or `Bearer <key>`",
            ))),
        );
    }
}

/// The base document every app starts from.
pub(crate) fn base() -> utoipa::openapi::OpenApi {
    let mut api = ApiDoc::openapi();
    api.info.version = env!("CARGO_PKG_VERSION").to_owned();
    api
}

/// The full OpenAPI document of the API.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut api) = App::new()
        .into_utoipa_app()
        .openapi(base())
        .configure(crate::routes::configure)
        .split_for_parts();
    finish(&mut api);
    api
}

/// The statuses any operation may answer, whatever it does: a bad token
/// (401), an unknown `?format=` or a hidden object (404), an `Accept` it
/// cannot satisfy (406) and the rate limits (429).
const ANY: [(&str, &str); 4] = [
    ("401", "Invalid token"),
    ("404", "Not found"),
    ("406", "No acceptable representation"),
    ("429", "Too many requests"),
];

/// What operations reading a body may answer besides.
const WITH_BODY: [(&str, &str); 5] = [
    ("400", "Invalid fields"),
    ("401", "Not signed in"),
    ("403", "Not allowed"),
    ("413", "Body too large"),
    ("415", "Unsupported body media type"),
];

/// Completes what the handlers' annotations cannot say once for all:
/// unique operation ids, the token scheme on every operation (anonymous
/// access allowed), the statuses every operation may answer, the `format`
/// parameter and the other representations of success, which user shape
/// an answer is (any one of them: they nest), and pages whose items name
/// their object schema.
#[expect(
    clippy::expect_used,
    reason = "the document is made of the code's own types; every test app makes it"
)]
pub(crate) fn finish(api: &mut utoipa::openapi::OpenApi) {
    distinguish_operation_ids(api);
    let mut document = serde_json::to_value(&*api).expect("the document serialises");
    document["security"] = json!([{"token": []}, {}]);
    if let Some(paths) = document["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, operation) in item.iter_mut() {
                complete_operation(path, method, operation);
            }
        }
    }
    any_of(&mut document);
    page_items_by_reference(&mut document);
    creation_links(&mut document);
    *api = serde_json::from_value(document).expect("the document reads back");
}

/// `oneOf` becomes `anyOf`: a value must match at least one schema, and
/// may match several (a full account is also a basic one). A map of any
/// values says so with `additionalProperties: true`, which reads back.
fn any_of(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(shapes) = map.remove("oneOf") {
                map.insert("anyOf".into(), shapes);
            }
            if map.get("additionalProperties") == Some(&json!({})) {
                map.insert("additionalProperties".into(), json!(true));
            }
            map.values_mut().for_each(any_of);
        }
        Value::Array(items) => items.iter_mut().for_each(any_of),
        _ => {}
    }
}

/// The answer of a `POST` that creates an object at `…/{key}/` links to
/// the operations on that object, its key taken from the new object
/// (`$response.body#/slug`), so that clients and stateful testing
/// (schemathesis) can follow from a creation to its reads, changes and
/// removal.
fn creation_links(document: &mut Value) {
    let Some(paths) = document["paths"].as_object() else {
        return;
    };
    let schemas = &document["components"]["schemas"];
    // The properties of what a creation answers.
    let created = |item: &Value| -> Vec<String> {
        let mut found = Vec::new();
        properties(
            &item["post"]["responses"]["201"]["content"]["application/json"]["schema"],
            schemas,
            &mut found,
        );
        found
    };
    let mut links: Vec<(String, serde_json::Map<String, Value>)> = Vec::new();
    for (path, item) in paths {
        let fields = created(item);
        for (child, child_item) in paths {
            let Some(key) = child
                .strip_prefix(path.as_str())
                .and_then(|rest| rest.strip_prefix('{'))
                .and_then(|rest| rest.strip_suffix("}/"))
                .filter(|key| !key.contains('/') && fields.iter().any(|f| f == key))
            else {
                continue;
            };
            let mut found = serde_json::Map::new();
            for method in ["get", "put", "patch", "delete"] {
                let Some(id) = child_item[method]["operationId"].as_str() else {
                    continue;
                };
                let mut parameters = serde_json::Map::new();
                // The path's own parameters carry over from the request.
                for parameter in child_item[method]["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    let name = parameter["name"].as_str().unwrap_or_default();
                    if parameter["in"] != "path" {
                        continue;
                    }
                    let source = if name == key {
                        format!("$response.body#/{key}")
                    } else {
                        format!("$request.path.{name}")
                    };
                    parameters.insert(name.to_owned(), json!(source));
                }
                found.insert(
                    format!("{method}_{key}"),
                    json!({"operationId": id, "parameters": parameters}),
                );
            }
            if !found.is_empty() {
                links.push((path.clone(), found));
            }
        }
    }
    for (path, found) in links {
        document["paths"][&path]["post"]["responses"]["201"]["links"] = Value::Object(found);
    }
}

/// The property names of `schema`, through references and the shapes it
/// combines (`allOf`, `anyOf`).
fn properties(schema: &Value, schemas: &Value, found: &mut Vec<String>) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        return properties(&schemas[name], schemas, found);
    }
    found.extend(
        schema["properties"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.keys().cloned()),
    );
    for combined in ["allOf", "anyOf", "oneOf"] {
        for member in schema[combined].as_array().into_iter().flatten() {
            properties(member, schemas, found);
        }
    }
}

/// A page's `results` name their object schema (`#/components/schemas/
/// UnitDto`) instead of repeating it inline, so generated clients have one
/// class per object whether it comes alone or in a list.
fn page_items_by_reference(document: &mut Value) {
    let Some(schemas) = document["components"]["schemas"].as_object_mut() else {
        return;
    };
    let names: Vec<String> = schemas.keys().cloned().collect();
    for (name, schema) in schemas.iter_mut() {
        let Some(item) = name.strip_prefix("Paginated_") else {
            continue;
        };
        if names.iter().any(|n| n == item) {
            schema["properties"]["results"]["items"] =
                json!({"$ref": format!("#/components/schemas/{item}")});
        }
    }
}

fn complete_operation(path: &str, method: &str, operation: &mut Value) {
    let error = |description: &str| {
        json!({
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        })
    };
    let has_body = operation.get("requestBody").is_some();
    let media_types = operation["requestBody"]["content"]
        .as_object()
        .map_or(0, serde_json::Map::len);
    if has_body && (method == "patch" || media_types > 1) {
        // A PATCH with no body changes nothing, and succeeds. A body that
        // comes in one of several media types (JSON or a multipart
        // upload) is marked optional too: the server answers 400 without
        // one, and code generators (openapi-python-client) write broken
        // code for a required body of several media types.
        operation["requestBody"]["required"] = json!(false);
    }
    let has_query = operation["parameters"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p["in"] == "query"));
    if let Some(parameters) = operation["parameters"].as_array_mut() {
        parameters
            .iter_mut()
            .filter(|p| p["in"] == "query")
            .for_each(may_be_empty);
    }
    let Some(responses) = operation["responses"].as_object_mut() else {
        return;
    };
    let extra = ANY
        .iter()
        .chain(if has_body { WITH_BODY.as_slice() } else { &[] })
        .chain(if has_query {
            &[("400", "Invalid parameter")][..]
        } else {
            &[]
        });
    for (status, description) in extra {
        responses
            .entry(status.to_string())
            .or_insert_with(|| error(description));
    }
    if method != "get" || !path.starts_with("/api/") || crate::negotiate::converts_files(path) {
        // Only the API's reads have other representations (`/hooks/` has
        // none); a file download's `format` names a converter.
        return;
    }
    // Reads, and their errors, also come as a browsable page or a CSV table.
    for response in responses.values_mut() {
        if let Some(content) = response.get_mut("content").and_then(Value::as_object_mut) {
            for media in ["text/html", "text/csv"] {
                content.insert(media.into(), json!({"schema": {"type": "string"}}));
            }
        }
    }
    let has_format = operation["parameters"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p["name"] == "format"));
    if has_format {
        // The operation lists its own representations (metrics as text).
        return;
    }
    let mut formats = vec!["json", "api", "csv"];
    if path.ends_with("/statistics/") || path == "/api/projects/{slug}/languages/" {
        formats.push("json-flat");
    }
    let parameter = json!({
        "name": "format",
        "in": "query",
        "description": "The representation: JSON (default), a browsable page, a CSV table, ...",
        "required": false,
        "schema": {"type": "string", "enum": formats}
    });
    let mut parameter = parameter;
    may_be_empty(&mut parameter);
    match operation["parameters"].as_array_mut() {
        Some(parameters) => parameters.push(parameter),
        None => operation["parameters"] = json!([parameter]),
    }
}

/// A query parameter given empty is not given, as in Weblate's filters: its
/// schema takes the empty text too.
fn may_be_empty(parameter: &mut Value) {
    parameter["allowEmptyValue"] = json!(true);
    let schema = parameter["schema"].take();
    parameter["schema"] = json!({"anyOf": [schema, {"type": "string", "maxLength": 0}]});
}

/// Makes operation ids unique: handlers are named after what they do
/// within their resource (`list`, `update`, `partial_update`), so ids get
/// the resource's tag as a prefix, as Weblate's (`projects_partial_update`),
/// unless the name starts with it already (`units_comments_create`);
/// a handler serving several methods of a path gets the later method's
/// name as a suffix on its later operations (`…_upload_put`).
fn distinguish_operation_ids(api: &mut utoipa::openapi::OpenApi) {
    for item in api.paths.paths.values_mut() {
        let operations = [
            ("get", &mut item.get),
            ("post", &mut item.post),
            ("put", &mut item.put),
            ("patch", &mut item.patch),
            ("delete", &mut item.delete),
        ];
        let mut seen = std::collections::HashSet::new();
        for (method, operation) in operations {
            let Some(operation) = operation else { continue };
            let tag = operation
                .tags
                .as_ref()
                .and_then(|t| t.first())
                .cloned()
                .unwrap_or_default();
            if let Some(id) = &mut operation.operation_id {
                // A handler already named after its resource keeps its name.
                if *id != tag && !id.starts_with(&format!("{tag}_")) {
                    *id = format!("{tag}_{id}");
                }
                if !seen.insert(id.clone()) {
                    id.push('_');
                    id.push_str(method);
                }
            }
        }
    }
}

/// The document as written to `openapi/openapi.json`.
#[expect(
    clippy::expect_used,
    reason = "the document is made of the code's own types; a test writes it"
)]
pub fn document_json() -> String {
    let mut json = document()
        .to_pretty_json()
        .expect("the OpenAPI document serialises");
    json.push('\n');
    json
}
