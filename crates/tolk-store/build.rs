//! The migrations are embedded when the store is built; a migration added
//! since (a new directory, which the embedding does not watch) rebuilds it.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
