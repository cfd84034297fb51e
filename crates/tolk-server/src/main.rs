//! `tolk`: the Tolk server and its administration commands.

mod cli;
mod config;
mod config_reference;
mod files;
mod import;
mod instance;
mod memory;
mod opening;
mod workers;

use std::process::ExitCode;
use std::sync::Arc;
use std::task::Poll;

use actix_web::HttpServer;
use actix_web::rt::signal::unix::{SignalKind, signal};
use clap::Parser;
use tolk_api::{AppState, Throttle};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::cli::{Cli, Command, LogFormat};
use crate::config::Settings;
use crate::opening::{describe, open_service, redact, storage_settings};
use crate::workers::{
    start_housekeeping, start_statistics_folding, start_task_workers, stop_task_workers,
};

/// mimalloc instead of the system's allocator: with a thread per
/// request in flight, glibc's malloc took an eighth of the server's time
/// (arenas, consolidation) in profiles of unit reads, edits and pages.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn serve(settings: Settings) -> Result<(), String> {
    let _one_server = instance::claim(&settings.database_url)?;
    let service = open_service(&settings)?;
    let (workers, names) = start_task_workers(&service, settings.task_workers);
    start_housekeeping(&service);
    start_statistics_folding(&service);
    let state = app_state(&settings, &service);
    let pages = tolk_web::Pages::open(service.clone(), &settings.site_url).map_err(describe)?;
    let bind = settings.bind.clone();
    // On SIGTERM the server stops accepting, finishes the requests in
    // flight (up to its shutdown timeout) and returns; on SIGINT it stops
    // at once. Then the task workers stop.
    let served = actix_web::rt::System::new()
        .block_on(async move {
            let server = HttpServer::new(move || {
                tolk_api::app_with(state.clone(), tolk_web::configure(pages.clone()))
            })
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

/// What the application's handlers and layers share, from `settings`.
fn app_state(settings: &Settings, service: &tolk_service::Service) -> AppState {
    AppState {
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
    }
}

/// How long each timed round of `tolk layers` sends requests.
const LAYER_ROUND: std::time::Duration = std::time::Duration::from_millis(200);

/// `tolk layers`: prints the bare handler's time per request, then what
/// each layer and all of them add, one `name: N µs` line each.
fn layers(settings: &Settings, token: Option<&str>) -> Result<(), String> {
    let service = open_service(settings)?;
    let state = app_state(settings, &service);
    let costs = actix_web::rt::System::new().block_on(tolk_api::layers::costs(
        state,
        token,
        LAYER_ROUND,
    ))?;
    for cost in costs {
        let micros = cost.per_request.as_secs_f64() * 1e6;
        println!("{}: {micros:.2} µs", cost.name);
    }
    Ok(())
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
        Command::Layers {
            token,
            storage,
            server,
        } => layers(
            &Settings::resolve(&storage, &server).map_err(|e| e.to_string())?,
            token.as_deref(),
        ),
        Command::Serve { storage, server } => {
            serve(Settings::resolve(&storage, &server).map_err(|e| e.to_string())?)
        }
        Command::Migrate { storage } => open_service(&storage_settings(&storage)?)
            .map(|_| tracing::info!("database is up to date")),
        Command::Createadmin {
            username,
            email,
            update,
            password,
            storage,
        } => {
            let service = open_service(&storage_settings(&storage)?)?;
            let token = service
                .auth()
                .create_admin(&username, &email, update, password.as_deref())
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
        Command::PasswordLink {
            username,
            site_url,
            storage,
        } => {
            let server = config::ServerFlags {
                site_url,
                ..config::ServerFlags::default()
            };
            let settings = Settings::resolve(&storage, &server).map_err(|e| e.to_string())?;
            let service = open_service(&settings)?;
            let key = service
                .accounts()
                .password_link(&username)
                .map_err(describe)?;
            println!("One-time link for {username} to choose a password (valid three days):");
            println!("{}", tolk_web::password_link_url(&settings.site_url, &key));
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
                    let token = service
                        .auth()
                        .issue_token_for(&username)
                        .map_err(describe)?;
                    println!("New API token of {username}:");
                    println!("{token}");
                }
                (None, Some(project)) => {
                    let token = service.tokens().issue(&project, &name).map_err(describe)?;
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
        .unwrap_or_else(|| {
            tracing_subscriber::filter::Targets::new()
                .with_default(tracing_subscriber::filter::LevelFilter::INFO)
        });
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE);
    let registry = tracing_subscriber::registry().with(filter);
    match format {
        LogFormat::Json => registry.with(layer.json()).init(),
        LogFormat::Text => registry.with(layer).init(),
    }
}
