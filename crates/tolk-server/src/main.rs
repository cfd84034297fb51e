//! `tolk`: the Tolk server and its administration commands.

mod config;
mod files;

use std::process::ExitCode;
use std::sync::Arc;

use actix_web::{HttpServer, middleware::Logger};
use clap::{Parser, Subcommand};
use tolk_api::{AppState, Throttle};
use tolk_service::store::Store;
use tolk_service::{Service, ServiceConfig};

use crate::config::{Flags, Settings};

/// Tolk: a translation management server speaking Weblate's REST API.
#[derive(Debug, Parser)]
#[command(
    version,
    about = "Tolk: a translation management server speaking Weblate's REST API."
)]
struct Cli {
    #[command(flatten)]
    flags: Flags,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (migrating the database first).
    Serve,
    /// Apply database migrations and load built-in data.
    Migrate,
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
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Work with translation files without a server.
    File {
        #[command(subcommand)]
        command: files::FileCommand,
    },
}

fn open_service(settings: &Settings) -> Result<Service, String> {
    let store =
        Store::open(&settings.database_url, settings.db_pool_size).map_err(|e| e.to_string())?;
    store.migrate().map_err(|e| e.to_string())?;
    Ok(Service::new(
        store,
        ServiceConfig {
            site_title: settings.site_title.clone(),
        },
    ))
}

fn serve(settings: Settings) -> Result<(), String> {
    let service = open_service(&settings)?;
    let state = AppState {
        service,
        site_url: settings.site_url.clone(),
        throttle: Arc::new(Throttle::new(settings.rate_limits)),
    };
    log::info!(
        "Tolk {} listening on http://{} ({})",
        env!("CARGO_PKG_VERSION"),
        settings.bind,
        settings.database_url
    );
    let bind = settings.bind.clone();
    actix_web::rt::System::new()
        .block_on(async move {
            HttpServer::new(move || tolk_api::app(state.clone()).wrap(Logger::default()))
                .workers(settings.workers)
                .bind(&settings.bind)?
                .run()
                .await
        })
        .map_err(|e| format!("cannot serve on {bind}: {e}"))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Openapi => {
            print!("{}", tolk_api::openapi::document_json());
            return Ok(());
        }
        Command::File { command } => return files::run(command),
        _ => {}
    }
    let settings = Settings::resolve(&cli.flags).map_err(|e| e.to_string())?;
    match cli.command {
        Command::Serve => serve(settings),
        Command::Migrate => open_service(&settings).map(|_| log::info!("database is up to date")),
        Command::Createadmin {
            username,
            email,
            update,
        } => {
            let service = open_service(&settings)?;
            let token = service
                .create_admin(&username, &email, update)
                .map_err(|e| match e {
                    tolk_service::ServiceError::Validation(errors) => errors
                        .iter()
                        .map(|e| format!("{}: {}", e.attr.as_deref().unwrap_or("input"), e.detail))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    other => other.to_string(),
                })?;
            println!("Superuser {username} is ready. API token:");
            println!("{token}");
            Ok(())
        }
        Command::Openapi | Command::File { .. } => unreachable!("handled above"),
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
