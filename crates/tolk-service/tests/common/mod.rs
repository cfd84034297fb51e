//! What the use-case tests share.

// Each test file uses some of these.
#![allow(dead_code)]

use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_domain::user::UserFields;
use tolk_service::Service;

/// Creates the public project `demo` that the tests put components in.
pub fn demo_project(service: &Service) {
    service
        .projects()
        .create(
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

/// Creates an active account `username` of `full_name` (a superuser or
/// not); its id.
pub fn user(service: &Service, username: &str, full_name: &str, superuser: bool) -> i64 {
    service
        .users()
        .create(
            &Subject::System,
            Ok(UserFields {
                username: username.into(),
                full_name: full_name.into(),
                email: format!("{username}@example.com"),
                is_superuser: superuser,
                is_active: true,
                is_bot: false,
                date_expires: None,
            }),
        )
        .unwrap()
        .row
        .id
}
