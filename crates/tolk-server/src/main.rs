//! `tolk`: the Tolk server and its administration commands.

mod config;
mod config_reference;
mod files;
mod import;
mod instance;
mod memory;

use std::process::ExitCode;
use std::sync::Arc;
use std::task::Poll;

use actix_web::HttpServer;
use actix_web::rt::signal::unix::{SignalKind, signal};
use clap::{Parser, Subcommand};
use tolk_api::{AppState, Throttle};
use tolk_service::Store;
use tolk_service::{Service, ServiceConfig};

use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::config::{ServerFlags, Settings, StorageFlags};

/// mimalloc instead of the system's allocator: with a thread per
/// request in flight, glibc's malloc took an eighth of the server's time
/// (arenas, consolidation) in profiles of unit reads, edits and pages.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Tolk: a translation management server speaking Weblate's REST API.
#[derive(Debug, Parser)]
#[command(
    name = "tolk",
    version,
    about = "Tolk: a translation management server speaking Weblate's REST API."
)]
struct Cli {
    /// Log lines as text, or as one JSON object per line [default: text].
    /// [example: json]
    #[arg(long, global = true, env = "TOLK_LOG_FORMAT", value_enum)]
    log_format: Option<LogFormat>,
    #[command(subcommand)]
    command: Command,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    /// Readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
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

/// Resolves the settings of a command that only opens the database.
fn storage_settings(storage: &StorageFlags) -> Result<Settings, String> {
    Settings::resolve(storage, &ServerFlags::default()).map_err(|e| e.to_string())
}

fn open_service(settings: &Settings) -> Result<Service, String> {
    let store =
        Store::open(&settings.database_url, settings.db_pool_size).map_err(|e| e.to_string())?;
    store.migrate().map_err(|e| e.to_string())?;
    let data_dir = &settings.data_dir;
    tracing::info!(
        "database {}, data directory {}",
        redact(&settings.database_url),
        data_dir.display()
    );
    Service::new(
        store,
        ServiceConfig {
            site_title: settings.site_title.clone(),
            site_url: settings.site_url.clone(),
            vcs_root: data_dir.join("vcs"),
            media_root: data_dir.join("media"),
            git: tolk_service::GitConfig {
                allow_local: settings.vcs_allow_local,
                timeout: settings.git_timeout,
                ..tolk_service::GitConfig::new(data_dir.join("home"))
            },
            url_policy: tolk_service::UrlPolicy::new(
                settings.vcs_allow_local,
                &settings.vcs_private_allowlist,
            ),
            task_lease: tolk_service::tasks::DEFAULT_LEASE,
            create_glossaries: settings.create_glossaries,
            task_retention: settings.task_retention,
        },
    )
    .map_err(|e| format!("{e} (Tolk needs the git binary)"))
}

/// Runs background tasks on `count` threads until the service's workers
/// are told to stop; the threads, to wait for, and their names.
fn start_task_workers(
    service: &Service,
    count: usize,
) -> (Vec<std::thread::JoinHandle<()>>, Vec<String>) {
    let host = hostname();
    if let Err(e) = service.recover_tasks(&host) {
        tracing::error!("cannot take back the tasks of stopped workers: {e}");
    }
    let names: Vec<String> = (0..count)
        .map(|n| tolk_service::tasks::worker_name(&host, n))
        .collect();
    let handles = names
        .iter()
        .map(|name| {
            let service = service.clone();
            let name = name.clone();
            std::thread::spawn(move || {
                while !service.tasks_stopping() {
                    match service.run_next_task(&name) {
                        Ok(true) => {}
                        Ok(false) => service.wait_for_tasks(std::time::Duration::from_secs(1)),
                        Err(e) => {
                            tracing::error!("task worker {name}: {e}");
                            service.wait_for_tasks(std::time::Duration::from_secs(1));
                        }
                    }
                }
            })
        })
        .collect();
    (handles, names)
}

/// How long a stopping server waits for running tasks before it hands
/// them over to other instances (or its own next start).
const TASK_GRACE: std::time::Duration = std::time::Duration::from_secs(20);

/// Stops the task workers: no new claims; running tasks get
/// [`TASK_GRACE`] to finish, then their claims are released so another
/// worker takes them over at once.
fn stop_task_workers(
    service: &Service,
    handles: Vec<std::thread::JoinHandle<()>>,
    names: &[String],
) {
    service.stop_tasks();
    let deadline = std::time::Instant::now() + TASK_GRACE;
    while handles.iter().any(|h| !h.is_finished()) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if handles.iter().any(|h| !h.is_finished()) {
        match service.release_tasks(names) {
            Ok(n) => tracing::info!("released {n} running tasks for other workers"),
            Err(e) => tracing::error!("cannot release running tasks: {e}"),
        }
    }
}

/// Every minute, commits the pending edits older than their component's
/// `commit_pending_age` and deletes the tasks finished longer ago than
/// the retention setting.
fn start_housekeeping(service: &Service) {
    let service = service.clone();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(60));
            let now = chrono::Utc::now().naive_utc();
            if let Err(e) = service.commit_pending_due(now) {
                tracing::error!("committing pending edits: {e}");
            }
            if let Err(e) = service.delete_old_tasks(now) {
                tracing::error!("deleting finished tasks: {e}");
            }
        }
    });
}

/// This machine's name, to tell workers of several instances apart.
fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "tolk".into())
}

/// A use-case's error as the command line reports it: every invalid field on its own line.
fn describe(error: tolk_service::ServiceError) -> String {
    match error {
        tolk_service::ServiceError::Validation(errors) => errors
            .iter()
            .map(|e| format!("{}: {}", e.attr.as_deref().unwrap_or("input"), e.detail))
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

fn serve(settings: Settings) -> Result<(), String> {
    let _one_server = instance::claim(&settings.database_url)?;
    let service = open_service(&settings)?;
    let (workers, names) = start_task_workers(&service, settings.task_workers);
    start_housekeeping(&service);
    let state = AppState {
        service: service.clone(),
        site_url: settings.site_url.clone(),
        // Several instances share one PostgreSQL database, and its limits.
        throttle: Arc::new(match service.backend() {
            tolk_service::BackendKind::Postgres => {
                Throttle::shared(settings.rate_limits, service.clone())
            }
            tolk_service::BackendKind::Sqlite => Throttle::new(settings.rate_limits),
        }),
        trusted_proxies: settings.trusted_proxies.clone(),
        enable_hooks: settings.enable_hooks,
        request_metrics: Arc::default(),
        metrics_token: settings.metrics_token.clone(),
        body_budget: std::sync::Arc::new(tolk_api::BodyBudget::new(settings.body_memory)),
    };
    let bind = settings.bind.clone();
    // On SIGTERM the server stops accepting, finishes the requests in
    // flight (up to its shutdown timeout) and returns; on SIGINT it stops
    // at once. Then the task workers stop.
    let served = actix_web::rt::System::new()
        .block_on(async move {
            let server = HttpServer::new(move || tolk_api::app(state.clone()))
                .workers(settings.workers)
                .shutdown_timeout(20)
                .disable_signals()
                .bind(&settings.bind)?
                .run();
            let handle = server.handle();
            let mut terminate = signal(SignalKind::terminate())?;
            let mut interrupt = signal(SignalKind::interrupt())?;
            actix_web::rt::spawn(async move {
                let graceful = std::future::poll_fn(|cx| {
                    if terminate.poll_recv(cx).is_ready() {
                        Poll::Ready(true)
                    } else if interrupt.poll_recv(cx).is_ready() {
                        Poll::Ready(false)
                    } else {
                        Poll::Pending
                    }
                })
                .await;
                tracing::info!(
                    "{} received: stopping",
                    if graceful { "SIGTERM" } else { "SIGINT" }
                );
                handle.stop(graceful).await;
            });
            tracing::info!(
                "Tolk {} listening on http://{} ({})",
                env!("CARGO_PKG_VERSION"),
                settings.bind,
                redact(&settings.database_url)
            );
            server.await
        })
        .map_err(|e| format!("cannot serve on {bind}: {e}"));
    tracing::info!("stopping the task workers");
    stop_task_workers(&service, workers, &names);
    served
}

/// A database URL without its password, for the log.
fn redact(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(at)) if at > scheme.len() => {
            let credentials = &rest[..at - scheme.len() - 3];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{}", &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Openapi => {
            print!("{}", tolk_api::openapi::document_json());
            Ok(())
        }
        Command::ConfigReference => {
            print!("{}", config_reference::reference());
            Ok(())
        }
        Command::File { command } => files::run(command),
        Command::Memory { command } => memory::run(command),
        Command::Import(args) => import::run(args),
        Command::Serve { storage, server } => {
            serve(Settings::resolve(&storage, &server).map_err(|e| e.to_string())?)
        }
        Command::Migrate { storage } => open_service(&storage_settings(&storage)?)
            .map(|_| tracing::info!("database is up to date")),
        Command::Createadmin {
            username,
            email,
            update,
            storage,
        } => {
            let service = open_service(&storage_settings(&storage)?)?;
            let token = service
                .create_admin(&username, &email, update)
                .map_err(|e| {
                    let taken = !update
                        && matches!(&e, tolk_service::ServiceError::Validation(errors)
                            if errors.iter().any(|f| f.attr.as_deref() == Some("username")));
                    let mut message = describe(e);
                    if taken {
                        message.push_str(
                            "\n(--update makes the existing account a superuser and prints a new token)",
                        );
                    }
                    message
                })?;
            println!("Superuser {username} is ready. API token:");
            println!("{token}");
            Ok(())
        }
        Command::Token {
            username,
            project,
            name,
            storage,
        } => {
            let service = open_service(&storage_settings(&storage)?)?;
            match (username, project) {
                (Some(username), _) => {
                    let token = service.issue_token_for(&username).map_err(describe)?;
                    println!("New API token of {username}:");
                    println!("{token}");
                }
                (None, Some(project)) => {
                    let token = service
                        .issue_project_token(&project, &name)
                        .map_err(describe)?;
                    println!("New project token of {project}:");
                    println!("{token}");
                }
                (None, None) => return Err("give --username or --project".into()),
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.log_format.unwrap_or(LogFormat::Text));
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Structured logs on standard error, filtered by `RUST_LOG` (default `info`),
/// with the log records of libraries that use the `log` crate: lines of
/// text, or one JSON object per line. Each request is logged when it
/// ends, with its id, method, route, status and time.
fn init_logging(format: LogFormat) {
    let filter: tracing_subscriber::filter::Targets = std::env::var("RUST_LOG")
        .ok()
        .and_then(|spec| spec.parse().ok())
        .unwrap_or_else(|| "info".parse().expect("a valid filter"));
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE);
    let registry = tracing_subscriber::registry().with(filter);
    match format {
        LogFormat::Json => registry.with(layer.json()).init(),
        LogFormat::Text => registry.with(layer).init(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn database_passwords_stay_out_of_the_log() {
        assert_eq!(
            redact("postgres://tolk:secret@db.example:5432/tolk"),
            "postgres://tolk@db.example:5432/tolk"
        );
        assert_eq!(
            redact("postgres://db.example/tolk"),
            "postgres://db.example/tolk"
        );
        assert_eq!(redact("data/tolk.sqlite3"), "data/tolk.sqlite3");
    }
}
