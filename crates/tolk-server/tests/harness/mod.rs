//! `tolk serve` as a real child process on a test database and data
//! directory: started, asked over HTTP, killed with SIGKILL or stopped
//! with SIGTERM, started again.

#![allow(dead_code)] // Each test file uses part of the harness.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tolk_service::testing::TestDb;

/// A data directory and a database that servers share.
pub struct Site {
    pub data: tempfile::TempDir,
    pub db: TestDb,
    pub token: String,
}

impl Site {
    /// A fresh site on `db` with a superuser, whose token it keeps.
    pub fn new(db: TestDb) -> Site {
        let data = tempfile::tempdir().unwrap();
        let site = Site {
            data,
            db,
            token: String::new(),
        };
        let out = site
            .command()
            .args([
                "createadmin",
                "--username",
                "admin",
                "--email",
                "admin@example.com",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let token = String::from_utf8(out.stdout).unwrap();
        Site {
            token: token.lines().last().unwrap().to_owned(),
            ..site
        }
    }

    /// Runs a `tolk` command with this site's settings; what it printed.
    pub fn tolk(&self, args: &[&str]) -> String {
        let out = self.command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "tolk {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `tolk` with this site's settings.
    fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tolk"));
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TOLK_DATA_DIR", self.data.path())
            .env("TOLK_DATABASE_URL", self.db.url())
            .env("TOLK_VCS_ALLOW_LOCAL", "true")
            .env("TOLK_API_RATELIMIT_ANON", "off")
            .env("TOLK_API_RATELIMIT_USER", "off")
            .env("TOLK_TASK_WORKERS", "2")
            .env("RUST_LOG", "warn,actix_server=info");
        command
    }

    /// Starts a server; returns once it answers.
    pub fn start(&self, name: &str) -> Server {
        self.start_with(name, &[])
    }

    /// Starts a server with more settings (`TOLK_*` variables); returns
    /// once it answers.
    pub fn start_with(&self, name: &str, settings: &[(&str, &str)]) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = self.data.path().join(format!("{name}.log"));
        let child = self
            .command()
            .arg("serve")
            .envs(settings.iter().copied())
            .env("TOLK_BIND", format!("127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            token: self.token.clone(),
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.try_get("/api/").is_none() {
            assert!(
                Instant::now() < deadline,
                "{name} did not start: {}",
                server.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }
}

/// A running `tolk serve`.
pub struct Server {
    child: Child,
    base: String,
    token: String,
    log: PathBuf,
}

impl Server {
    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

impl Server {
    fn try_get(&self, path: &str) -> Option<u16> {
        agent()
            .get(format!("{}{path}", self.base))
            .call()
            .ok()
            .map(|r| r.status().as_u16())
    }

    /// Sends a request as the superuser; its status and JSON body (null when none).
    pub fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        self.try_send(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// [`Server::send`], or why no answer came (the server died, say).
    pub fn try_send(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<(u16, Value), ureq::Error> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Token {}", self.token);
        let agent = agent();
        let response = match (method, body) {
            ("GET", _) => agent.get(&url).header("Authorization", &auth).call(),
            ("DELETE", _) => agent.delete(&url).header("Authorization", &auth).call(),
            (_, body) => {
                let body = body.unwrap_or(json!({}));
                let request = match method {
                    "POST" => agent.post(&url),
                    "PATCH" => agent.patch(&url),
                    "PUT" => agent.put(&url),
                    other => panic!("method {other}"),
                };
                request.header("Authorization", &auth).send_json(&body)
            }
        };
        let mut response = response?;
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    /// POSTs a multipart form of `fields` and one `file` (field, file
    /// name, bytes) as the superuser; the status and JSON body.
    pub fn send_form(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &[u8]),
    ) -> (u16, Value) {
        let boundary = "tolk-harness-boundary-7d1e";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .into_bytes(),
            );
        }
        let (name, filename, bytes) = file;
        body.extend(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .into_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend(format!("\r\n--{boundary}--\r\n").into_bytes());
        let mut response = agent()
            .post(format!("{}{path}", self.base))
            .header("Authorization", &format!("Token {}", self.token))
            .header(
                "Content-Type",
                &format!("multipart/form-data; boundary={boundary}"),
            )
            .send(&body[..])
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// GETs `path`, which must answer 200.
    pub fn get(&self, path: &str) -> Value {
        let (status, body) = self.send("GET", path, None);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// Waits until the task at `task_url` has begun its work (shows
    /// progress), at most `limit`; it must not have finished yet.
    pub fn wait_for_progress(&self, task_url: &str, limit: Duration) {
        let path = &task_url[task_url.find("/api/").unwrap()..];
        let deadline = Instant::now() + limit;
        loop {
            let task = self.get(path);
            assert_eq!(
                task["completed"], false,
                "finished before it could be killed"
            );
            if task["progress"].as_i64().unwrap_or(0) > 0 {
                return;
            }
            assert!(Instant::now() < deadline, "{task}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the task at `task_url` (an absolute API URL) is
    /// completed, at most `limit`; the task.
    pub fn wait_for_task(&self, task_url: &str, limit: Duration) -> Value {
        let path = &task_url[task_url.find("/api/").unwrap()..];
        let deadline = Instant::now() + limit;
        loop {
            let task = self.get(path);
            if task["completed"] == true {
                return task;
            }
            assert!(
                Instant::now() < deadline,
                "task not done: {task}\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// What the server logged.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The most memory the process has held (its peak resident set), in bytes.
    pub fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status");
        kib * 1024
    }

    /// SIGKILL: the process ends at once, whatever it was doing (another
    /// thread may be waiting for its answer).
    pub fn signal_kill(&self) {
        let pid = rustix::process::Pid::from_child(&self.child);
        rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    }

    /// SIGKILL, and the process reaped.
    pub fn kill(mut self) {
        // Already gone after `signal_kill`: reaped all the same.
        let _ = self.child.kill();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then waits for the process to end; whether it ended well
    /// within a minute (the server's own grace periods add up to 40 s).
    /// One that does not is killed, so that a hang fails the test
    /// instead of stalling the run.
    pub fn terminate(mut self) -> bool {
        let pid = rustix::process::Pid::from_child(&self.child);
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("no stop a minute after SIGTERM: {}", self.log());
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A bare upstream whose `main` holds the four gettext catalogues of the
/// corpus as `po/{code}.po`, with a developer's clone.
pub fn upstream() -> tolk_service::vcs_testing::Upstream {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tolk-formats/tests/corpus/po");
    let files: Vec<(String, Vec<u8>)> = ["ar", "ja", "pt_BR", "ru"]
        .iter()
        .map(|code| {
            let bytes = std::fs::read(corpus.join(format!("django-conf-{code}.po"))).unwrap();
            (format!("po/{code}.po"), bytes)
        })
        .collect();
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
    tolk_service::vcs_testing::Upstream::new(&files)
}

/// Creates the project `demo` and its component `app` on `upstream`
/// (pushing there on commit) through `server`, and waits for its setup.
pub fn demo_component(server: &Server, upstream: &tolk_service::vcs_testing::Upstream) {
    let project = json!({"name": "Demo", "slug": "demo", "web": "https://example.com/"});
    let (status, body) = server.send("POST", "/api/projects/", Some(project));
    assert_eq!(status, 201, "{body}");
    app_component(server, upstream);
}

/// Creates the component `app` of the project `demo` on `upstream`
/// (pushing there on commit) through `server`, and waits for its setup.
pub fn app_component(server: &Server, upstream: &tolk_service::vcs_testing::Upstream) {
    let component = json!({"name": "App", "slug": "app", "repo": upstream.url(),
                           "push": upstream.url(), "filemask": "po/*.po", "file_format": "po"});
    let (status, body) = server.send("POST", "/api/projects/demo/components/", Some(component));
    assert_eq!(status, 201, "{body}");
    let task = server.wait_for_task(body["task_url"].as_str().unwrap(), Duration::from_secs(60));
    assert!(task["result"].is_object(), "{task}");
}

/// Ids of `n` translated strings without plurals of Japanese.
pub fn japanese_units(server: &Server, n: usize) -> Vec<i64> {
    let units =
        server.get("/api/translations/demo/app/ja/units/?page_size=1000&q=state:translated");
    let ids: Vec<i64> = units["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["source"].as_array().unwrap().len() == 1)
        .take(n)
        .map(|u| u["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), n);
    ids
}

/// Translates unit `id` as `text` through `server`; must answer 200.
pub fn edit(server: &Server, id: i64, text: &str) {
    let body = json!({"target": [text], "state": 20});
    let (status, reply) = server.send("PATCH", &format!("/api/units/{id}/"), Some(body));
    assert_eq!(status, 200, "{reply}\n{}", server.log());
}
