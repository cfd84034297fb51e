//! The `tolk` command line, run as a real process on a temporary data directory.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::process::{Command, Output};

fn tolk(data: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tolk"))
        .args(args)
        .env("TOLK_DATA_DIR", data)
        .env_remove("TOLK_DATABASE_URL")
        .env_remove("TOLK_CONFIG")
        .output()
        .expect("run tolk")
}

#[test]
fn createadmin_prints_a_token_on_the_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let migrated = tolk(dir.path(), &["migrate"]);
    assert!(
        migrated.status.success(),
        "{}",
        String::from_utf8_lossy(&migrated.stderr)
    );
    assert!(dir.path().join("tolk.sqlite3").exists());

    let created = tolk(
        dir.path(),
        &[
            "createadmin",
            "--username",
            "root",
            "--email",
            "root@example.com",
        ],
    );
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let stdout = String::from_utf8(created.stdout).unwrap();
    let token = stdout.lines().last().unwrap();
    assert!(token.starts_with("wlu_") && token.len() == 40, "{stdout}");

    let again = tolk(
        dir.path(),
        &[
            "createadmin",
            "--username",
            "root",
            "--email",
            "root@example.com",
        ],
    );
    assert!(
        !again.status.success(),
        "an existing account needs --update"
    );
    let refused = String::from_utf8_lossy(&again.stderr);
    assert!(refused.contains("already exists"), "{refused}");
    assert!(
        refused.contains("--update makes the existing account a superuser"),
        "{refused}"
    );
    let updated = tolk(
        dir.path(),
        &[
            "createadmin",
            "--username",
            "root",
            "--email",
            "root@example.com",
            "--update",
        ],
    );
    assert!(updated.status.success());
    let second = String::from_utf8(updated.stdout).unwrap();
    assert_ne!(
        second.lines().last().unwrap(),
        token,
        "every call mints a new token"
    );
}

#[test]
fn createadmin_refuses_a_weak_password_and_makes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let weak = tolk(
        dir.path(),
        &[
            "createadmin",
            "--username",
            "root",
            "--email",
            "root@example.com",
            "--password",
            "root",
        ],
    );
    assert!(!weak.status.success());
    let said = String::from_utf8_lossy(&weak.stderr);
    assert!(said.contains("This password is too short."), "{said}");
    assert!(said.contains("too similar to the username"), "{said}");
    // Nothing was made: a link for root names no one.
    let link = tolk(dir.path(), &["password-link", "--username", "root"]);
    assert!(!link.status.success());
    let said = String::from_utf8_lossy(&link.stderr);
    assert!(
        said.contains("No active person has this username."),
        "{said}"
    );
}

#[test]
fn commands_name_the_database_and_data_directory_resolved_from_where_they_run() {
    let dir = tempfile::tempdir().unwrap();
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_tolk"))
            .args(["--log-format", format, "migrate"])
            .current_dir(dir.path())
            .env("TOLK_DATA_DIR", "relative/data")
            .env("RUST_LOG", "info")
            .env_remove("TOLK_DATABASE_URL")
            .env_remove("TOLK_CONFIG")
            .output()
            .expect("run tolk")
    };
    let data = dir.path().join("relative/data");
    let text = run("text");
    assert!(text.status.success());
    let said = String::from_utf8_lossy(&text.stderr);
    assert!(
        said.contains(&format!(
            "database {}, data directory {}",
            data.join("tolk.sqlite3").display(),
            data.display()
        )),
        "{said}"
    );
    assert!(data.join("tolk.sqlite3").exists());

    // The same line as one JSON object per line.
    let json = run("json");
    assert!(json.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&json.stderr)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert!(
        lines.iter().any(|l| l["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("database ") && m.contains("data directory"))),
        "{lines:?}"
    );
}

#[test]
fn openapi_prints_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let printed = tolk(dir.path(), &["openapi"]);
    assert!(printed.status.success());
    assert_eq!(
        String::from_utf8(printed.stdout).unwrap(),
        tolk_api::openapi::document_json()
    );
    assert!(
        !dir.path().join("tolk.sqlite3").exists(),
        "printing the document touches no database"
    );
}

#[test]
fn bad_settings_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tolk.toml");
    std::fs::write(&config, "bind = 5\n").unwrap();
    let failed = tolk(
        dir.path(),
        &["migrate", "--config", config.to_str().unwrap()],
    );
    assert!(!failed.status.success());
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("invalid configuration"), "{stderr}");
}

#[test]
fn file_commands_read_and_write_po() {
    let dir = tempfile::tempdir().unwrap();
    let po = dir.path().join("cs.po");
    let text = "msgid \"\"\nmsgstr \"Language: cs\\n\"\n\n#, fuzzy\nmsgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgstr \"d\"\n\n#~ msgid \"e\"\n#~ msgstr \"f\"\n";
    std::fs::write(&po, text).unwrap();
    let path = po.to_str().unwrap();
    let stats = tolk(dir.path(), &["file", "stats", path, "--format", "po"]);
    assert!(
        stats.status.success(),
        "{}",
        String::from_utf8_lossy(&stats.stderr)
    );
    assert_eq!(
        String::from_utf8(stats.stdout).unwrap(),
        "{\"units\": 2, \"translated\": 1, \"fuzzy\": 1, \"obsolete\": 1, \"plural_units\": 0, \"nonempty_target\": 2}\n"
    );
    let round = tolk(dir.path(), &["file", "roundtrip", path, "--format", "po"]);
    assert_eq!(round.stdout, text.as_bytes());

    std::fs::write(&po, "msgid \"a\"\nmsgstr \"b\n").unwrap();
    let broken = tolk(dir.path(), &["file", "stats", path, "--format", "po"]);
    assert!(!broken.status.success());
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(
        stderr.contains("cs.po:2: missing closing quote"),
        "{stderr}"
    );
    let unsupported = tolk(dir.path(), &["file", "stats", path, "--format", "php"]);
    assert!(!unsupported.status.success());
    let stderr = String::from_utf8_lossy(&unsupported.stderr);
    assert!(
        stderr.contains("invalid value 'php'") && stderr.contains("possible values: po,"),
        "the formats read are listed: {stderr}"
    );
}

#[test]
fn file_stats_use_the_template_and_check_plurals_against_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("en.xml");
    std::fs::write(
        &template,
        "<resources>\n<string name=\"a\">Open</string>\n<string name=\"b\">Close</string>\n<plurals name=\"n\"><item quantity=\"one\">%d file</item><item quantity=\"other\">%d files</item></plurals>\n</resources>\n",
    )
    .unwrap();
    let cs = dir.path().join("cs.xml");
    std::fs::write(
        &cs,
        "<resources>\n<string name=\"b\">Zavřít</string>\n<string name=\"old\">Staré</string>\n<plurals name=\"n\"><item quantity=\"one\">%d soubor</item><item quantity=\"other\">%d souborů</item></plurals>\n</resources>\n",
    )
    .unwrap();
    let args = |extra: &[&str]| {
        let mut args = vec![
            "file",
            "stats",
            cs.to_str().unwrap(),
            "--format",
            "aresource",
        ];
        args.extend_from_slice(extra);
        tolk(dir.path(), &args)
    };
    let alone = args(&[]);
    assert_eq!(
        String::from_utf8(alone.stdout).unwrap(),
        "{\"units\": 3, \"translated\": 3, \"fuzzy\": 0, \"obsolete\": 0, \"plural_units\": 1, \"nonempty_target\": 3}\n"
    );
    let checked = args(&["--template", template.to_str().unwrap(), "--language", "cs"]);
    assert!(checked.status.success());
    assert_eq!(
        String::from_utf8(checked.stdout).unwrap(),
        "{\"units\": 3, \"translated\": 2, \"fuzzy\": 0, \"obsolete\": 0, \"plural_units\": 1, \"nonempty_target\": 2}\n"
    );
    let stderr = String::from_utf8(checked.stderr).unwrap();
    assert_eq!(
        stderr,
        format!(
            "warning: {}: unit \"n\" has 2 translation forms, cs has 3\n",
            cs.display()
        )
    );
    let unknown = args(&["--language", "xx-nowhere"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown language code"));
}

#[test]
fn file_convert_writes_po_and_mo() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("cs.json");
    std::fs::write(
        &json,
        r#"{"greeting": "Ahoj", "menu": {"open": "Otevřít"}}"#,
    )
    .unwrap();
    let po = dir.path().join("cs.po");
    let converted = tolk(
        dir.path(),
        &[
            "file",
            "convert",
            json.to_str().unwrap(),
            "--from",
            "json-nested",
            "--to",
            "po",
            "-o",
            po.to_str().unwrap(),
        ],
    );
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    let text = std::fs::read_to_string(&po).unwrap();
    assert!(
        text.contains("msgid \"menu.open\"\nmsgstr \"Otevřít\"\n"),
        "{text}"
    );
    let mo = tolk(
        dir.path(),
        &[
            "file",
            "convert",
            po.to_str().unwrap(),
            "--from",
            "po",
            "--to",
            "mo",
        ],
    );
    assert!(mo.status.success());
    assert_eq!(&mo.stdout[..4], &0x9504_12de_u32.to_le_bytes());
    let stats = tolk(
        dir.path(),
        &["file", "stats", po.to_str().unwrap(), "--format", "po"],
    );
    assert!(String::from_utf8_lossy(&stats.stdout).starts_with("{\"units\": 2, \"translated\": 2"));
    let refused = tolk(
        dir.path(),
        &[
            "file",
            "convert",
            po.to_str().unwrap(),
            "--from",
            "po",
            "--to",
            "php",
        ],
    );
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("invalid value 'php'") && stderr.contains(", ts,"),
        "the formats written are listed: {stderr}"
    );
}

#[test]
fn version_and_help_name_the_tolk_command_and_only_its_own_flags() {
    let dir = tempfile::tempdir().unwrap();
    let version = tolk(dir.path(), &["--version"]);
    assert_eq!(
        String::from_utf8(version.stdout).unwrap(),
        format!("tolk {}\n", env!("CARGO_PKG_VERSION"))
    );
    let help =
        |command: &str| String::from_utf8(tolk(dir.path(), &[command, "--help"]).stdout).unwrap();
    let serve = help("serve");
    assert!(
        serve.contains("--bind") && serve.contains("--database-url"),
        "{serve}"
    );
    for command in ["createadmin", "token", "migrate"] {
        let text = help(command);
        assert!(text.contains("--database-url"), "{command}: {text}");
        assert!(
            !text.contains("--bind") && !text.contains("--site-url"),
            "{command}: {text}"
        );
    }
    let openapi = help("openapi");
    assert!(
        !openapi.contains("--database-url") && !openapi.contains("--bind"),
        "{openapi}"
    );
}

/// One HTTP/1.1 request to a running server: status line, headers (lower-cased names) and body.
fn http(
    address: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    json: Option<&str>,
) -> (String, Vec<(String, String)>, String) {
    use std::io::{Read, Write};

    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
    if let Some(token) = token {
        request.push_str(&format!("Authorization: Token {token}\r\n"));
    }
    if let Some(body) = json {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(json.unwrap_or(""));
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap_or("").to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A free port on the loopback interface.
fn free_address() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("127.0.0.1:{port}")
}

/// `tolk serve` on the embedded database in `data`, its log piped.
fn server_command(data: &std::path::Path, address: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tolk"));
    command
        .arg("serve")
        .env("TOLK_DATA_DIR", data)
        .env("TOLK_BIND", address)
        .env("TOLK_WORKERS", "1")
        .env_remove("TOLK_DATABASE_URL")
        .env_remove("TOLK_CONFIG")
        .stderr(std::process::Stdio::piped());
    command
}

/// Makes the superuser `root` in `data`; its token.
fn create_root(data: &std::path::Path) -> String {
    let created = tolk(
        data,
        &[
            "createadmin",
            "--username",
            "root",
            "--email",
            "root@example.com",
        ],
    );
    let printed = String::from_utf8(created.stdout).unwrap();
    printed.lines().last().unwrap().to_owned()
}

/// Starts `tolk serve` on `address` and waits until it listens.
fn start_server(data: &std::path::Path, address: &str) -> std::process::Child {
    let server = server_command(data, address).spawn().unwrap();
    wait_until_listening(address);
    server
}

#[test]
fn tokens_never_reach_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let admin = create_root(dir.path());
    let address = free_address();
    let mut server = server_command(dir.path(), &address)
        .env("RUST_LOG", "trace")
        .spawn()
        .unwrap();
    wait_until_listening(&address);
    create_project_p(&address, &admin);
    let (status, _, body) = http(
        &address,
        "POST",
        "/api/projects/p/tokens/",
        Some(&admin),
        Some(r#"{"name": "CI"}"#),
    );
    assert_eq!(status, "HTTP/1.1 201 Created", "{body}");
    let key = body
        .split("\"token_key\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    let (status, _, _) = http(&address, "GET", "/api/projects/p/", Some(&key), None);
    assert_eq!(status, "HTTP/1.1 200 OK");
    let wrong = "wlu_0123456789abcdef0123456789abcdef0123";
    let (status, _, _) = http(&address, "GET", "/api/users/", Some(wrong), None);
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    server.kill().unwrap();
    let output = server.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        log.contains("/api/projects/p/tokens/"),
        "the requests were logged: {log}"
    );
    for secret in [admin.as_str(), key.as_str(), wrong] {
        assert!(!log.contains(secret), "a token in the log");
    }
}

/// The server mounts the pages of tolk-web beside the API, under the
/// same request handling.
#[test]
fn serve_answers_status_badges_beside_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let admin = create_root(dir.path());
    let address = free_address();
    let mut server = start_server(dir.path(), &address);
    create_project_p(&address, &admin);
    // Nothing to translate yet counts as all translated, as in Weblate.
    let (status, headers, body) = http(&address, "GET", "/widget/p/svg-badge.svg", None, None);
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    assert_eq!(header(&headers, "content-type"), Some("image/svg+xml"));
    assert!(body.contains("<title>translated 100%</title>"), "{body}");
    let (status, _, body) = http(&address, "GET", "/widget/q/svg-badge.svg", None, None);
    assert_eq!(status, "HTTP/1.1 404 Not Found", "{body}");
    // A bad token is refused there as on the API.
    let wrong = "wlu_0123456789abcdef0123456789abcdef0123";
    let (status, _, _) = http(
        &address,
        "GET",
        "/widget/p/svg-badge.svg",
        Some(wrong),
        None,
    );
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Creates the project `p` through the API of the server at `address`.
fn create_project_p(address: &str, admin: &str) {
    let project = r#"{"name": "P", "slug": "p", "web": "https://p.example/"}"#;
    let (status, _, body) = http(
        address,
        "POST",
        "/api/projects/",
        Some(admin),
        Some(project),
    );
    assert_eq!(status, "HTTP/1.1 201 Created", "{body}");
}

fn wait_until_listening(address: &str) {
    for _ in 0..200 {
        if std::net::TcpStream::connect(address).is_ok() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the server did not start on {address}");
}

#[test]
fn serve_answers_the_api_root_with_links_to_itself() {
    let dir = tempfile::tempdir().unwrap();
    let address = free_address();
    let mut server = start_server(dir.path(), &address);
    let (status, headers, body) = http(&address, "GET", "/api", None, None);
    let (head_status, head_headers, head_body) = http(&address, "HEAD", "/api/", None, None);
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    assert!(
        body.contains(&format!("\"projects\":\"http://{address}/api/projects/\"")),
        "{body}"
    );
    let id = header(&headers, "x-request-id").expect("a request id");
    assert_eq!(id.len(), 36, "a UUID: {id}");
    assert_eq!(head_status, "HTTP/1.1 200 OK");
    assert_eq!(
        header(&head_headers, "content-length"),
        Some(body.len().to_string().as_str()),
        "HEAD announces the GET body's length"
    );
    assert_eq!(head_body, "", "HEAD sends no body");
    assert_ne!(header(&head_headers, "x-request-id"), Some(id));
    assert!(
        dir.path().join("tolk.sqlite3").exists(),
        "the embedded database is created"
    );
}

#[test]
fn a_plain_user_gets_a_token_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let admin = create_root(dir.path());
    let address = free_address();
    let mut server = start_server(dir.path(), &address);
    let (status, _, body) = http(
        &address,
        "POST",
        "/api/users/",
        Some(&admin),
        Some(r#"{"username": "jane", "full_name": "Jane", "email": "jane@example.com"}"#),
    );
    assert_eq!(status, "HTTP/1.1 201 Created", "{body}");
    let issued = tolk(dir.path(), &["token", "--username", "jane"]);
    assert!(
        issued.status.success(),
        "{}",
        String::from_utf8_lossy(&issued.stderr)
    );
    let stdout = String::from_utf8(issued.stdout).unwrap();
    let token = stdout.lines().last().unwrap();
    assert!(token.starts_with("wlu_") && token.len() == 40, "{stdout}");
    let (status, _, body) = http(&address, "GET", "/api/users/jane/", Some(token), None);
    let (denied, _, _) = http(
        &address,
        "POST",
        "/api/projects/",
        Some(token),
        Some(r#"{"name": "P", "slug": "p", "web": "https://p.example/"}"#),
    );
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    assert!(body.contains("\"username\":\"jane\""), "{body}");
    assert_eq!(denied, "HTTP/1.1 403 Forbidden", "jane is no superuser");
    let unknown = tolk(dir.path(), &["token", "--username", "nobody"]);
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("No active account has this username."),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );
}

#[test]
fn serve_fails_clearly_when_its_address_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let failed = Command::new(env!("CARGO_BIN_EXE_tolk"))
        .arg("serve")
        .env("TOLK_DATA_DIR", dir.path())
        .env("TOLK_BIND", &address)
        .env_remove("TOLK_DATABASE_URL")
        .env_remove("TOLK_CONFIG")
        .output()
        .unwrap();
    assert!(!failed.status.success());
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(
        stderr.contains(&format!("cannot serve on {address}")),
        "{stderr}"
    );
    assert!(!stderr.contains("listening"), "{stderr}");
}

#[test]
fn conversions_to_po_are_catalogues_gettext_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let strings = dir.path().join("Main.strings");
    // Interface Builder repeats keys; a comment may hold several lines.
    std::fs::write(
        &strings,
        "/* Greeting shown\n   on the start page */\n\"hello\" = \"Hello\";\n\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
    )
    .unwrap();
    let path = strings.to_str().unwrap();
    let converted = tolk(
        dir.path(),
        &[
            "file",
            "convert",
            path,
            "--from",
            "strings",
            "--to",
            "po",
            "--language",
            "ne_NP",
        ],
    );
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    let po = String::from_utf8(converted.stdout).unwrap();
    assert!(
        po.contains("\"Language: ne\\n\""),
        "ne_NP falls back to ne: {po}"
    );
    assert!(
        po.contains("\"Plural-Forms: nplurals=2; plural=n != 1;\\n\""),
        "{po}"
    );
    assert!(
        po.contains("#. Greeting shown\n#.    on the start page\n"),
        "{po}"
    );
    assert_eq!(po.matches("msgctxt \"hello\"").count(), 1, "{po}");
    if let Ok(checked) = Command::new("msgfmt")
        .args(["--check", "-o", "/dev/null", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(po.as_bytes())?;
            child.wait_with_output()
        })
    {
        assert!(
            checked.status.success(),
            "{}",
            String::from_utf8_lossy(&checked.stderr)
        );
    }

    std::fs::write(&strings, "\"hello\" = \"Hello\";\n\"hello\" = \"Hi\";\n").unwrap();
    let refused = tolk(
        dir.path(),
        &["file", "convert", path, "--from", "strings", "--to", "po"],
    );
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("\"hello\" is there twice with different translations"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let unknown = tolk(
        dir.path(),
        &[
            "file",
            "convert",
            path,
            "--from",
            "strings",
            "--to",
            "po",
            "--language",
            "xx_YY",
        ],
    );
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown language code \"xx_YY\""));
}

/// A repository with a gettext catalogue per language and Android
/// resources beside their template, and Laravel files without one.
fn mixed_upstream() -> tolk_service::vcs_testing::Upstream {
    let corpus = |name: &str| {
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tolk-formats/tests/corpus")
                .join(name),
        )
        .unwrap()
    };
    tolk_service::vcs_testing::Upstream::new(&[
        (
            "locale/ar/LC_MESSAGES/django.po",
            corpus("po/django-admin-ar.po"),
        ),
        (
            "locale/de/LC_MESSAGES/django.po",
            corpus("po/django-admin-de.po"),
        ),
        (
            "res/values/strings.xml",
            corpus("android/antennapod-values-strings.xml"),
        ),
        (
            "res/values-ja/strings.xml",
            corpus("android/antennapod-values-ja-strings.xml"),
        ),
        (
            "lang/de/validation.php",
            corpus("php/laravel-lang-de-validation.php"),
        ),
        (
            "lang/ar/validation.php",
            corpus("php/laravel-lang-ar-validation.php"),
        ),
        ("README.md", b"# App\n".to_vec()),
    ])
}

/// Asserts that a command succeeded, showing what it said when not.
fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Asserts that a command failed with `words` in its error.
fn failed_saying(output: &Output, words: &str) {
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && said.contains(words), "{said}");
}

#[test]
fn import_shows_what_it_found_then_creates_and_sets_up_the_components() {
    let upstream = mixed_upstream();
    let data = tempfile::tempdir().unwrap();
    let url = upstream.url();
    let import = |extra: &[&str], allow_local: bool| {
        let mut args = vec!["import", url.as_str()];
        args.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_tolk"))
            .args(&args)
            .env("TOLK_DATA_DIR", data.path())
            .env("TOLK_VCS_ALLOW_LOCAL", allow_local.to_string())
            .env("RUST_LOG", "warn")
            .env_remove("TOLK_DATABASE_URL")
            .env_remove("TOLK_CONFIG")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run tolk")
    };
    let found = format!(
        "Found 2 components in {url} (branch main):\n\
         \x20 COMPONENT  FORMAT     FILE MASK                       SOURCE                           LANGUAGES\n\
         \x20 django     po         locale/*/LC_MESSAGES/django.po  -                                2 (ar de)\n\
         \x20 strings    aresource  res/values-*/strings.xml        template res/values/strings.xml  1 (ja)\n\
         Left out:\n\
         \x20 lang/*/validation.php: laravel files need a template, and no file of the source \
         language (en) or without a language code was found\n"
    );

    // The refusal names the setting that allows local repositories.
    failed_saying(
        &import(&["--dry-run"], false),
        "set TOLK_VCS_ALLOW_LOCAL=true",
    );

    let looked = import(&["--dry-run"], true);
    succeeded(&looked);
    assert_eq!(
        String::from_utf8_lossy(&looked.stdout),
        format!("{found}Nothing was created (--dry-run).\n")
    );

    // A branch the repository lacks is named in the refusal.
    failed_saying(&import(&["--branch", "nope", "--dry-run"], true), "nope");

    // Without a terminal to ask on, nothing is created without --yes.
    failed_saying(&import(&[], true), "add --yes to create them");

    let created = import(&["--yes", "--project", "mobile"], true);
    succeeded(&created);
    assert_eq!(
        String::from_utf8_lossy(&created.stdout),
        format!(
            "{found}Created project mobile; setting up 2 components:\n\
             \x20 django: 3 translations (en ar de), 200 source strings\n\
             \x20 strings: 2 translations (en ja), 844 source strings\n\
             Browse it at http://127.0.0.1:8000/projects/mobile/ or through the API at \
             http://127.0.0.1:8000/api/projects/mobile/\n"
        )
    );

    // Run again, the import keeps what it made.
    let again = import(&["--yes", "--project", "mobile"], true);
    succeeded(&again);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.ends_with(
            "Added to project mobile; setting up 0 components (2 found there already):\n\
             \x20 django: 3 translations (en ar de), 200 source strings\n\
             \x20 strings: 2 translations (en ja), 844 source strings\n\
             Browse it at http://127.0.0.1:8000/projects/mobile/ or through the API at \
             http://127.0.0.1:8000/api/projects/mobile/\n"
        ),
        "{said}"
    );
}

/// A file the setup cannot read is named with its line, and the import
/// fails instead of leaving it out quietly.
#[test]
fn import_names_the_files_it_could_not_read_and_fails() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tolk-formats/tests/corpus/po/django-conf-ar.po");
    let good = std::fs::read(corpus).unwrap();
    let broken = b"msgid \"One\"\nmsgstr \"1\"\n\nmsgid \"Two\nmsgstr \"2\"\n".to_vec();
    let upstream = tolk_service::vcs_testing::Upstream::new(&[
        ("po/ar.po", good.clone()),
        ("po/de.po", broken),
        ("po/ja.po", good),
    ]);
    let data = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tolk"))
        .args([
            "import",
            upstream.url().as_str(),
            "--yes",
            "--project",
            "app",
        ])
        .env("TOLK_DATA_DIR", data.path())
        .env("TOLK_VCS_ALLOW_LOCAL", "true")
        .env("RUST_LOG", "warn")
        .env_remove("TOLK_DATABASE_URL")
        .env_remove("TOLK_CONFIG")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run tolk");
    failed_saying(&output, "1 files could not be read and were left out");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("    skipped po/de.po: po/de.po:"), "{said}");
}

#[test]
fn memory_files_go_in_and_out_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let tmx = dir.path().join("team.tmx");
    std::fs::write(
        &tmx,
        "<tmx version=\"1.4\"><header srclang=\"en-US\"/><body>\
         <tu><tuv xml:lang=\"en-US\"><seg>Open file</seg></tuv>\
         <tuv xml:lang=\"cs\"><seg>Otevřít soubor</seg></tuv></tu></body></tmx>",
    )
    .unwrap();
    let path = tmx.to_str().unwrap();
    let unknown = tolk(
        dir.path(),
        &["memory", "import", path, "--language-map", "en-US:qq"],
    );
    assert!(!unknown.status.success());
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert!(said.contains("Could not find language qq"), "{said}");
    let imported = tolk(
        dir.path(),
        &["memory", "import", path, "--language-map", "en-US:en"],
    );
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    assert!(String::from_utf8_lossy(&imported.stdout).contains("Imported 1 translations"));
    let exported = tolk(dir.path(), &["memory", "export", "--format", "json"]);
    assert!(exported.status.success());
    let entries: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!(
        entries,
        serde_json::json!([{"source": "Open file", "context": "", "target": "Otevřít soubor",
            "source_language": "en", "target_language": "cs", "origin": "team.tmx",
            "category": 1, "status": 1}])
    );
    let written = dir.path().join("out.tmx");
    let to_file = tolk(
        dir.path(),
        &[
            "memory",
            "export",
            "--format",
            "tmx",
            "--output",
            written.to_str().unwrap(),
        ],
    );
    assert!(to_file.status.success());
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(
        text.contains("srclang=\"en\"")
            && text.contains("<tuv xml:lang=\"cs\"><seg>Otevřít soubor</seg></tuv>"),
        "{text}"
    );
}
