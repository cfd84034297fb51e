//! The command line: `tolk serve` and the administration commands, with
//! their flags (the configuration reference is written from these).

use clap::{Parser, Subcommand};

use crate::config::{ServerFlags, StorageFlags};
use crate::{files, import, memory};

/// Tolk: a translation management server speaking Weblate's REST API.
#[derive(Debug, Parser)]
#[command(
    name = "tolk",
    version,
    about = "Tolk: a translation management server speaking Weblate's REST API."
)]
pub(crate) struct Cli {
    /// Log lines as text, or as one JSON object per line [default: text].
    /// [example: json]
    #[arg(long, global = true, env = "TOLK_LOG_FORMAT", value_enum)]
    pub(crate) log_format: Option<LogFormat>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// Readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the HTTP server (migrating the database first).
    Serve {
        #[command(flatten)]
        storage: StorageFlags,
        #[command(flatten)]
        server: ServerFlags,
    },
    /// Apply database migrations and load built-in data.
    Migrate {
        #[command(flatten)]
        storage: StorageFlags,
    },
    /// Create a superuser and print a new API token on the last line.
    Createadmin {
        /// Username of the account.
        #[arg(long)]
        username: String,
        /// E-mail of the account.
        #[arg(long)]
        email: String,
        /// Promote the account if it exists instead of failing.
        #[arg(long)]
        update: bool,
        /// Password for signing in to the web pages (at least ten
        /// characters; without it, `tolk password-link` makes a link to
        /// choose one).
        #[arg(long, env = "TOLK_ADMIN_PASSWORD", hide_env_values = true)]
        password: Option<String>,
        #[command(flatten)]
        storage: StorageFlags,
    },
    /// Print a one-time link (valid three days) with which a person
    /// chooses a password for the web pages, on the last line: Tolk sends
    /// no mail, so hand it on yourself. A newer link replaces an older.
    PasswordLink {
        /// Username of the account.
        #[arg(long)]
        username: String,
        /// Public URL of the site the link starts with, as `tolk serve`
        /// takes it (default: the address it listens on).
        #[arg(long, env = "TOLK_SITE_URL")]
        site_url: Option<String>,
        #[command(flatten)]
        storage: StorageFlags,
    },
    /// Print a new API token on the last line: a personal token of an
    /// active account (`--username`), or a project token (`--project`),
    /// whose bot account is in the project's Administration team.
    Token {
        /// Username of the account.
        #[arg(long, required_unless_present = "project", conflicts_with = "project")]
        username: Option<String>,
        /// Slug of the project a new project token reaches.
        #[arg(long)]
        project: Option<String>,
        /// Name of the project token.
        #[arg(long, default_value = "Command line")]
        name: String,
        #[command(flatten)]
        storage: StorageFlags,
    },
    /// Create a project and its components from a repository or a
    /// directory in one step: formats, file masks and templates are
    /// detected from the files and shown before anything is created.
    Import(import::ImportArgs),
    /// Measure what each request layer (identification, throttle,
    /// metrics, logging, …) adds to a request, in-process on this
    /// installation's settings and database: `GET /api/` with a bare
    /// handler, alone and within each layer.
    Layers {
        /// API token the requests carry (none: anonymous requests).
        #[arg(long, env = "TOLK_LAYERS_TOKEN", hide_env_values = true)]
        token: Option<String>,
        #[command(flatten)]
        storage: StorageFlags,
        #[command(flatten)]
        server: ServerFlags,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Print the configuration reference (docs/configuration.md).
    #[command(hide = true)]
    ConfigReference,
    /// Work with translation files without a server.
    File {
        #[command(subcommand)]
        command: files::FileCommand,
    },
    /// Import or export the translation memory (TMX, Weblate's JSON).
    Memory {
        #[command(subcommand)]
        command: memory::MemoryCommand,
    },
}
