//! Repositories that hold traps: symbolic links to `/etc/passwd`, to a
//! folder outside the clone, to another component's files, and dangling
//! ones, for each path setting. Tolk reads and writes nothing through
//! them, names each refused file, and leaves what lies outside untouched.
//! Every test runs on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;

use tolk_domain::change::Action;
use tolk_domain::component::ComponentSettings;
use tolk_domain::permission::Subject;
use tolk_service::changes::{ChangeQuery, ChangeScope};
use tolk_service::components::CreateOptions;
use tolk_service::files::ComponentFile;
use tolk_service::repository::Operation;
use tolk_service::{PageRequest, Service, ServiceConfig, ServiceError, VcsError};
use tolk_store::testing::TestDb;
use tolk_vcs::testing::{Upstream, git};

const PO: &str = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
                  msgid \"Hello\"\nmsgstr \"Ahoj\"\n";

/// An upstream whose `main` holds `files` and the links `links` (path,
/// target), and a service on `db` with a project `demo`.
fn world(db: &TestDb, files: &[(&str, &str)], links: &[(&str, &str)]) -> (Upstream, Service) {
    let files: Vec<(&str, Vec<u8>)> = files
        .iter()
        .map(|(p, c)| (*p, c.as_bytes().to_vec()))
        .collect();
    let upstream = Upstream::new(&files);
    let dev = upstream.developer();
    for (path, target) in links {
        let at = dev.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
    }
    git(&dev, &["add", "-A"]);
    git(&dev, &["commit", "--quiet", "--allow-empty", "-m", "links"]);
    git(&dev, &["push", "--quiet", "origin", "main"]);
    let service = Service::new(db.store.clone(), ServiceConfig::local(upstream.root())).unwrap();
    common::demo_project(&service);
    (upstream, service)
}

fn settings(upstream: &Upstream, filemask: &str, format: &str) -> ComponentSettings {
    ComponentSettings {
        name: "App".into(),
        slug: "app".into(),
        repo: upstream.url(),
        filemask: filemask.into(),
        file_format: format.into(),
        ..ComponentSettings::default()
    }
}

/// Creates the component and runs its setup; the task's result and log.
fn create(service: &Service, settings: ComponentSettings) -> (serde_json::Value, String) {
    let view = service
        .components()
        .create(
            &Subject::System,
            "demo",
            Ok(settings),
            CreateOptions::default(),
        )
        .unwrap();
    assert_eq!(service.tasks().run_due().unwrap(), 1);
    let task = service
        .tasks()
        .get(&Subject::System, view.component.task_id.as_deref().unwrap())
        .unwrap();
    assert!(task.completed);
    (task.result.unwrap(), task.log)
}

fn history(service: &Service, action: Action) -> Vec<String> {
    let query = ChangeQuery {
        scope: ChangeScope::Component("demo".into(), "app".into()),
        actions: vec![action.0],
        ..ChangeQuery::default()
    };
    let request = PageRequest {
        number: Some(1),
        size: 100,
    };
    let (page, _) = service
        .changes()
        .list(&Subject::System, &query, request)
        .unwrap();
    page.items.into_iter().map(|c| c.target).collect()
}

fn refused(error: &ServiceError, path: &str) -> bool {
    matches!(error, ServiceError::Vcs(VcsError::Refused { path: p, .. }) if p == path)
}

#[test]
fn linked_translation_files_are_refused_by_name() {
    for db in TestDb::all() {
        let (upstream, service) = world(
            &db,
            &[("po/de.po", PO)],
            &[
                ("po/cs.po", "/etc/passwd"),
                ("po/sk.po", "de.po"),
                ("po/fr.po", "../../nowhere/fr.po"),
            ],
        );
        let (result, log) = create(&service, settings(&upstream, "po/*.po", "po"));
        assert!(result.get("component").is_some(), "{result}");
        let codes: Vec<String> = service
            .translations()
            .of_component(&Subject::System, "demo", "app")
            .unwrap()
            .into_iter()
            .map(|t| t.translation.language_code)
            .collect();
        assert_eq!(codes, ["en", "de"]);
        for path in ["po/cs.po", "po/fr.po", "po/sk.po"] {
            let line = format!(
                "refused {path}: a symbolic link (Tolk reads and writes no file through a link)"
            );
            assert!(log.contains(&line), "{log}");
            assert!(history(&service, Action::PARSE_ERROR).contains(&line));
        }
        assert!(!log.contains("root:"), "{log}");

        // Adding Czech would write po/cs.po, the link: refused, nothing
        // written through it; French's dangling link creates nothing.
        for code in ["cs", "fr"] {
            let error = service
                .translations()
                .add(&Subject::System, "demo", "app", code)
                .unwrap_err();
            assert!(refused(&error, &format!("po/{code}.po")), "{error:?}");
        }
        assert!(!upstream.root().join("nowhere").exists());
        assert!(!Path::new("/nowhere").exists());
        // A commit of everything changes no link.
        let (ok, _) = service
            .repository()
            .operation(&Subject::System, "demo", "app", Operation::FileSync)
            .unwrap();
        assert!(ok);
        assert_eq!(
            upstream.git(&["cat-file", "-t", "main:po/cs.po"]).trim(),
            "blob"
        );
        let mode = upstream.git(&["ls-tree", "main", "po/cs.po"]);
        assert!(mode.starts_with("120000"), "still a link: {mode}");
    }
}

#[test]
fn a_linked_template_or_base_is_refused_at_creation() {
    for db in TestDb::all() {
        let (upstream, service) = world(
            &db,
            &[("json/de.json", "{\"a\": \"A\"}\n")],
            &[
                ("json/en.json", "/etc/passwd"),
                ("json/new.json", "../../secret.json"),
            ],
        );
        for attr in ["template", "new_base"] {
            let mut json = settings(&upstream, "json/*.json", "json");
            match attr {
                "template" => json.template = "json/en.json".into(),
                _ => json.new_base = "json/new.json".into(),
            }
            let refused = common::field_errors(service.components().create(
                &Subject::System,
                "demo",
                Ok(json),
                CreateOptions::default(),
            ));
            assert_eq!(
                refused,
                [format!(
                    "{attr}: The file is a symbolic link; Tolk reads no file through a link."
                )]
            );
        }
        assert_eq!(service.tasks().run_due().unwrap(), 0, "nothing queued");
    }
}

#[test]
fn a_template_that_becomes_a_link_fails_the_update_and_locks_the_component() {
    for db in TestDb::all() {
        let (upstream, service) = world(
            &db,
            &[
                ("json/de.json", "{\"a\": \"A\"}\n"),
                ("json/en.json", "{\"a\": \"a\"}\n"),
            ],
            &[],
        );
        let mut json = settings(&upstream, "json/*.json", "json");
        json.template = "json/en.json".into();
        create(&service, json);
        // Upstream makes the template a link to /etc/passwd; a hook asks
        // for an update, which runs as a task.
        let dev = upstream.developer();
        std::fs::remove_file(dev.join("json/en.json")).unwrap();
        symlink("/etc/passwd", dev.join("json/en.json")).unwrap();
        git(&dev, &["commit", "--quiet", "-am", "link"]);
        git(&dev, &["push", "--quiet", "origin", "main"]);
        assert_eq!(
            service
                .hooks()
                .notify_update("demo", Some("app"))
                .unwrap()
                .len(),
            1
        );
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        let words = "json/en.json: a symbolic link (Tolk reads and writes no file through a link)";
        let view = service
            .components()
            .get(&Subject::System, "demo", "app")
            .unwrap();
        assert!(view.component.locked, "auto_lock_error locks it");
        let locks = history(&service, Action::LOCK);
        assert_eq!(locks, [format!("Locked after a repository error: {words}")]);
        assert!(!locks[0].contains("root:"));
        let download = service
            .files()
            .component(
                &Subject::System,
                "demo",
                "app",
                ComponentFile::MonolingualBase,
            )
            .unwrap_err();
        assert!(refused(&download, "json/en.json"), "{download:?}");
    }
}

#[test]
fn a_link_that_arrives_by_pull_is_never_written() {
    for db in TestDb::all() {
        let (upstream, service) = world(&db, &[("po/de.po", PO), ("po/cs.po", PO)], &[]);
        create(&service, settings(&upstream, "po/*.po", "po"));
        // Upstream replaces Czech by a link to /etc/passwd; Tolk pulls it.
        let dev = upstream.developer();
        std::fs::remove_file(dev.join("po/cs.po")).unwrap();
        symlink("/etc/passwd", dev.join("po/cs.po")).unwrap();
        git(&dev, &["commit", "--quiet", "-am", "link"]);
        git(&dev, &["push", "--quiet", "origin", "main"]);
        let (ok, detail) = service
            .repository()
            .operation(&Subject::System, "demo", "app", Operation::Pull)
            .unwrap();
        assert!(ok, "{detail:?}");
        let refusals = history(&service, Action::PARSE_ERROR);
        assert!(
            refusals
                .iter()
                .any(|l| l.starts_with("refused po/cs.po: a symbolic link")),
            "{refusals:?}"
        );
        // An edit of a Czech string cannot be written: the commit says so,
        // the string stays pending, and the link upstream is untouched.
        let unit = service
            .units()
            .list(
                &Subject::System,
                Some(("demo", "app", "cs")),
                None,
                PageRequest {
                    number: Some(1),
                    size: 10,
                },
            )
            .unwrap()
            .items
            .remove(0);
        let edit = tolk_service::units::UnitEdit {
            target: Some(vec!["Nazdar".into()]),
            state: Some(20),
            ..Default::default()
        };
        service
            .units()
            .edit(&Subject::System, unit.unit.id, edit)
            .unwrap();
        let (ok, detail) = service
            .repository()
            .operation(&Subject::System, "demo", "app", Operation::Push)
            .unwrap();
        let expected = "po/cs.po: a symbolic link (Tolk reads and writes no file through a link); \
                        1 strings stay pending";
        assert_eq!((ok, detail.as_deref()), (false, Some(expected)));
        assert!(
            service
                .units()
                .get(&Subject::System, unit.unit.id)
                .unwrap()
                .unit
                .pending
        );
        assert_eq!(history(&service, Action::SAVE_FAILED), [expected]);
        let mode = upstream.git(&["ls-tree", "main", "po/cs.po"]);
        assert!(mode.starts_with("120000"), "{mode}");
        assert_eq!(upstream.file("po/cs.po"), "/etc/passwd");
    }
}
