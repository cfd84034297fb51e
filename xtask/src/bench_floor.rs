//! The floor under the benchmark's figures: a bare actix-web server (the
//! framework Tolk is built on) on this machine, answering a fixed body
//! with no authentication, throttling, metrics, logging or database, and
//! loaded as Tolk is. Each of Tolk's figures then reads as a share of
//! what the framework alone serves, and as the processor time Tolk spends
//! per request above it.

use std::sync::mpsc;
use std::thread::JoinHandle;

use actix_web::dev::ServerHandle;
use actix_web::{App, HttpResponse, HttpServer, web};

use crate::bench::Figures;

/// A running bare server, stopped on drop.
pub(crate) struct Floor {
    /// Where it listens.
    pub(crate) address: String,
    handle: ServerHandle,
    thread: Option<JoinHandle<()>>,
}

impl Floor {
    /// Starts a server answering `body` (as JSON) to every GET, with as
    /// many workers as the machine has cores (as `tolk serve` has).
    pub(crate) fn start(body: Vec<u8>) -> Result<Floor, String> {
        let (sender, receiver) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            let system = actix_web::rt::System::new();
            system.block_on(async move {
                let body = web::Bytes::from(body);
                let bound = HttpServer::new(move || {
                    let body = body.clone();
                    App::new().default_service(web::to(move || {
                        let body = body.clone();
                        async move {
                            HttpResponse::Ok()
                                .content_type("application/json")
                                .body(body)
                        }
                    }))
                })
                .workers(cores())
                .bind(("127.0.0.1", 0));
                let server = match bound {
                    Ok(server) => server,
                    Err(error) => {
                        let _ = sender.send(Err(error.to_string()));
                        return;
                    }
                };
                let address = server
                    .addrs()
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let running = server.run();
                let _ = sender.send(Ok((address, running.handle())));
                let _ = running.await;
            });
        });
        let (address, handle) = receiver
            .recv()
            .map_err(|_| "the floor's server did not start".to_owned())??;
        Ok(Floor {
            address,
            handle,
            thread: Some(thread),
        })
    }
}

impl Drop for Floor {
    fn drop(&mut self) {
        let stop = self.handle.stop(false);
        actix_web::rt::System::new().block_on(stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The machine's cores.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Processor time per request, in microseconds, of a server answering
/// `per_second` requests with every core busy.
fn cost(per_second: f64) -> f64 {
    cores() as f64 * 1_000_000.0 / per_second.max(f64::MIN_POSITIVE)
}

/// How `figures` stand against the floor: their share of its throughput
/// and the processor time per request above it.
pub(crate) fn above(figures: &Figures, floor: &Figures) -> String {
    format!(
        "{:>5.1}% of the floor, {:>7.1} µs per request above it",
        100.0 * figures.per_second / floor.per_second.max(f64::MIN_POSITIVE),
        cost(figures.per_second) - cost(floor.per_second),
    )
}
