//! Signing in with a password: what is stored, when sessions end, and the
//! site's secret, on every configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use tolk_domain::permission::Subject;
use tolk_service::accounts::{ClientAddress, PasswordChoice, SignIn};
use tolk_service::auth::hash_token;
use tolk_service::{Service, ServiceConfig, ServiceError};
use tolk_store::testing::TestDb;
use tolk_store::{sessions, time, users};

const PASSWORD: &str = "root's own passphrase";

fn sign_in(service: &Service, password: &str) -> Result<String, ServiceError> {
    service.accounts().sign_in(SignIn {
        username: "root",
        password,
        from: &ClientAddress("192.0.2.1".into()),
    })
}

#[test]
fn passwords_and_sessions_are_kept_as_hashes_and_end_as_they_should() {
    for db in TestDb::all() {
        let service = Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
        service
            .auth()
            .create_admin("root", "root@example.com", false, Some(PASSWORD))
            .unwrap();
        let mut conn = db.store.conn().unwrap();
        let (id, hash) = users::password_of(&mut conn, "root").unwrap().unwrap();
        let hash = hash.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains(PASSWORD));

        let key = sign_in(&service, PASSWORD).unwrap();
        assert!(
            sessions::find(&mut conn, &key, time::now())
                .unwrap()
                .is_none(),
            "only the digest is stored"
        );
        let session = service.accounts().session(&key).unwrap().unwrap();
        assert_eq!(session.person.username, "root");
        assert_eq!(session.subject, Subject::user(id, true));
        assert!(matches!(
            sign_in(&service, "wrong passphrase"),
            Err(ServiceError::AuthenticationFailed(_))
        ));

        // A change needs the current password and ends every session.
        let other = sign_in(&service, PASSWORD).unwrap();
        let wrong = service.accounts().change_password(
            id,
            PasswordChoice {
                current: Some("not it"),
                new: "a newer passphrase",
                repeated: "a newer passphrase",
            },
        );
        assert!(matches!(wrong, Err(ServiceError::Validation(e)) if e.has("old_password")));
        assert!(
            service.accounts().session(&other).unwrap().is_some(),
            "a refused change ends nothing"
        );
        let renewed = service
            .accounts()
            .change_password(
                id,
                PasswordChoice {
                    current: Some(PASSWORD),
                    new: "a newer passphrase",
                    repeated: "a newer passphrase",
                },
            )
            .unwrap();
        assert!(service.accounts().session(&key).unwrap().is_none());
        assert!(service.accounts().session(&other).unwrap().is_none());
        assert!(service.accounts().session(&renewed).unwrap().is_some());

        // Ended sessions are swept; deactivation ends the rest.
        let later = time::now() + chrono::Duration::days(15);
        assert_eq!(service.accounts().sweep(later).unwrap(), 1);
        let open = sign_in(&service, "a newer passphrase").unwrap();
        service
            .auth()
            .create_admin("keeper", "keeper@example.com", false, None)
            .unwrap();
        service.users().delete(&Subject::System, "root").unwrap();
        assert!(service.accounts().session(&open).unwrap().is_none());
        assert!(
            sessions::find(&mut conn, &hash_token(&open), time::now())
                .unwrap()
                .is_none()
        );
    }
}

#[test]
fn the_site_secret_is_made_once() {
    for db in TestDb::all() {
        let service = Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
        // Instances starting together all read the one stored first.
        let racing: Vec<String> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| service.accounts().site_secret().unwrap()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(racing[0].len(), 64);
        assert!(racing.iter().all(|s| *s == racing[0]), "{racing:?}");
        assert_eq!(service.accounts().site_secret().unwrap(), racing[0]);
    }
}
