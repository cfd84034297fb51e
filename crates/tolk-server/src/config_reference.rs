//! `docs/configuration.md`, written from the command line's own
//! definitions: every setting `tolk serve` takes, with its environment
//! variable, flag, configuration-file key, default and an example, so
//! the reference cannot drift from the code (a test compares the file).
//! `tolk config-reference > docs/configuration.md` rewrites it.

use clap::CommandFactory;

use crate::cli::Cli;

/// One setting as the reference lists it.
struct Row {
    variable: String,
    flag: String,
    key: String,
    default: String,
    example: String,
    meaning: String,
}

/// The text between `[label: ` and `]` in `help`, and `help` without it.
fn take(help: &str, label: &str) -> (String, Option<String>) {
    let open = format!("[{label}: ");
    match help.find(&open) {
        Some(start) => {
            let rest = &help[start + open.len()..];
            let end = rest.find(']').unwrap_or(rest.len());
            let value = rest[..end].to_owned();
            let without = format!("{}{}", &help[..start], rest.get(end + 1..).unwrap_or(""));
            (without, Some(value))
        }
        None => (help.to_owned(), None),
    }
}

/// The settings of `tolk serve` (its flags and the global ones).
fn rows() -> Vec<Row> {
    let command = Cli::command();
    let serve = command.find_subcommand("serve");
    command
        .get_arguments()
        .chain(serve.into_iter().flat_map(|serve| serve.get_arguments()))
        .filter_map(|arg| {
            let variable = arg.get_env()?.to_string_lossy().into_owned();
            let long = arg.get_long()?;
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            let (help, default) = take(&help, "default");
            let (help, example) = take(&help, "example");
            // The file names its own path; the log format is chosen
            // before the file is read.
            let key = match long {
                "config" | "log-format" => "—".to_owned(),
                other => format!("`{}`", other.replace('-', "_")),
            };
            Some(Row {
                variable: format!("`{variable}`"),
                flag: format!("`--{long}`"),
                key,
                default: default.map_or("—".into(), |d| format!("`{d}`")),
                example: example.map_or("—".into(), |e| format!("`{e}`")),
                meaning: help
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .replace(" .", "."),
            })
        })
        .collect()
}

/// The whole reference page.
pub fn reference() -> String {
    let rows = rows();
    let mut page = String::from(
        "# Configuration reference\n\n\
         <!-- Written by `tolk config-reference` from the command line's \
         definitions; a test fails when it is stale. -->\n\n\
         Every setting of `tolk serve` comes from, in this order of \
         precedence: its flag (`tolk serve --bind 0.0.0.0:8000`), its \
         environment variable, its key in the TOML file named by \
         `--config` / `TOLK_CONFIG`, and its default. The commands that \
         only open the database (`migrate`, `createadmin`, `token`, \
         `password-link`) take \
         the storage settings (`--config`, `--database-url`, `--data-dir`, \
         `--db-pool-size`, `--vcs-*`) and `--log-format`. A relative data \
         directory is resolved once, against the directory the command \
         runs in, and every command logs the database and data directory \
         it uses.\n\n\
         | Variable | Flag | File key | Default | Example | Meaning |\n\
         |---|---|---|---|---|---|\n",
    );
    for row in &rows {
        page.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            row.variable, row.flag, row.key, row.default, row.example, row.meaning
        ));
    }
    page.push_str(
        "| `RUST_LOG` | — | — | `info` | `info,tolk_store::sql=trace` | \
         Which log lines are written: a level, or targets with levels \
         (`tolk_store::sql=trace` logs every SQL statement). |\n\n\
         ## A configuration file\n\n\
         Every key is optional; the values here are the examples above.\n\n\
         ```toml\n",
    );
    for row in rows.iter().filter(|r| r.key != "—") {
        let key = row.key.trim_matches('`');
        let example = row.example.trim_matches('`');
        let value = if example.parse::<u64>().is_ok() || example == "true" || example == "false" {
            example.to_owned()
        } else {
            format!("\"{example}\"")
        };
        page.push_str(&format!("{key} = {value}\n"));
    }
    page.push_str("```\n");
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_in_docs_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/configuration.md");
        let written = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            written == reference(),
            "docs/configuration.md is stale: run \
             `cargo run -p tolk-server -- config-reference > docs/configuration.md`"
        );
    }

    #[test]
    fn every_setting_has_a_meaning_a_default_and_an_example() {
        let rows = rows();
        assert!(rows.len() >= 17, "{}", rows.len());
        for row in &rows {
            assert!(!row.meaning.is_empty(), "{}", row.variable);
            assert!(
                !row.meaning.contains('['),
                "{}: {}",
                row.variable,
                row.meaning
            );
            assert_ne!(row.example, "—", "{} has no example", row.variable);
        }
        assert!(rows.iter().any(|r| r.variable == "`TOLK_METRICS_TOKEN`"));
        assert!(rows.iter().any(|r| r.variable == "`TOLK_LOG_FORMAT`"));
    }

    #[test]
    fn the_example_file_is_a_valid_configuration() {
        let page = reference();
        let toml = page
            .split("```toml\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("an example file");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tolk.toml");
        std::fs::write(&path, toml).unwrap();
        let storage = crate::config::StorageFlags {
            config: Some(path),
            ..Default::default()
        };
        let settings =
            crate::config::Settings::resolve(&storage, &crate::config::ServerFlags::default())
                .unwrap();
        assert_eq!(settings.bind, "0.0.0.0:8000");
        assert_eq!(
            settings.metrics_token.as_deref(),
            Some("a-long-random-string")
        );
    }
}
