//! The statistics kept above translations (components, projects, a
//! project's languages, languages, the site, a set of components) equal a
//! recount of the translations' counters after every step of random
//! changes: counters moved, set, translations added and deleted,
//! components and projects deleted, and changes folded or not yet; on
//! each database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::collections::BTreeMap;

use tolk_domain::permission::ProjectVisibility;
use tolk_domain::project::ProjectSettings;
use tolk_domain::stats::{Count, Counters};
use tolk_store::languages::LanguageScope;
use tolk_store::testing::{Rng, TestDb, add_translation};
use tolk_store::{
    DbConnection, components, kept_stats, languages, projects, stats, time, translations,
};

/// Random counters for the steps.
trait Random {
    /// A number from -3 to 12.
    fn small(&mut self) -> i64;

    /// Counters of such numbers.
    fn counters(&mut self) -> Counters;
}

impl Random for Rng {
    fn small(&mut self) -> i64 {
        i64::try_from(self.below(16)).unwrap() - 3
    }

    fn counters(&mut self) -> Counters {
        let mut count = || Count {
            strings: self.small(),
            words: self.small(),
            chars: self.small(),
        };
        Counters {
            total: count(),
            translated: count(),
            fuzzy: count(),
            approved: count(),
            readonly: count(),
            failing: self.small(),
            failing_words: self.small(),
            failing_chars: self.small(),
            suggestions: self.small(),
            comments: self.small(),
        }
    }
}

const COMPONENTS: [&str; 3] = ["app", "docs", "web"];
const LANGUAGES: [&str; 4] = ["cs", "de", "fr", "ja"];

/// A translation as recounted: its id, component, project, language and counters.
struct Row {
    id: i64,
    component: i64,
    project: i64,
    language: i64,
    counters: Counters,
}

/// Every translation of the projects, read from its own row.
fn rows(conn: &mut DbConnection, projects: &[i64]) -> Vec<Row> {
    let mut all = Vec::new();
    for project in projects {
        let ids: Vec<i64> = components::of_project(conn, *project)
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        for t in translations::of_components(conn, &ids).unwrap() {
            all.push(Row {
                id: t.id,
                component: t.component_id,
                project: *project,
                language: t.language_id,
                counters: t.counters,
            });
        }
    }
    all
}

/// The counters of `rows` summed by `key`.
fn by(rows: &[Row], key: impl Fn(&Row) -> i64) -> BTreeMap<i64, Counters> {
    let mut sums: BTreeMap<i64, Counters> = BTreeMap::new();
    for row in rows {
        *sums.entry(key(row)).or_default() += row.counters;
    }
    sums
}

/// Every level read from the kept statistics equals the recount.
fn assert_levels(conn: &mut DbConnection, projects: &[i64], languages: &[i64], when: &str) {
    let all = rows(conn, projects);
    let per_project = by(&all, |r| r.project);
    for project in projects {
        let kept = stats::project(conn, *project).unwrap().counters;
        let recount = per_project.get(project).copied().unwrap_or_default();
        assert_eq!(kept, recount, "project {project} {when}");
        let kept: BTreeMap<i64, Counters> = stats::project_languages(conn, *project)
            .unwrap()
            .into_iter()
            .map(|(language, summary)| (language, summary.counters))
            .collect();
        let mine: Vec<Row> = rows(conn, &[*project]);
        assert_eq!(
            kept,
            by(&mine, |r| r.language),
            "languages of {project} {when}"
        );
    }
    let kept: BTreeMap<i64, Counters> = stats::counters_of_projects(conn, projects)
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(kept, per_project, "projects {when}");
    let component_ids: Vec<i64> = projects
        .iter()
        .flat_map(|p| components::of_project(conn, *p).unwrap())
        .map(|c| c.id)
        .collect();
    let per_component = by(&all, |r| r.component);
    let kept: BTreeMap<i64, Counters> = stats::counters_of_each_component(conn, &component_ids)
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(kept, per_component, "components {when}");
    let some: Vec<i64> = component_ids.iter().copied().step_by(2).collect();
    let recount = all.iter().filter(|r| some.contains(&r.component)).fold(
        Counters::default(),
        |mut sum, r| {
            sum += r.counters;
            sum
        },
    );
    assert_eq!(
        stats::of_components(conn, &some).unwrap().counters,
        recount,
        "a set of components {when}"
    );
    assert_eq!(
        stats::counters_of_components(conn, &some, None).unwrap(),
        recount,
        "a set of components' counters {when}"
    );
    let per_language = by(&all, |r| r.language);
    for language in languages {
        let kept = stats::language(conn, *language, &ProjectVisibility::All)
            .unwrap()
            .counters;
        let recount = per_language.get(language).copied().unwrap_or_default();
        assert_eq!(kept, recount, "language {language} {when}");
    }
    let site = by(&all, |_| 0).get(&0).copied().unwrap_or_default();
    assert_eq!(stats::site(conn).unwrap().counters, site, "site {when}");
}

fn new_project(store: &tolk_store::Store, n: usize) -> i64 {
    let settings = ProjectSettings {
        name: format!("Project {n}"),
        slug: format!("project-{n}"),
        web: "https://example.com/".into(),
        ..ProjectSettings::default()
    };
    store
        .write(|c| projects::insert(c, &settings, time::now()))
        .unwrap()
        .id
}

#[test]
fn kept_statistics_equal_a_recount_at_every_level_after_random_changes() {
    for db in TestDb::all() {
        let store = &db.store;
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let mut projects: Vec<i64> = (0..3).map(|n| new_project(store, n)).collect();
        let languages: Vec<i64> = {
            let mut conn = store.conn().unwrap();
            LANGUAGES
                .iter()
                .map(|code| {
                    languages::get_by_code(&mut conn, code, LanguageScope::All)
                        .unwrap()
                        .unwrap()
                        .row
                        .id
                })
                .collect()
        };
        let mut made = 3;
        let mut folds = 0;
        for step in 0..160 {
            let now = time::now();
            let existing = rows(&mut store.conn().unwrap(), &projects);
            let some = |rng: &mut Rng| existing.get(rng.below(existing.len().max(1)));
            let what = match rng.below(12) {
                0..=2 => {
                    let project = projects[rng.below(projects.len())];
                    let component = COMPONENTS[rng.below(COMPONENTS.len())];
                    let language = LANGUAGES[rng.below(LANGUAGES.len())];
                    let language_id =
                        languages[LANGUAGES.iter().position(|l| *l == language).unwrap()];
                    let taken = existing.iter().any(|r| {
                        r.project == project
                            && r.language == language_id
                            && components::of_project(&mut store.conn().unwrap(), project)
                                .unwrap()
                                .iter()
                                .any(|c| c.id == r.component && c.settings.slug == component)
                    });
                    if !taken {
                        add_translation(store, project, component, language, &rng.counters(), now);
                    }
                    "a translation added"
                }
                3..=4 => {
                    if let Some(row) = some(&mut rng) {
                        let delta = rng.counters();
                        store
                            .write(|c| translations::add_counters(c, row.id, &delta, now))
                            .unwrap();
                    }
                    "counters moved"
                }
                5 => {
                    if let Some(row) = some(&mut rng) {
                        let ids: Vec<i64> = existing
                            .iter()
                            .filter(|r| r.language == row.language)
                            .map(|r| r.id)
                            .collect();
                        let delta = rng.counters();
                        store
                            .write(|c| translations::add_counters_to(c, &ids, &delta, now))
                            .unwrap();
                    }
                    "counters of a language moved"
                }
                6 => {
                    if let Some(row) = some(&mut rng) {
                        let set = rng.counters();
                        let at = (rng.below(2) == 0).then_some(now);
                        store
                            .write(|c| translations::set_counters(c, row.id, &set, at))
                            .unwrap();
                    }
                    "counters set"
                }
                7 => {
                    if let Some(row) = some(&mut rng) {
                        // Only the failing counters of a delta move.
                        let delta = rng.counters();
                        store
                            .write(|c| translations::add_failing(c, row.id, &delta))
                            .unwrap();
                    }
                    "failing moved"
                }
                8 => {
                    if let Some(row) = some(&mut rng) {
                        store.write(|c| translations::delete(c, row.id)).unwrap();
                    }
                    "a translation deleted"
                }
                9 if rng.below(3) == 0 => {
                    if let Some(row) = some(&mut rng) {
                        store
                            .write(|c| components::delete(c, row.component))
                            .unwrap();
                    }
                    "a component deleted"
                }
                10 if rng.below(4) == 0 => {
                    let gone = projects.remove(rng.below(projects.len()));
                    store.write(|c| projects::delete(c, gone)).unwrap();
                    projects.push(new_project(store, made));
                    made += 1;
                    "a project deleted"
                }
                _ => {
                    folds += 1;
                    store.write(kept_stats::merge).unwrap();
                    "folded"
                }
            };
            let when = format!("after step {step} ({what})");
            assert_levels(&mut store.conn().unwrap(), &projects, &languages, &when);
        }
        assert!(folds > 10, "{folds} folds");
        // Folding everything leaves nothing pending and the same sums.
        while store.write(kept_stats::merge).unwrap() > 0 {}
        let mut conn = store.conn().unwrap();
        assert!(!kept_stats::any_pending(&mut conn).unwrap());
        assert_levels(&mut conn, &projects, &languages, "at the end");
    }
}
