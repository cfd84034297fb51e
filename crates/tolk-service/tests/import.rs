//! `tolk import`'s use-cases on real repositories: the components of a
//! repository found without cloning it, then created in one step, on
//! each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;
mod layout;

use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_service::discovery::Found;
use tolk_service::import::{ImportPlan, ImportSource};
use tolk_service::{Service, ServiceConfig};
use tolk_store::testing::TestDb;
use tolk_vcs::testing::Upstream;

fn project(slug: &str) -> ProjectSettings {
    ProjectSettings {
        name: slug.to_uppercase(),
        slug: slug.into(),
        web: "https://example.com/".into(),
        ..ProjectSettings::default()
    }
}

/// Each component's slug, repository and its translations' language codes.
fn imported(service: &Service, project: &str) -> Vec<(String, String, Vec<String>)> {
    let page = service
        .components()
        .list(
            &Subject::System,
            Some(project),
            tolk_service::PageRequest {
                number: Some(1),
                size: 100,
            },
        )
        .unwrap();
    page.items
        .iter()
        .map(|c| {
            let slug = c.component.settings.slug.clone();
            let codes = service
                .translations()
                .of_component(&Subject::System, project, &slug)
                .unwrap()
                .iter()
                .map(|t| t.translation.language_code.clone())
                .collect();
            (slug, c.component.settings.repo.clone(), codes)
        })
        .collect()
}

/// An upstream holding the whole layout, and a service on `db` that may clone it.
fn layout_upstream(db: &TestDb) -> (Upstream, Service) {
    let files = layout::repository();
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
    let upstream = Upstream::new(&files);
    let service = Service::new(db.store.clone(), ServiceConfig::local(upstream.root())).unwrap();
    (upstream, service)
}

#[test]
fn a_repository_becomes_a_project_whose_components_share_one_clone() {
    for db in TestDb::all() {
        let (upstream, service) = layout_upstream(&db);
        let url = format!("file://{}", upstream.url());
        let source = ImportSource::from_argument(&url, "").unwrap();
        assert_eq!(source.project_name(), "upstream");
        let plan = service.imports().plan(source, "en").unwrap();
        assert_eq!(plan.branch, "main");
        assert_eq!(plan.discovery.components.len(), 12);

        let done = service
            .imports()
            .run(&Subject::System, &plan, project("app"), "en")
            .unwrap();
        assert!(done.project_created);
        assert_eq!(done.components.len(), 12);
        assert_eq!(service.tasks().run_due().unwrap(), 12);
        for component in &done.components {
            let task = service
                .tasks()
                .get(
                    &Subject::System,
                    component.component.task_id.as_deref().unwrap(),
                )
                .unwrap();
            assert!(
                task.result.as_ref().is_some_and(|r| r.is_object()),
                "{}: {:?}\n{}",
                component.component.settings.slug,
                task.result,
                task.log
            );
        }
        let components = imported(&service, "app");
        let first = &components[0];
        assert_eq!(first.0, "resources");
        assert_eq!(first.1, url, "the first component clones");
        for other in &components[1..] {
            assert_eq!(other.1, "weblate://app/resources", "{} shares it", other.0);
        }
        let find = |slug: &str| components.iter().find(|c| c.0 == slug).unwrap().2.clone();
        // Each translation keeps the code its file is named with.
        assert_eq!(find("strings"), ["en", "ar", "zh-rCN"]);
        assert_eq!(find("djangojs"), ["en", "ar", "ru", "zh_Hans"]);
        assert_eq!(find("locale"), ["en", "ar", "de"]);
        assert_eq!(find("validationmessages"), ["en", "de", "pt_BR"]);
        assert_eq!(find("countries"), ["en", "ar", "zh"]);
    }
}

#[test]
fn a_directory_of_files_becomes_a_local_repository() {
    for db in TestDb::all() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("website");
        for (path, bytes) in layout::repository() {
            if path.starts_with("web/") || path.starts_with("docs/locale/") {
                let target = tree.join(&path);
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::write(target, bytes).unwrap();
            }
        }
        let service = Service::new(db.store.clone(), ServiceConfig::local(dir.path())).unwrap();
        let source = ImportSource::from_argument(tree.to_str().unwrap(), "").unwrap();
        assert!(matches!(source, ImportSource::Directory(_)), "{source:?}");
        assert_eq!(source.project_name(), "website");
        let plan = service.imports().plan(source, "en").unwrap();
        let done = service
            .imports()
            .run(&Subject::System, &plan, project("website"), "en")
            .unwrap();
        assert_eq!(service.tasks().run_due().unwrap(), 2);
        assert_eq!(done.components[0].component.settings.vcs, "local");
        assert_eq!(
            imported(&service, "website"),
            [
                (
                    "locale".to_owned(),
                    "local:".to_owned(),
                    vec!["en".to_owned(), "ar".into(), "de".into()]
                ),
                (
                    "countries".into(),
                    "weblate://website/locale".into(),
                    vec!["en".into(), "ar".into(), "zh".into()]
                ),
            ]
        );
    }
}

#[test]
fn an_import_that_fails_midway_leaves_nothing_and_names_are_kept_free() {
    for db in TestDb::all() {
        let (upstream, service) = layout_upstream(&db);
        let source = ImportSource::from_argument(&upstream.url(), "").unwrap();
        let mut plan: ImportPlan = service.imports().plan(source, "en").unwrap();
        plan.discovery.components.truncate(2);
        let broken = Found {
            template: String::new(),
            ..plan.discovery.components[1].clone()
        };
        plan.discovery.components[1] = broken;
        let refused = service
            .imports()
            .run(&Subject::System, &plan, project("app"), "en");
        assert_eq!(
            common::field_errors(refused),
            ["template: You have to fill in the monolingual base language file for this format."]
        );
        assert!(matches!(
            service.projects().get(&Subject::System, "app"),
            Err(tolk_service::ServiceError::NotFound)
        ));

        // Into an existing project: run again, the import keeps what it
        // made; from another URL, its names get a number.
        common::demo_project(&service);
        plan.discovery.components.truncate(1);
        let first = service
            .imports()
            .run(&Subject::System, &plan, project("demo"), "en")
            .unwrap();
        assert!(!first.project_created);
        let again = service
            .imports()
            .run(&Subject::System, &plan, project("demo"), "en")
            .unwrap();
        assert!(again.components.is_empty());
        assert_eq!(again.kept.len(), 1);
        assert_eq!(again.kept[0].component.id, first.components[0].component.id);
        // Its setup task, not run yet (an import cut off), is run by whoever
        // runs the kept components' tasks.
        let waiting = again.kept[0].component.task_id.clone().unwrap();
        assert!(
            service
                .tasks()
                .run_among("import", std::slice::from_ref(&waiting))
                .unwrap()
        );
        assert!(
            service
                .tasks()
                .get(&Subject::System, &waiting)
                .unwrap()
                .completed
        );
        assert!(!service.tasks().run_among("import", &[waiting]).unwrap());
        let other = ImportSource::from_argument(&format!("file://{}", upstream.url()), "").unwrap();
        let mut elsewhere = service.imports().plan(other, "en").unwrap();
        elsewhere.discovery.components.truncate(1);
        let beside = service
            .imports()
            .run(&Subject::System, &elsewhere, project("demo"), "en")
            .unwrap();
        let names: Vec<(&str, &str)> = [&first, &beside]
            .iter()
            .map(|i| {
                let s = &i.components[0].component.settings;
                (s.name.as_str(), s.slug.as_str())
            })
            .collect();
        assert_eq!(
            names,
            [("Resources", "resources"), ("Resources 2", "resources-2")]
        );
    }
}
