//! HTTP handlers, one module per resource. Every handler is registered
//! with `.service()` so that its OpenAPI description is collected.

use utoipa_actix_web::service_config::ServiceConfig;

/// Declares the PUT (`update`: the create body, whose required fields must
/// be given) and PATCH (`partial_update`: the patch body) operations of one
/// resource, `replace` and `modify`, both answered by the module's `change`
/// handler; each has its own OpenAPI description of its own body. The
/// calling module imports actix-web's `put` and `patch` route macros.
macro_rules! put_and_patch {
    (
        tag: $tag:literal,
        path: $path:literal,
        params: [$($param:tt),+ $(,)?],
        key: $key:ty,
        create: $create:ty,
        patch: $patch:ty,
        response: $dto:ty,
        put: $put_doc:literal,
        patch_doc: $patch_doc:literal
        $(, operation: $operation:literal)? $(,)?
    ) => {
        put_and_patch!(@one put replace concat!($($operation, "_",)? "update"), $create, $put_doc,
            $tag, $path, [$($param),+], $key, $dto);
        put_and_patch!(@one patch modify concat!($($operation, "_",)? "partial_update"), $patch, $patch_doc,
            $tag, $path, [$($param),+], $key, $dto);
    };
    (@one $method:ident $name:ident $id:expr, $body:ty, $doc:literal,
        $tag:literal, $path:literal, [$($param:tt),+], $key:ty, $dto:ty) => {
        #[doc = $doc]
        #[utoipa::path(
            operation_id = $id,
            tag = $tag,
            params($($param),+),
            request_body = $body,
            responses(
                (status = 200, description = "Updated", body = $dto),
                (status = 400, description = "Invalid fields", body = crate::error::ErrorBody),
                (status = 403, description = "Not allowed", body = crate::error::ErrorBody),
                (status = 404, description = "Missing or hidden", body = crate::error::ErrorBody)
            )
        )]
        #[$method($path)]
        async fn $name(
            caller: crate::caller::Caller,
            key: actix_web::web::Path<$key>,
            req: actix_web::HttpRequest,
            payload: actix_web::web::Payload,
            links: crate::links::Links,
            state: actix_web::web::Data<crate::state::AppState>,
        ) -> crate::error::ApiResult<actix_web::web::Json<$dto>> {
            change(caller, key, req, payload, links, state).await
        }
    };
}

pub mod addons;
pub mod announcements;
pub mod categories;
pub mod changes;
pub mod component_links;
pub mod component_lists;
pub mod components;
pub mod exports;
pub(crate) mod files;
pub mod groups;
pub(crate) mod helpers;
pub mod hooks;
pub mod labels;
pub mod languages;
pub mod memory;
pub mod notifications;
pub mod operations;
pub mod pages;
pub mod paths;
pub mod permissions;
pub mod project_metrics;
pub mod projects;
pub mod repository;
pub mod roles;
pub mod root;
pub mod rss;
pub mod screenshots;
pub mod search;
pub mod suggestions;
pub mod tasks;
pub mod tokens;
pub mod translations;
pub mod unit_screenshots;
pub mod units;
pub mod users;
pub mod workflow;

/// Registers every API handler.
pub fn configure(cfg: &mut ServiceConfig) {
    root::configure(cfg);
    languages::configure(cfg);
    projects::configure(cfg);
    users::configure(cfg);
    changes::configure(cfg);
    categories::configure(cfg);
    components::configure(cfg);
    component_links::configure(cfg);
    component_lists::configure(cfg);
    translations::configure(cfg);
    units::configure(cfg);
    repository::configure(cfg);
    roles::configure(cfg);
    groups::configure(cfg);
    tokens::configure(cfg);
    labels::configure(cfg);
    announcements::configure(cfg);
    unit_screenshots::configure(cfg);
    workflow::configure(cfg);
    project_metrics::configure(cfg);
    suggestions::configure(cfg);
    memory::configure(cfg);
    search::configure(cfg);
    notifications::configure(cfg);
    tasks::configure(cfg);
    hooks::configure(cfg);
    exports::configure(cfg);
    rss::configure(cfg);
    screenshots::configure(cfg);
    addons::configure(cfg);
    operations::configure(cfg);
}
