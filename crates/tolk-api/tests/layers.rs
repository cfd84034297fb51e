//! `layers::costs`, what `tolk layers` and the benchmark print: every
//! request layer is timed around a bare handler, with the requests the
//! layers let through, on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::Ctx;
use tolk_service::testing::TestDb;

/// Short rounds: the test checks what is timed, not how long it takes.
const ROUND: std::time::Duration = std::time::Duration::from_millis(2);

#[actix_web::test]
async fn each_layer_is_timed_around_a_bare_handler() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let costs = tolk_api::layers::costs(ctx.state(), Some(&ctx.admin), ROUND)
            .await
            .unwrap();
        let names: Vec<&str> = costs.iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "bare handler",
                "body budget",
                "throttle",
                "identification",
                "NUL in paths",
                "negotiation",
                "request id",
                "nosniff header",
                "metrics",
                "logging",
                "all layers",
            ]
        );
        assert!(!costs[0].per_request.is_zero(), "{costs:?}");

        // A request the layers refuse is not timed as one answered.
        for token in ["wlu_not-a-token", ""] {
            let refused = tolk_api::layers::costs(ctx.state(), Some(token), ROUND)
                .await
                .unwrap_err();
            assert!(refused.starts_with("GET /api/ answered 401"), "{refused}");
        }
    }
}
