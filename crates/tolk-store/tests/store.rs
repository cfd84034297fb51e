//! Storage behaviour on every configured backend (SQLite always,
//! PostgreSQL when TOLK_TEST_DATABASE_URL is set).

use tolk_domain::change::Action;
use tolk_domain::permission::{AccessControl, ProjectVisibility};
use tolk_domain::project::ProjectSettings;
use tolk_domain::user::UserFields;
use tolk_store::changes::{ChangeFilter, NewChange};
use tolk_store::languages::LanguageScope;
use tolk_store::testing::TestDb;
use tolk_store::users::UserFilter;
use tolk_store::{
    PageRequest, StoreError, changes, languages, metrics, projects, stats, time, tokens, users,
};

fn page(number: u64, size: u64) -> PageRequest {
    PageRequest {
        number: Some(number),
        size,
    }
}

fn settings(name: &str, slug: &str) -> ProjectSettings {
    ProjectSettings {
        name: name.into(),
        slug: slug.into(),
        web: "https://example.com/".into(),
        ..ProjectSettings::default()
    }
}

fn user(username: &str) -> UserFields {
    UserFields {
        username: username.into(),
        full_name: format!("{username} Example"),
        email: format!("{username}@example.com"),
        is_superuser: false,
        is_active: true,
        is_bot: false,
        date_expires: None,
    }
}

#[test]
fn migrations_seed_languages_and_anonymous_once() {
    for db in TestDb::all() {
        let store = &db.store;
        store.migrate().expect("migrating twice is harmless");
        let mut conn = store.conn().unwrap();
        let all = languages::list(&mut conn, LanguageScope::All, page(1, 1000))
            .unwrap()
            .unwrap();
        assert_eq!(all.count, 799, "{:?}", db.backend());
        assert_eq!(all.items[0].row.code, "aa");
        let cs = languages::get_by_code(&mut conn, "cs", LanguageScope::All)
            .unwrap()
            .unwrap();
        assert_eq!(cs.plural.number, 3);
        assert_eq!(cs.plural.formula, "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2");
        assert_eq!(cs.aliases, vec!["ces", "cs_cs", "csy", "cz", "cze"]);
        let in_use = languages::list(&mut conn, LanguageScope::InUse, page(1, 50))
            .unwrap()
            .unwrap();
        assert_eq!(in_use.count, 0);
        assert_eq!(
            users::count(&mut conn).unwrap(),
            1,
            "only the anonymous account"
        );
        assert!(
            users::get_by_username(&mut conn, "anonymous")
                .unwrap()
                .is_some()
        );
    }
}

#[test]
fn pages_past_the_end_are_none_and_last_page_resolves() {
    for db in TestDb::all() {
        let mut conn = db.store.conn().unwrap();
        let last = languages::list(
            &mut conn,
            LanguageScope::All,
            PageRequest {
                number: None,
                size: 100,
            },
        )
        .unwrap()
        .unwrap();
        assert_eq!((last.number, last.items.len()), (8, 99));
        assert!(
            languages::list(&mut conn, LanguageScope::All, page(9, 100))
                .unwrap()
                .is_none()
        );
    }
}

#[test]
fn projects_are_unique_filtered_by_visibility_and_updated() {
    for db in TestDb::all() {
        let store = &db.store;
        let now = time::now();
        let public = store
            .write(|c| projects::insert(c, &settings("Public", "public"), now))
            .unwrap();
        let mut private = settings("Private", "private");
        private.access_control = AccessControl::Private.code();
        private.enforced_checks = vec!["same".into()];
        store.write(|c| projects::insert(c, &private, now)).unwrap();

        let err = store
            .write(|c| projects::insert(c, &settings("Public", "other"), now))
            .unwrap_err();
        assert!(err.is_unique_violation(), "{err}");

        let mut conn = store.conn().unwrap();
        let open = ProjectVisibility::Levels(AccessControl::OPEN.to_vec());
        let listed = projects::list(&mut conn, &open, page(1, 50))
            .unwrap()
            .unwrap();
        assert_eq!(listed.count, 1);
        assert_eq!(listed.items[0].settings.slug, "public");
        let all = projects::list(&mut conn, &ProjectVisibility::All, page(1, 50))
            .unwrap()
            .unwrap();
        assert_eq!(all.count, 2);
        let stored = projects::get_by_slug(&mut conn, "private")
            .unwrap()
            .unwrap();
        assert_eq!(stored.settings, private);
        assert_eq!(stored.created, now, "timestamps read back exactly");

        assert_eq!(
            projects::taken(&mut conn, "Public", "private", None).unwrap(),
            (true, true)
        );
        assert_eq!(
            projects::taken(&mut conn, "Public", "public", Some(public.id)).unwrap(),
            (false, false)
        );
        let mut renamed = public.settings.clone();
        renamed.name = "Renamed".into();
        projects::update(&mut conn, public.id, &renamed).unwrap();
        assert_eq!(
            projects::get_by_slug(&mut conn, "public")
                .unwrap()
                .unwrap()
                .settings
                .name,
            "Renamed"
        );
        assert!(
            projects::locked(&mut conn, &[public.id])
                .unwrap()
                .is_empty()
        );
        projects::delete(&mut conn, public.id).unwrap();
        assert!(
            projects::get_by_slug(&mut conn, "public")
                .unwrap()
                .is_none()
        );
    }
}

#[test]
fn failed_write_leaves_nothing_behind() {
    for db in TestDb::all() {
        let store = &db.store;
        let result: Result<(), StoreError> = store.write(|c| {
            projects::insert(c, &settings("Half", "half"), time::now())?;
            projects::insert(c, &settings("Half", "half"), time::now())?;
            Ok(())
        });
        assert!(result.unwrap_err().is_unique_violation());
        let mut conn = store.conn().unwrap();
        assert!(projects::get_by_slug(&mut conn, "half").unwrap().is_none());
    }
}

#[test]
fn users_filters_tokens_and_deactivation() {
    for db in TestDb::all() {
        let store = &db.store;
        let now = time::now();
        let jane = store
            .write(|c| users::insert(c, &user("jane"), now))
            .unwrap();
        store
            .write(|c| users::insert(c, &user("janet"), now))
            .unwrap();
        store
            .write(|c| users::insert(c, &user("Jan_x"), now))
            .unwrap();
        let mut conn = store.conn().unwrap();
        let names = |filter: UserFilter, conn: &mut tolk_store::DbConnection| -> Vec<String> {
            users::list(conn, &filter, page(1, 50))
                .unwrap()
                .unwrap()
                .items
                .into_iter()
                .map(|u| u.username)
                .collect()
        };
        let prefix = |p: &str| UserFilter {
            username_prefix: Some(p.into()),
            ..UserFilter::default()
        };
        assert_eq!(names(prefix("jane"), &mut conn), vec!["jane", "janet"]);
        assert_eq!(
            names(prefix("jan"), &mut conn),
            vec!["jane", "janet"],
            "case-sensitive"
        );
        assert!(
            names(prefix("Jan%"), &mut conn).is_empty(),
            "wildcards are literal"
        );
        assert_eq!(names(prefix("Jan_"), &mut conn), vec!["Jan_x"]);
        let by_email = UserFilter {
            email: Some("JANE@example.COM".into()),
            ..UserFilter::default()
        };
        assert_eq!(names(by_email, &mut conn), vec!["jane"]);
        let inactive = UserFilter {
            is_active: Some(false),
            ..UserFilter::default()
        };
        assert_eq!(names(inactive, &mut conn), vec!["anonymous"]);

        tokens::insert(&mut conn, jane.id, None, "hash-1", now).unwrap();
        let (hash, owner) = tokens::find(&mut conn, "hash-1", now).unwrap().unwrap();
        assert_eq!((hash.as_str(), owner.id), ("hash-1", jane.id));
        assert!(tokens::find(&mut conn, "hash-2", now).unwrap().is_none());

        assert!(users::is_verified_email(&mut conn, jane.id, "Jane@Example.com").unwrap());
        users::deactivate(&mut conn, jane.id).unwrap();
        let gone = users::get(&mut conn, jane.id).unwrap().unwrap();
        assert_eq!(gone.username, format!("deleted-{}", jane.id));
        assert!(!gone.is_active);
        assert!(tokens::find(&mut conn, "hash-1", now).unwrap().is_none());
    }
}

#[test]
fn profile_links_load_for_many_users() {
    for db in TestDb::all() {
        let store = &db.store;
        let now = time::now();
        let jane = store
            .write(|c| users::insert(c, &user("jane"), now))
            .unwrap();
        let project = store
            .write(|c| projects::insert(c, &settings("Demo", "demo"), now))
            .unwrap();
        let mut conn = store.conn().unwrap();
        let codes = ["cs".to_owned(), "de".to_owned()];
        let ids: Vec<i64> = languages::get_by_codes(&mut conn, &codes)
            .unwrap()
            .iter()
            .map(|l| l.id)
            .collect();
        users::set_languages(&mut conn, jane.id, false, &ids).unwrap();
        users::set_languages(&mut conn, jane.id, true, &ids[..1]).unwrap();
        users::set_watched(&mut conn, jane.id, &[project.id]).unwrap();
        let links = users::profile_links(&mut conn, &[jane.id]).unwrap();
        let jane_links = &links[&jane.id];
        assert_eq!(jane_links.secondary_languages.len(), 1);
        assert_eq!(
            jane_links.languages.len(),
            1,
            "a language is primary or secondary"
        );
        assert_eq!(jane_links.watched, vec![("demo".to_owned(), 0)]);
    }
}

#[test]
fn changes_filter_and_order() {
    for db in TestDb::all() {
        let store = &db.store;
        let now = time::now();
        let project = store
            .write(|c| projects::insert(c, &settings("Demo", "demo"), now))
            .unwrap();
        let jane = store
            .write(|c| users::insert(c, &user("jane"), now))
            .unwrap();
        let mut conn = store.conn().unwrap();
        let at = |minutes: i64| now + chrono::Duration::minutes(minutes);
        let mut created = NewChange::new(Action::CREATE_PROJECT, Some(jane.id));
        created.project_id = Some(project.id);
        changes::record(&mut conn, &created, at(0)).unwrap();
        let mut edited = NewChange::new(Action::PROJECT_SETTING_CHANGE, None);
        edited.project_id = Some(project.id);
        changes::record(&mut conn, &edited, at(5)).unwrap();
        changes::record(
            &mut conn,
            &NewChange::new(Action::USER_ACCESS_CHANGE, Some(jane.id)),
            at(10),
        )
        .unwrap();

        let filter = ChangeFilter {
            project_id: None,
            user_id: None,
            actions: Vec::new(),
            after: None,
            before: None,
            visibility: ProjectVisibility::All,
            site_wide: true,
        };
        let actions = |f: &ChangeFilter, conn: &mut tolk_store::DbConnection| -> Vec<i32> {
            changes::list(conn, f, page(1, 50))
                .unwrap()
                .unwrap()
                .items
                .iter()
                .map(|c| c.action)
                .collect()
        };
        assert_eq!(
            actions(&filter, &mut conn),
            vec![97, 95, 50],
            "newest first"
        );
        let public_only = ChangeFilter {
            visibility: ProjectVisibility::Levels(AccessControl::OPEN.to_vec()),
            site_wide: false,
            ..filter.clone()
        };
        assert_eq!(actions(&public_only, &mut conn), vec![95, 50]);
        let by_jane = ChangeFilter {
            user_id: Some(jane.id),
            ..filter.clone()
        };
        assert_eq!(actions(&by_jane, &mut conn), vec![97, 50]);
        let window = ChangeFilter {
            after: Some(at(1)),
            before: Some(at(5)),
            ..filter.clone()
        };
        assert_eq!(actions(&window, &mut conn), vec![95]);
        let some_actions = ChangeFilter {
            actions: vec![50, 97],
            ..filter.clone()
        };
        assert_eq!(actions(&some_actions, &mut conn), vec![97, 50]);

        let rows = changes::list(&mut conn, &filter, page(1, 50))
            .unwrap()
            .unwrap()
            .items;
        let links = changes::links(&mut conn, &rows).unwrap();
        assert_eq!(links.users[&jane.id], "jane");
        let detail = changes::get(&mut conn, rows[2].id, &public_only)
            .unwrap()
            .unwrap();
        assert_eq!(detail.action, 50);
        assert!(
            changes::get(&mut conn, rows[0].id, &public_only)
                .unwrap()
                .is_none()
        );
    }
}

#[test]
fn empty_statistics_and_site_counts() {
    for db in TestDb::all() {
        let store = &db.store;
        let project = store
            .write(|c| projects::insert(c, &settings("Demo", "demo"), time::now()))
            .unwrap();
        let mut conn = store.conn().unwrap();
        let summary = stats::project(&mut conn, project.id).unwrap();
        assert_eq!(summary, stats::Summary::default());
        assert!(
            stats::project_languages(&mut conn, project.id)
                .unwrap()
                .is_empty()
        );
        let cs = languages::get_by_code(&mut conn, "cs", LanguageScope::All)
            .unwrap()
            .unwrap();
        let lang = stats::language(&mut conn, cs.row.id, &ProjectVisibility::All).unwrap();
        assert_eq!(lang.counters.total.strings, 0);
        let counts = metrics::site_counts(&mut conn).unwrap();
        assert_eq!(
            (
                counts.projects,
                counts.languages,
                counts.users,
                counts.units
            ),
            (1, 799, 1, 0)
        );
        assert!(metrics::queue_lengths(&mut conn).unwrap().is_empty());
    }
}
