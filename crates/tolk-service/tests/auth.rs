//! API tokens are stored only as hashes and resolve to their owner.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use tolk_domain::permission::Subject;
use tolk_service::auth::hash_token;
use tolk_service::{Service, ServiceConfig, ServiceError};
use tolk_store::testing::TestDb;
use tolk_store::{time, tokens};

#[test]
fn tokens_are_kept_as_hashes_only() {
    for db in TestDb::all() {
        let service = Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
        let token = service
            .auth()
            .create_admin("root", "root@example.com", false, None)
            .unwrap();
        let mut conn = db.store.conn().unwrap();
        assert!(
            tokens::find(&mut conn, &token, time::now())
                .unwrap()
                .is_none(),
            "the key itself is not stored"
        );
        let found = tokens::find(&mut conn, &hash_token(&token), time::now())
            .unwrap()
            .unwrap();
        assert_eq!(found.key_hash, hash_token(&token));
        assert_eq!(found.user.username, "root");

        assert_eq!(
            service.auth().authenticate(&token).unwrap(),
            Subject::user(found.user.id, true)
        );
        let mut wrong = token.clone();
        wrong.pop();
        wrong.push(if token.ends_with('a') { 'b' } else { 'a' });
        for bad in [wrong.as_str(), "", &"x".repeat(200)] {
            assert!(matches!(
                service.auth().authenticate(bad),
                Err(ServiceError::AuthenticationFailed(message)) if message == "Invalid token."
            ));
        }
    }
}
