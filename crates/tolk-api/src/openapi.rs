//! The OpenAPI document, generated from the handlers' annotations.

use actix_web::App;
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
        (name = "changes", description = "Change history")
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
    distinguish_operation_ids(&mut api);
    api
}

/// Makes operation ids unique: handlers are named after what they do
/// within their resource (`list`, `update`, `partial_update`), so ids get
/// the resource's tag as a prefix, as Weblate's (`projects_partial_update`).
pub(crate) fn distinguish_operation_ids(api: &mut utoipa::openapi::OpenApi) {
    for item in api.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in operations.into_iter().flatten() {
            let tag = operation
                .tags
                .as_ref()
                .and_then(|t| t.first())
                .cloned()
                .unwrap_or_default();
            if let Some(id) = &mut operation.operation_id {
                *id = format!("{tag}_{id}");
            }
        }
    }
}

/// The document as written to `openapi/openapi.json`.
pub fn document_json() -> String {
    let mut json = document()
        .to_pretty_json()
        .expect("the OpenAPI document serialises");
    json.push('\n');
    json
}
