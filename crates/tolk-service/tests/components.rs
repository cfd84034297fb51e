//! Components on real Git repositories, end to end through the use-cases:
//! a bare upstream holding real files of the corpus, a second clone that
//! plays another developer, and Tolk's clone made by the setup task. Every
//! test runs on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::path::{Path, PathBuf};

use tolk_vcs::testing::{Upstream, git};

use tolk_domain::component::ComponentSettings;
use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_service::components::CreateOptions;
use tolk_service::repository::Operation;
use tolk_service::units::UnitEdit;
use tolk_service::{PageRequest, Service, ServiceConfig};
use tolk_store::testing::TestDb;

const LANGUAGES: [&str; 4] = ["ar", "ja", "pt_BR", "ru"];

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tolk-formats/tests/corpus")
        .join(name)
}

/// A bare upstream with four gettext catalogues and a developer's clone.
struct World {
    upstream: Upstream,
    service: Service,
    admin: Subject,
    _db: TestDb,
}

impl World {
    fn new(db: TestDb) -> World {
        let mut files: Vec<(String, Vec<u8>)> = LANGUAGES
            .iter()
            .map(|code| {
                let bytes = std::fs::read(corpus(&format!("po/django-conf-{code}.po"))).unwrap();
                (format!("po/{code}.po"), bytes)
            })
            .collect();
        for code in ["en", "ar"] {
            let path = format!("json-nested/i18n-iso-countries-{code}.json");
            files.push((
                format!("countries/{code}.json"),
                std::fs::read(corpus(&path)).unwrap(),
            ));
        }
        files.push(("README".into(), b"not a translation\n".to_vec()));
        let files: Vec<(&str, Vec<u8>)> =
            files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
        let upstream = Upstream::new(&files);
        let config = ServiceConfig::local(upstream.root());
        let service = Service::new(db.store.clone(), config).unwrap();
        let admin = common::user(&service, "jane", "Jane Doe", true);
        common::demo_project(&service);
        World {
            upstream,
            service,
            admin: Subject::user(admin, true),
            _db: db,
        }
    }

    fn create(&self, slug: &str) -> tolk_service::components::ComponentView {
        self.create_with(ComponentSettings {
            name: slug.to_uppercase(),
            slug: slug.into(),
            repo: self.upstream.url(),
            filemask: "po/*.po".into(),
            file_format: "po".into(),
            ..ComponentSettings::default()
        })
    }

    fn create_with(&self, settings: ComponentSettings) -> tolk_service::components::ComponentView {
        let view = self
            .service
            .components()
            .create(&self.admin, "demo", Ok(settings), CreateOptions::default())
            .unwrap();
        assert!(view.component.task_id.is_some());
        assert_eq!(self.service.tasks().run_due().unwrap(), 1);
        view
    }

    /// Units of one language, by id.
    fn units(&self, code: &str, q: Option<&str>) -> Vec<tolk_service::units::UnitView> {
        let request = PageRequest {
            number: Some(1),
            size: 10_000,
        };
        self.service
            .units()
            .list(&self.admin, Some(("demo", "app", code)), q, request)
            .unwrap()
            .items
    }

    fn edit(&self, id: i64, text: &str) {
        let edit = UnitEdit {
            target: Some(vec![text.into()]),
            state: Some(20),
            ..Default::default()
        };
        self.service.units().edit(&self.admin, id, edit).unwrap();
    }
}

/// Units of a corpus file as the codec reads them.
fn file_units(code: &str) -> Vec<tolk_formats::Unit> {
    let bytes = std::fs::read(corpus(&format!("po/django-conf-{code}.po"))).unwrap();
    tolk_formats::parse("po", "x.po", &bytes).unwrap().units()
}

#[test]
fn a_component_is_cloned_read_translated_committed_and_pushed() {
    for db in TestDb::all() {
        let world = World::new(db);
        let created = world.create("app");
        let service = &world.service;
        let component = service
            .components()
            .get(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!(
            component.component.task_id, None,
            "the finished task is cleared"
        );
        assert_eq!(
            component.component.settings.branch, "main",
            "the default branch is recorded"
        );
        let task = service
            .tasks()
            .get(&world.admin, created.component.task_id.as_deref().unwrap())
            .unwrap();
        assert!(task.completed);
        assert_eq!(task.progress, 100);
        assert_eq!(
            task.result,
            Some(serde_json::json!({"component": component.component.id}))
        );
        assert!(
            task.log.contains("processing po/ja.po (ja)"),
            "{}",
            task.log
        );

        // One translation per file plus the source, with the files' counts.
        let translations = service
            .translations()
            .of_component(&world.admin, "demo", "app")
            .unwrap();
        let codes: Vec<&str> = translations
            .iter()
            .map(|t| t.translation.language_code.as_str())
            .collect();
        assert_eq!(codes, vec!["en", "ar", "ja", "pt_BR", "ru"]);
        let source = &translations[0];
        assert!(source.is_source());
        for (t, code) in translations[1..].iter().zip(LANGUAGES) {
            let units = file_units(code);
            let translated = units
                .iter()
                .filter(|u| u.state == tolk_formats::State::Translated)
                .count();
            assert_eq!(
                t.translation.counters.total.strings,
                units.len() as i64,
                "{code}"
            );
            assert_eq!(
                t.translation.counters.translated.strings, translated as i64,
                "{code}"
            );
            assert_eq!(t.translation.filename, format!("po/{code}.po"));
            assert_eq!(t.translation.revision.len(), 40);
        }

        // The query language filters by state.
        let ja = world.units("ja", None);
        let untranslated = world.units("ja", Some("state:<translated"));
        assert_eq!(
            untranslated.len(),
            ja.iter().filter(|u| u.unit.state < 20).count()
        );
        assert!(ja.iter().all(|u| u.unit.source_unit_id.is_some()));
        let err = service
            .units()
            .list(
                &world.admin,
                Some(("demo", "app", "ja")),
                Some("colour:red"),
                PageRequest {
                    number: Some(1),
                    size: 5,
                },
            )
            .unwrap_err();
        assert!(matches!(err, tolk_service::ServiceError::Validation(_)));

        // Translate one string: pending, statistics move at once.
        let unit = ja.iter().find(|u| u.unit.state == 20).unwrap();
        let before = world.upstream.file("po/ja.po");
        world.edit(unit.unit.id, "Tolk の訳");
        let edited = service.units().get(&world.admin, unit.unit.id).unwrap();
        assert!(edited.unit.pending);
        assert_eq!(edited.unit.target, "Tolk の訳");
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!((status.needs_commit, status.pending_units), (true, 1));

        // Push: the commit lands upstream, changing that string's lines only.
        let (ok, detail) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Push)
            .unwrap();
        assert!(ok, "{detail:?}");
        let after = world.upstream.file("po/ja.po");
        let old_lines: Vec<&str> = before.lines().collect();
        let new_lines: Vec<&str> = after.lines().collect();
        assert_eq!(old_lines.len(), new_lines.len());
        let changed: Vec<(&str, &str)> = old_lines
            .iter()
            .zip(&new_lines)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (*a, *b))
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].1, "msgstr \"Tolk の訳\"");
        let log = world
            .upstream
            .git(&["log", "-1", "--format=%an <%ae>%n%B", "main"]);
        assert!(
            log.starts_with(
                "Jane Doe <jane@example.com>\nchore(l10n): update Japanese translation"
            ),
            "{log}"
        );
        assert!(log.contains("Translation: Demo/APP"), "{log}");
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!(
            (status.needs_commit, status.needs_push, status.pending_units),
            (false, false, 0)
        );
        assert!(
            !service
                .units()
                .get(&world.admin, unit.unit.id)
                .unwrap()
                .unit
                .pending
        );
    }
}

#[test]
fn pull_reads_upstream_changes_and_a_conflict_is_reported_and_reset() {
    for db in TestDb::all() {
        let world = World::new(db);
        world.create("app");
        let service = &world.service;
        let ru = world.units("ru", None);
        let target = ru
            .iter()
            .find(|u| u.unit.state == 20 && !u.unit.target.contains('"'))
            .unwrap();
        let first = target.unit.target.clone();
        world.upstream.developer_edits(
            "po/ru.po",
            &format!("msgstr \"{first}\""),
            "msgstr \"Новый перевод\"",
        );
        let (ok, _) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Pull)
            .unwrap();
        assert!(ok);
        assert_eq!(
            service
                .units()
                .get(&world.admin, target.unit.id)
                .unwrap()
                .unit
                .target,
            "Новый перевод"
        );

        // Both sides change one string: the pull fails, says where, changes nothing.
        world.edit(target.unit.id, "Перевод Tolk");
        service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Commit)
            .unwrap();
        world.upstream.developer_edits(
            "po/ru.po",
            "msgstr \"Новый перевод\"",
            "msgstr \"Ещё перевод\"",
        );
        let (ok, detail) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Pull)
            .unwrap();
        assert!(!ok);
        let detail = detail.unwrap();
        assert!(
            detail.contains(&format!("po/ru.po: {}", target.unit.source)),
            "the string is named: {detail}"
        );
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert!(
            status
                .merge_failure
                .as_deref()
                .unwrap()
                .contains("po/ru.po")
        );
        assert_eq!((status.needs_merge, status.needs_push), (true, true));

        // Reset recovers: upstream's text, nothing pending, no failure.
        let (ok, _) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Reset)
            .unwrap();
        assert!(ok);
        assert_eq!(
            service
                .units()
                .get(&world.admin, target.unit.id)
                .unwrap()
                .unit
                .target,
            "Ещё перевод"
        );
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!(status.merge_failure, None);
        assert_eq!(
            (status.needs_merge, status.needs_push, status.needs_commit),
            (false, false, false)
        );
    }
}

#[test]
fn bad_components_are_refused_field_by_field() {
    for db in TestDb::all() {
        let world = World::new(db);
        let settings = ComponentSettings {
            name: "Bad".into(),
            slug: "bad".into(),
            repo: world
                .upstream
                .root()
                .join("nowhere.git")
                .display()
                .to_string(),
            filemask: "po/cs.po".into(),
            file_format: "nope".into(),
            ..ComponentSettings::default()
        };
        let attrs = common::field_errors(world.service.components().create(
            &world.admin,
            "demo",
            Ok(settings),
            CreateOptions::default(),
        ));
        assert_eq!(
            attrs,
            vec![
                "filemask: File mask does not contain * as a language placeholder!",
                "file_format: \"nope\" is not a valid choice.",
                "repo: Could not fetch the repository.",
            ]
        );
        assert_eq!(
            world.service.tasks().run_due().unwrap(),
            0,
            "nothing was queued"
        );
    }
}

#[test]
fn components_are_listed_shared_edited_locked_and_removed() {
    for db in TestDb::all() {
        let world = World::new(db);
        world.create("app");
        let service = &world.service;
        let page = PageRequest {
            number: Some(1),
            size: 50,
        };

        // Same repository and branch: the second component shares the clone.
        let other = ComponentSettings {
            name: "Other".into(),
            slug: "other".into(),
            repo: world.upstream.url(),
            branch: "main".into(),
            filemask: "po/*.po".into(),
            file_format: "po".into(),
            ..ComponentSettings::default()
        };
        let shared = service
            .components()
            .create(&world.admin, "demo", Ok(other), CreateOptions::default())
            .unwrap();
        assert_eq!(shared.component.settings.repo, "weblate://demo/app");
        assert_eq!(shared.linked.as_ref().map(|l| l.1.as_str()), Some("app"));
        // A component sharing the clone is checked against its files, as
        // Weblate checks it, with no request to the remote.
        let astray = ComponentSettings {
            name: "Astray".into(),
            slug: "astray".into(),
            repo: "weblate://demo/app".into(),
            filemask: "nowhere/*.po".into(),
            file_format: "po".into(),
            new_base: "nowhere/app.pot".into(),
            ..ComponentSettings::default()
        };
        assert_eq!(
            common::field_errors(service.components().create(
                &world.admin,
                "demo",
                Ok(astray),
                CreateOptions::default()
            )),
            [
                "new_base: File does not exist.",
                "filemask: The file mask did not match any files."
            ]
        );
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        let all = service
            .components()
            .list(&world.admin, Some("demo"), page)
            .unwrap();
        assert_eq!(all.count, 2);
        let translations = service
            .translations()
            .list(&world.admin, Some(("demo", "other")), page)
            .unwrap();
        assert_eq!(translations.count, 5);
        assert_eq!(
            service
                .translations()
                .list(&service.auth().anonymous().unwrap(), None, page)
                .unwrap()
                .count,
            10
        );
        // Another project never shares it: a change there (a translation
        // deleted, say) must not reach this project's files.
        service
            .projects()
            .create(
                &Subject::System,
                Ok(ProjectSettings {
                    name: "Elsewhere".into(),
                    slug: "elsewhere".into(),
                    web: "https://example.com/".into(),
                    ..ProjectSettings::default()
                }),
            )
            .unwrap();
        let apart = ComponentSettings {
            name: "Apart".into(),
            slug: "apart".into(),
            repo: world.upstream.url(),
            branch: "main".into(),
            filemask: "po/*.po".into(),
            file_format: "po".into(),
            ..ComponentSettings::default()
        };
        let apart = service
            .components()
            .create(
                &world.admin,
                "elsewhere",
                Ok(apart),
                CreateOptions::default(),
            )
            .unwrap();
        assert_eq!(apart.component.settings.repo, world.upstream.url());
        assert_eq!(apart.linked, None);
        assert_eq!(apart.component.linked_component_id, None);
        assert_eq!(service.tasks().run_due().unwrap(), 1, "its own clone");
        assert_eq!(
            service
                .translations()
                .list(&world.admin, Some(("elsewhere", "apart")), page)
                .unwrap()
                .count,
            5
        );

        // Edits are validated; a locked component refuses translation.
        let err = service
            .components()
            .update(&world.admin, "demo", "other", |s| {
                Ok((
                    ComponentSettings {
                        merge_style: "squash".into(),
                        ..s.clone()
                    },
                    None,
                ))
            })
            .unwrap_err();
        assert!(matches!(err, tolk_service::ServiceError::Validation(_)));
        let renamed = service
            .components()
            .update(&world.admin, "demo", "other", |s| {
                Ok((
                    ComponentSettings {
                        name: "Renamed".into(),
                        ..s.clone()
                    },
                    Some("de".into()),
                ))
            })
            .unwrap();
        assert_eq!(renamed.component.settings.name, "Renamed");
        assert_eq!(renamed.source_language.row.code, "de");
        // Another source language: the files are read and compared again.
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        assert!(
            service
                .components()
                .lock(&world.admin, "demo", "app", Some(true))
                .unwrap()
        );
        assert!(
            service
                .components()
                .lock(&world.admin, "demo", "app", None)
                .unwrap()
        );
        let unit = world.units("ja", Some("state:translated")).remove(0);
        let edit = UnitEdit {
            target: Some(vec!["x".into()]),
            state: Some(20),
            ..Default::default()
        };
        let err = service
            .units()
            .edit(&world.admin, unit.unit.id, edit)
            .unwrap_err();
        assert_eq!(err.to_string(), "This translation is currently locked.");

        // A rescan is a task; removing the owner removes the shared clone's users too.
        service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::FileScan)
            .unwrap();
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        service
            .components()
            .delete(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        assert!(
            !world
                .upstream
                .root()
                .join("vcs")
                .join(unit.translation.component.component.id.to_string())
                .exists()
        );
        // The other project's component, with its own clone, stays.
        let left = service.components().list(&world.admin, None, page).unwrap();
        assert_eq!(left.count, 1);
        assert_eq!(left.items[0].component.settings.slug, "apart");
        assert_eq!(
            service
                .translations()
                .list(&world.admin, Some(("elsewhere", "apart")), page)
                .unwrap()
                .count,
            5
        );
    }
}

#[test]
fn a_task_is_seen_by_its_starter_and_those_who_see_its_project() {
    for db in TestDb::all() {
        let world = World::new(db);
        let created = world.create("app");
        let service = &world.service;
        let id = created.component.task_id.unwrap();
        // The project is public: anybody who sees it sees its tasks.
        assert!(
            service
                .tasks()
                .get(&service.auth().anonymous().unwrap(), &id)
                .unwrap()
                .completed
        );
        service
            .projects()
            .update(&Subject::System, "demo", |s| {
                Ok(ProjectSettings {
                    access_control: tolk_domain::permission::AccessControl::Private.code(),
                    ..s.clone()
                })
            })
            .unwrap();
        let stranger = Subject::user(world.admin.user_id().unwrap() + 1000, false);
        for (who, visible) in [
            (&stranger, false),
            (&service.auth().anonymous().unwrap(), false),
            (&world.admin, true),
        ] {
            assert_eq!(service.tasks().get(who, &id).is_ok(), visible, "{who:?}");
        }
        assert!(matches!(
            service
                .tasks()
                .get(&world.admin, "00000000-0000-4000-8000-000000000000"),
            Err(tolk_service::ServiceError::NotFound)
        ));
    }
}

/// The translation of the unit with this context or source in `code`.
fn text_of(world: &World, component: &str, code: &str, key: &str) -> (i64, String) {
    let request = PageRequest {
        number: Some(1),
        size: 10_000,
    };
    let unit = world
        .service
        .units()
        .list(&world.admin, Some(("demo", component, code)), None, request)
        .unwrap()
        .items
        .into_iter()
        .find(|u| u.unit.context == key || u.unit.source == key)
        .unwrap_or_else(|| panic!("no unit {key}"));
    (unit.unit.id, unit.unit.target)
}

#[test]
fn strings_changed_on_different_sides_merge_where_lines_conflict() {
    const X: &str = "Ensure this value is less than or equal to %(limit_value)s.";
    const Y: &str = "Ensure this value is greater than or equal to %(limit_value)s.";
    for style in ["rebase", "merge"] {
        for db in TestDb::all() {
            let world = World::new(db);
            let service = &world.service;
            world.create_with(ComponentSettings {
                name: "App".into(),
                slug: "app".into(),
                repo: world.upstream.url(),
                filemask: "po/*.po".into(),
                file_format: "po".into(),
                merge_style: style.into(),
                ..ComponentSettings::default()
            });
            world.create_with(ComponentSettings {
                name: "Countries".into(),
                slug: "countries".into(),
                repo: world.upstream.url(),
                filemask: "countries/*.json".into(),
                template: "countries/en.json".into(),
                file_format: "json-nested".into(),
                merge_style: style.into(),
                ..ComponentSettings::default()
            });
            let (x, _) = text_of(&world, "app", "ja", X);
            world.edit(x, "Tolk の訳");
            let (af, _) = text_of(&world, "countries", "ar", "countries.AF");
            world.edit(af, "أفغانستان (Tolk)");
            for slug in ["app", "countries"] {
                service
                    .repository()
                    .operation(&world.admin, "demo", slug, Operation::Commit)
                    .unwrap();
            }
            // Upstream re-wraps X's msgid (the line next to Tolk's msgstr),
            // translates Y anew, and edits the key next to AF: Git cannot
            // merge either file line by line.
            let dev = world.upstream.developer();
            git(&dev, &["pull", "--quiet", "--rebase", "origin", "main"]);
            let ja = std::fs::read_to_string(dev.join("po/ja.po")).unwrap();
            let ja = ja
                .replacen(
                    &format!("msgid \"{X}\""),
                    "msgid \"\"\n\"Ensure this value is less than or equal to \"\n\"%(limit_value)s.\"",
                    1,
                )
                .replacen(
                    "msgstr \"この値は %(limit_value)s 以上でなければなりません。\"",
                    "msgstr \"%(limit_value)s 以上にしてください。\"",
                    1,
                );
            std::fs::write(dev.join("po/ja.po"), ja).unwrap();
            let ar = std::fs::read_to_string(dev.join("countries/ar.json")).unwrap();
            std::fs::write(
                dev.join("countries/ar.json"),
                ar.replacen("\"AL\": \"ألبانيا\"", "\"AL\": \"ألبانيا (upstream)\"", 1),
            )
            .unwrap();
            git(&dev, &["commit", "--quiet", "-am", "re-wrap and translate"]);
            git(&dev, &["push", "--quiet", "origin", "main"]);

            for slug in ["app", "countries"] {
                let (ok, detail) = service
                    .repository()
                    .operation(&world.admin, "demo", slug, Operation::Pull)
                    .unwrap();
                assert!(ok, "{style} {slug}: {detail:?}");
                assert_eq!(detail, None);
                let status = service
                    .repository()
                    .status(&world.admin, "demo", slug)
                    .unwrap();
                assert_eq!(status.merge_failure, None);
                assert_eq!(
                    (status.needs_merge, status.needs_push),
                    (false, true),
                    "{style}"
                );
            }
            assert_eq!(text_of(&world, "app", "ja", X).1, "Tolk の訳");
            assert_eq!(
                text_of(&world, "app", "ja", Y).1,
                "%(limit_value)s 以上にしてください。"
            );
            assert_eq!(
                text_of(&world, "countries", "ar", "countries.AF").1,
                "أفغانستان (Tolk)"
            );
            assert_eq!(
                text_of(&world, "countries", "ar", "countries.AL").1,
                "ألبانيا (upstream)"
            );

            service
                .repository()
                .operation(&world.admin, "demo", "app", Operation::Push)
                .unwrap();
            let ja = world.upstream.file("po/ja.po");
            assert!(
                ja.contains("msgid \"\"\n\"Ensure this value is less than or equal to \"\n\"%(limit_value)s.\"\nmsgstr \"Tolk の訳\""),
                "upstream's wrapping and Tolk's translation: {ja}"
            );
            let ar = world.upstream.file("countries/ar.json");
            assert!(
                ar.contains("\"AF\": \"أفغانستان (Tolk)\",\n    \"AL\": \"ألبانيا (upstream)\""),
                "{ar}"
            );

            // A string both sides change stays a conflict, named by its key.
            let (dz, _) = text_of(&world, "countries", "ar", "countries.DZ");
            world.edit(dz, "الجزائر (Tolk)");
            service
                .repository()
                .operation(&world.admin, "demo", "countries", Operation::Commit)
                .unwrap();
            world.upstream.developer_edits(
                "countries/ar.json",
                "\"الجزائر\"",
                "\"الجزائر (upstream)\"",
            );
            let (ok, detail) = service
                .repository()
                .operation(&world.admin, "demo", "countries", Operation::Pull)
                .unwrap();
            assert!(!ok);
            assert_eq!(
                detail.as_deref(),
                Some("Strings changed on both sides in countries/ar.json: countries.DZ")
            );
        }
    }
}

#[test]
fn pending_edits_are_committed_when_old_enough_and_pushed_when_configured() {
    for db in TestDb::all() {
        let world = World::new(db);
        let service = &world.service;
        world.create_with(ComponentSettings {
            name: "App".into(),
            slug: "app".into(),
            repo: world.upstream.url(),
            push: world.upstream.url(),
            filemask: "po/*.po".into(),
            file_format: "po".into(),
            commit_pending_age: 2,
            ..ComponentSettings::default()
        });
        let (id, _) = text_of(&world, "app", "ja", "Afrikaans");
        world.edit(id, "アフリカーンス語 (Tolk)");
        let now = chrono::Utc::now().naive_utc();
        assert_eq!(
            service.repository().commit_pending_due(now).unwrap(),
            0,
            "not old enough"
        );
        assert!(service.units().get(&world.admin, id).unwrap().unit.pending);
        let later = now + chrono::Duration::hours(3);
        assert_eq!(service.repository().commit_pending_due(later).unwrap(), 1);
        assert!(!service.units().get(&world.admin, id).unwrap().unit.pending);
        assert!(
            world
                .upstream
                .file("po/ja.po")
                .contains("msgstr \"アフリカーンス語 (Tolk)\""),
            "push_on_commit with a push URL pushes"
        );
        // Pushed to the push URL (not to the clone's origin): nothing is
        // outgoing any more, and upstream's revision is a string.
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!((status.needs_push, status.outgoing_commits), (false, 0));
        let head = world.upstream.git(&["rev-parse", "main"]);
        let fetched = status.remote_commit.unwrap();
        assert_eq!(fetched.len(), 40);
        assert_ne!(fetched, head.trim(), "as last fetched, before the push");
        assert_eq!(
            service.repository().commit_pending_due(later).unwrap(),
            0,
            "nothing left"
        );

        // Without a push URL a commit stays local, as in Weblate.
        service
            .components()
            .update(&world.admin, "demo", "app", |s| {
                Ok((
                    ComponentSettings {
                        push: String::new(),
                        ..s.clone()
                    },
                    None,
                ))
            })
            .unwrap();
        world.edit(id, "アフリカーンス語");
        let (ok, _) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Commit)
            .unwrap();
        assert!(ok);
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!((status.needs_commit, status.needs_push), (false, true));
    }
}

/// Changes `app`'s settings with `change`.
fn reconfigure(
    world: &World,
    change: impl Fn(&mut ComponentSettings),
) -> Result<tolk_service::components::ComponentView, tolk_service::ServiceError> {
    world
        .service
        .components()
        .update(&world.admin, "demo", "app", |s| {
            let mut settings = s.clone();
            change(&mut settings);
            Ok((settings, None))
        })
}

#[test]
fn a_new_branch_or_repository_moves_the_work_tree() {
    for db in TestDb::all() {
        let world = World::new(db);
        world.create("app");
        let service = &world.service;
        // Upstream grows a branch `stable` whose Japanese differs.
        let dev = world.upstream.developer();
        git(&dev, &["checkout", "--quiet", "-b", "stable"]);
        world.upstream.developer_edits(
            "po/ja.po",
            "msgstr \"アフリカーンス語\"",
            "msgstr \"安定版\"",
        );
        git(&dev, &["push", "--quiet", "origin", "stable"]);
        git(&dev, &["checkout", "--quiet", "main"]);
        // A pending edit on main is committed before the move.
        let (id, _) = text_of(&world, "app", "ja", "Arabic");
        world.edit(id, "アラビア語 (Tolk)");
        let view = reconfigure(&world, |s| s.branch = "stable".into()).unwrap();
        assert_eq!(view.component.settings.branch, "stable");
        assert!(view.component.task_id.is_some(), "the move runs as a task");
        assert!(!service.units().get(&world.admin, id).unwrap().unit.pending);
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        assert_eq!(text_of(&world, "app", "ja", "Afrikaans").1, "安定版");
        let status = service
            .repository()
            .status(&world.admin, "demo", "app")
            .unwrap();
        assert!(
            status.status.starts_with("On branch stable"),
            "{}",
            status.status
        );
        assert_eq!((status.missing_commits, status.outgoing_commits), (0, 0));
        let stable_tip = world.upstream.git(&["rev-parse", "stable"]);
        assert_eq!(status.remote_commit.as_deref(), Some(stable_tip.trim()));

        // A new repository: a mirror elsewhere, with a commit of its own.
        let mirror = world.upstream.root().join("mirror.git");
        git(
            world.upstream.root(),
            &[
                "clone",
                "--quiet",
                "--bare",
                &world.upstream.url(),
                "mirror.git",
            ],
        );
        let mirror_url = mirror.display().to_string();
        reconfigure(&world, |s| s.repo = mirror_url.clone()).unwrap();
        assert_eq!(service.tasks().run_due().unwrap(), 1);
        let work = world.upstream.root().join("mirror-dev");
        git(
            world.upstream.root(),
            &[
                "clone",
                "--quiet",
                "-b",
                "stable",
                &mirror_url,
                "mirror-dev",
            ],
        );
        let file = work.join("po/ja.po");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replacen("msgstr \"安定版\"", "msgstr \"鏡\"", 1),
        )
        .unwrap();
        git(&work, &["commit", "--quiet", "-am", "mirror"]);
        git(&work, &["push", "--quiet", "origin", "stable"]);
        let (ok, detail) = service
            .repository()
            .operation(&world.admin, "demo", "app", Operation::Pull)
            .unwrap();
        assert!(ok, "{detail:?}");
        assert_eq!(
            text_of(&world, "app", "ja", "Afrikaans").1,
            "鏡",
            "fetched from the mirror"
        );
    }
}

#[test]
fn repository_settings_pass_the_policy_when_saved() {
    for db in TestDb::all() {
        let world = World::new(db);
        world.create("app");
        assert_eq!(
            common::field_errors(reconfigure(&world, |s| s.push = "ext::sh%20-c%20id".into())),
            ["push: Git remote helpers (transport::address) are not allowed."]
        );
        assert_eq!(
            common::field_errors(
                reconfigure(&world, |s| s.push = "https://127.0.0.1/app.git".into())
            ),
            ["push: The host 127.0.0.1 resolves to an internal address; \
              list it in TOLK_VCS_PRIVATE_ALLOWLIST to allow it."]
        );
        assert_eq!(
            common::field_errors(reconfigure(&world, |s| s.filemask = ".git/*".into())),
            ["filemask: File mask must be a relative path inside the repository, outside .git."]
        );
        assert_eq!(
            common::field_errors(reconfigure(&world, |s| s.template = "po/../../x".into())),
            ["template: Enter a path inside the repository, outside .git."]
        );
        let view = world
            .service
            .components()
            .get(&world.admin, "demo", "app")
            .unwrap();
        assert_eq!(view.component.settings.push, "", "nothing was saved");
        assert_eq!(world.service.tasks().run_due().unwrap(), 0);
    }
}

#[test]
fn creation_checks_the_files_the_settings_name() {
    for db in TestDb::all() {
        let world = World::new(db);
        let attempt = |change: &dyn Fn(&mut ComponentSettings)| {
            let mut settings = ComponentSettings {
                name: "App".into(),
                slug: "app".into(),
                repo: world.upstream.url(),
                filemask: "po/*.po".into(),
                file_format: "po".into(),
                ..ComponentSettings::default()
            };
            change(&mut settings);
            common::field_errors(world.service.components().create(
                &world.admin,
                "demo",
                Ok(settings),
                CreateOptions::default(),
            ))
        };
        assert_eq!(
            attempt(&|s| s.filemask = "locale/*.po".into()),
            ["filemask: The file mask did not match any files."]
        );
        assert_eq!(
            attempt(&|s| s.template = "po/en.pot".into()),
            ["template: File does not exist."]
        );
        assert_eq!(
            attempt(&|s| s.branch = "nope".into()),
            ["branch: The repository was not found, or has no branch nope."]
        );
        // A format that cannot read the files: refused, naming file and line.
        assert_eq!(
            attempt(&|s| s.file_format = "json".into()),
            ["file_format: The files cannot be read in this format: po/ar.po:1: expected a value"]
        );
        assert_eq!(
            world.service.tasks().run_due().unwrap(),
            0,
            "nothing queued"
        );
        // Files made from new_base: a mask that matches nothing yet is fine.
        let view = world
            .service
            .components()
            .create(
                &world.admin,
                "demo",
                Ok(ComponentSettings {
                    name: "New".into(),
                    slug: "new".into(),
                    repo: world.upstream.url(),
                    filemask: "locale/*.po".into(),
                    new_base: "po/ja.po".into(),
                    file_format: "po".into(),
                    ..ComponentSettings::default()
                }),
                CreateOptions::default(),
            )
            .unwrap();
        assert!(view.component.task_id.is_some());
        // Before its setup ran, operations say so instead of succeeding.
        for operation in [Operation::Pull, Operation::FileScan, Operation::Commit] {
            let answer = world
                .service
                .repository()
                .operation(&world.admin, "demo", "new", operation)
                .unwrap();
            assert_eq!(
                (answer.0, answer.1.as_deref()),
                (
                    false,
                    Some("The repository is not set up yet: its setup task has not finished.")
                )
            );
        }
    }
}
