//! What the use-case tests share.

use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_service::Service;

/// Creates the public project `demo` that the tests put components in.
pub fn demo_project(service: &Service) {
    service
        .create_project(
            &Subject::System,
            Ok(ProjectSettings {
                name: "Demo".into(),
                slug: "demo".into(),
                web: "https://example.com/".into(),
                ..ProjectSettings::default()
            }),
        )
        .unwrap();
}

/// The field errors a refused request got, as `attr: detail` lines.
pub fn field_errors<T: std::fmt::Debug>(
    result: Result<T, tolk_service::ServiceError>,
) -> Vec<String> {
    match result {
        Err(tolk_service::ServiceError::Validation(errors)) => errors
            .into_iter()
            .map(|e| format!("{}: {}", e.attr.unwrap_or_default(), e.detail))
            .collect(),
        other => panic!("not refused field by field: {other:?}"),
    }
}
