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
