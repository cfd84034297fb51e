//! Schemas the OpenAPI document gives by hand, where a type cannot derive
//! its own: a download's bytes, a text limited to a list of choices.

/// A file's bytes, as the OpenAPI document describes a download.
pub struct FileBytes;

impl utoipa::PartialSchema for FileBytes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .into()
    }
}

impl utoipa::ToSchema for FileBytes {}

/// The schema of a text that is one of `values` (a query parameter's
/// choices, for `#[param(schema_with = …)]`).
pub(crate) fn text_choices<'a>(
    values: impl IntoIterator<Item = &'a str>,
) -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .build()
}
