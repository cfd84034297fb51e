# Recipes for `just`; each is a plain cargo command, so `just` is optional.

pg_url := env_var_or_default("TOLK_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

# Run all tests on SQLite.
test:
    cargo test --workspace

# Run all tests, those that touch storage on SQLite and PostgreSQL.
test-pg:
    TOLK_TEST_DATABASE_URL={{pg_url}} cargo test --workspace

# Formatting and lints as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items --quiet
    cargo run --quiet -p xtask -- cycles

# Start the server on the embedded database.
serve:
    cargo run --release -p tolk-server -- serve

# Regenerate openapi/openapi.json from the code.
openapi:
    cargo xtask openapi

# Everything CI runs.
ci:
    .ci/run

# Fuzz every file parser for SECONDS each (nightly Rust and cargo-fuzz needed).
fuzz seconds="120":
    crates/tolk-formats/fuzz/run-all {{seconds}}

# The file codec benchmarks (criterion).
bench-formats:
    cargo bench -p tolk-formats
