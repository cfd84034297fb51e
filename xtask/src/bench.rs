//! `cargo xtask bench`: starts a release build of `tolk serve` on a fresh
//! database, fills it with a little data, and measures throughput and
//! latency of common API reads over keep-alive connections, plus the
//! server's peak memory.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::runtime::Runtime;

/// Options of a benchmark run.
pub struct Options {
    /// How long each endpoint is loaded.
    pub seconds: u64,
    /// Concurrent keep-alive connections.
    pub connections: usize,
    /// Database URL; a temporary SQLite file when absent.
    pub database_url: Option<String>,
}

impl Options {
    /// Reads `--seconds N`, `--connections N` and `--database-url URL`.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            seconds: 5,
            connections: 32,
            database_url: None,
        };
        let mut iter = args.iter();
        while let Some(flag) = iter.next() {
            let value = iter.next().ok_or(format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--seconds" => options.seconds = value.parse().map_err(|_| "bad --seconds")?,
                "--connections" => {
                    options.connections = value.parse().map_err(|_| "bad --connections")?;
                }
                "--database-url" => options.database_url = Some(value.clone()),
                other => return Err(format!("unknown option {other}")),
            }
        }
        Ok(options)
    }
}

/// A running server, stopped on drop.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The release build of `tolk` under `root`.
pub(crate) fn tolk(root: &Path) -> PathBuf {
    root.join("target").join("release").join("tolk")
}

pub(crate) fn run_tolk(
    root: &Path,
    data: &Path,
    db: &str,
    args: &[&str],
) -> Result<String, String> {
    let output = Command::new(tolk(root))
        .args(args)
        .env("TOLK_DATA_DIR", data)
        .env("TOLK_DATABASE_URL", db)
        .env("RUST_LOG", "warn")
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Starts `tolk serve` on `data` and `db`, with `env` set over the
/// benchmark's defaults (no rate limits, local repositories allowed).
pub(crate) fn start(
    root: &Path,
    data: &Path,
    db: &str,
    env: &[(&str, &str)],
) -> Result<Server, String> {
    let address = format!("127.0.0.1:{}", free_port().map_err(|e| e.to_string())?);
    let mut command = Command::new(tolk(root));
    command
        .arg("serve")
        .env("TOLK_DATA_DIR", data)
        .env("TOLK_DATABASE_URL", db)
        .env("TOLK_BIND", &address)
        // Thousands of requests a second are what is measured.
        .env("TOLK_API_RATELIMIT_USER", "off")
        .env("TOLK_API_RATELIMIT_ANON", "off")
        // The components benchmark clones repositories from the data directory.
        .env("TOLK_VCS_ALLOW_LOCAL", "true")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let child = command.spawn().map_err(|e| e.to_string())?;
    let server = Server { child, address };
    for _ in 0..100 {
        if std::net::TcpStream::connect(&server.address).is_ok() {
            return Ok(server);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err("the server did not start".into())
}

/// The value at `key` of a JSON object body, as text; none when null or absent.
pub(crate) fn field(body: &[u8], key: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    match &value[key] {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// One keep-alive HTTP/1.1 connection on a tokio event loop; an empty
/// token calls anonymously.
pub(crate) struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
    token: String,
}

impl Connection {
    async fn open(address: &str, token: &str) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            reader: BufReader::new(stream),
            host: address.to_owned(),
            token: token.to_owned(),
        })
    }

    /// Sends a request with a JSON body and returns the status code and body.
    async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        self.send(method, path, "application/json", body.as_bytes())
            .await
    }

    /// Sends a request with a body of `content_type` and returns the
    /// status code and body.
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let authorization = if self.token.is_empty() {
            String::new()
        } else {
            format!("Authorization: Token {}\r\n", self.token)
        };
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{authorization}\
             Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            self.host,
            body.len()
        );
        let writer = self.reader.get_mut();
        writer.write_all(head.as_bytes()).await?;
        writer.write_all(body).await?;
        let mut line = String::new();
        self.reader.read_line(&mut line).await?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut length = 0usize;
        let mut chunked = false;
        loop {
            line.clear();
            self.reader.read_line(&mut line).await?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                } else if name.eq_ignore_ascii_case("transfer-encoding") {
                    chunked = value.trim().eq_ignore_ascii_case("chunked");
                }
            }
        }
        if !chunked {
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body).await?;
            return Ok((status, body));
        }
        // A streamed answer: chunks, each after its size in hex.
        let mut body = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).await?;
            let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).await?;
            if size == 0 {
                return Ok((status, body));
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
}

/// An event loop on the calling thread.
fn event_loop() -> std::io::Result<Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// A [`Connection`] for one request after another, each awaited.
pub(crate) struct Client {
    runtime: Runtime,
    connection: Connection,
}

impl Client {
    pub(crate) fn connect(address: &str, token: &str) -> std::io::Result<Client> {
        let runtime = event_loop()?;
        let connection = runtime.block_on(Connection::open(address, token))?;
        Ok(Client {
            runtime,
            connection,
        })
    }

    /// Sends a request with a JSON body and returns the status code and body.
    pub(crate) fn request(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        self.runtime
            .block_on(self.connection.request(method, path, body))
    }

    /// Sends a request with a body of `content_type`.
    pub(crate) fn send(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> std::io::Result<(u16, Vec<u8>)> {
        self.runtime
            .block_on(self.connection.send(method, path, content_type, body))
    }
}

/// What loading an endpoint measured: its throughput and latencies,
/// printed as one line named by its label.
pub(crate) struct Figures {
    label: String,
    /// Requests answered per second.
    pub(crate) per_second: f64,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
}

impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<45} {:>9.0} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms",
            self.label,
            self.per_second,
            self.p50.as_secs_f64() * 1000.0,
            self.p99.as_secs_f64() * 1000.0,
        )
    }
}

/// Loads one endpoint from `connections` connections for `seconds` with GETs.
pub(crate) fn load(
    address: &str,
    token: &str,
    path: &str,
    options: &Options,
) -> Result<Figures, String> {
    let owned = path.to_owned();
    load_with(address, token, path, options, move |_| {
        ("GET", owned.clone(), String::new())
    })
}

/// Loads the server from `connections` connections for `seconds`, each
/// sending the requests `request` makes of a number unique to the
/// request (method, path, body) as fast as answers come; one line of
/// figures named `label`.
pub(crate) fn load_with(
    address: &str,
    token: &str,
    label: &str,
    options: &Options,
    request: impl Fn(u64) -> (&'static str, String, String) + Clone + Send + 'static,
) -> Result<Figures, String> {
    load_at(address, token, label, options, None, request)
}

/// As [`load_with`], but at a steady `rate` of requests per second in
/// all (each connection sends on its own schedule): latencies count from
/// when a request was due, so a slow answer also counts against those
/// that had to wait for it.
pub(crate) fn load_paced(
    address: &str,
    token: &str,
    label: &str,
    options: &Options,
    rate: f64,
    request: impl Fn(u64) -> (&'static str, String, String) + Clone + Send + 'static,
) -> Result<Figures, String> {
    load_at(address, token, label, options, Some(rate), request)
}

fn load_at(
    address: &str,
    token: &str,
    label: &str,
    options: &Options,
    rate: Option<f64>,
    request: impl Fn(u64) -> (&'static str, String, String) + Clone + Send + 'static,
) -> Result<Figures, String> {
    // All connections on one thread's event loop, as wrk drives them: a
    // thread per connection would take the server's cores from it.
    let runtime = event_loop().map_err(|e| e.to_string())?;
    let mut latencies = runtime.block_on(async {
        let begun = Instant::now();
        let deadline = begun + Duration::from_secs(options.seconds);
        let connections = options.connections;
        // Each connection's interval between requests, and its offset.
        let interval = rate.map(|r| Duration::from_secs_f64(connections as f64 / r));
        let mut workers = tokio::task::JoinSet::new();
        for worker in 0..connections {
            let (address, token) = (address.to_owned(), token.to_owned());
            let request = request.clone();
            workers.spawn(async move {
                let mut connection = Connection::open(&address, &token)
                    .await
                    .map_err(|e| e.to_string())?;
                let mut latencies = Vec::new();
                let mut n = (worker as u64) << 32;
                let mut due =
                    interval.map(|i| begun + i.mul_f64(worker as f64 / connections as f64));
                while Instant::now() < deadline {
                    let started = match due {
                        Some(at) => {
                            tokio::time::sleep_until(at.into()).await;
                            at
                        }
                        None => Instant::now(),
                    };
                    if started >= deadline {
                        break;
                    }
                    let (method, path, body) = request(n);
                    n += 1;
                    let (status, _) = connection
                        .request(method, &path, &body)
                        .await
                        .map_err(|e| e.to_string())?;
                    if status != 200 {
                        return Err(format!("{method} {path} answered {status}"));
                    }
                    latencies.push(started.elapsed());
                    due = due.zip(interval).map(|(at, i)| at + i);
                }
                Ok::<_, String>(latencies)
            });
        }
        let mut latencies = Vec::new();
        while let Some(done) = workers.join_next().await {
            latencies.extend(done.map_err(|_| "a connection panicked")??);
        }
        Ok::<_, String>(latencies)
    })?;
    latencies.sort();
    let at = |q: f64| {
        let index = ((latencies.len() as f64 - 1.0) * q) as usize;
        latencies.get(index).copied().unwrap_or_default()
    };
    Ok(Figures {
        label: label.to_owned(),
        per_second: latencies.len() as f64 / options.seconds as f64,
        p50: at(0.5),
        p99: at(0.99),
    })
}

pub(crate) fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Runs the benchmark from the workspace root `root`.
pub fn run(root: &Path, options: &Options) -> Result<(), String> {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "-p", "tolk-server"])
        .current_dir(root)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("release build failed".into());
    }
    let data = std::env::temp_dir().join(format!("tolk-bench-{}", std::process::id()));
    std::fs::create_dir_all(&data).map_err(|e| e.to_string())?;
    let db = options
        .database_url
        .clone()
        .unwrap_or_else(|| data.join("tolk.sqlite3").to_string_lossy().into_owned());
    let created = run_tolk(
        root,
        &data,
        &db,
        &[
            "createadmin",
            "--username",
            "bench",
            "--email",
            "bench@example.com",
            "--update",
        ],
    )?;
    let token = created.lines().last().unwrap_or_default().trim().to_owned();
    let server = start(root, &data, &db, &[])?;
    let mut client = Client::connect(&server.address, &token).map_err(|e| e.to_string())?;
    for i in 0..100 {
        let body =
            format!(r#"{{"name":"Bench {i}","slug":"bench-{i}","web":"https://example.com/"}}"#);
        client
            .request("POST", "/api/projects/", &body)
            .map_err(|e| e.to_string())?;
    }
    println!(
        "{} connections, {} s per endpoint, database {}",
        options.connections, options.seconds, db
    );
    // The floor: the framework alone answering what Tolk answers to
    // `GET /api/`, on the same machine with the same load.
    let (_, root_body) = client
        .request("GET", "/api/", "")
        .map_err(|e| e.to_string())?;
    let floor = crate::bench_floor::Floor::start(root_body)?;
    let bare = load(&floor.address, "", "/api/", options)?;
    drop(floor);
    println!("{bare}   (bare actix-web, the same bytes: the floor)");
    let api_root = load(&server.address, &token, "/api/", options)?;
    let target = crate::bench_targets::Target::ShareOfFloor(0.5);
    println!(
        "{}   {}",
        crate::bench_targets::judged(&api_root, target, bare.per_second),
        crate::bench_floor::above(&api_root, &bare)
    );
    crate::bench_layers::run(root, &data, &db, &token)?;
    for path in [
        "/api/projects/bench-1/",
        "/api/projects/?page_size=100",
        "/api/languages/?page_size=100",
        "/api/projects/bench-1/statistics/",
        "/api/changes/?page_size=100",
    ] {
        let figures = load(&server.address, &token, path, options)?;
        println!("{figures}   {}", crate::bench_floor::above(&figures, &bare));
    }
    crate::bench_permissions::run(&server.address, &token, options)?;
    crate::bench_components::run(&server.address, &token, &data, options, server.child.id())?;
    if let Some(kib) = peak_memory_kib(server.child.id()) {
        println!("server peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    drop(server);
    crate::bench_reliability::run(root, &data, &db, &token, options)?;
    let _ = std::fs::remove_dir_all(&data);
    Ok(())
}
