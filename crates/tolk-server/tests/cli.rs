//! The `tolk` command line, run as a real process on a temporary data directory.

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
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
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
        &["--config", config.to_str().unwrap(), "migrate"],
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
    assert!(String::from_utf8_lossy(&unsupported.stderr).contains("not supported yet"));
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
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not supported yet"));
}

#[test]
fn serve_answers_the_api_root_with_links_to_itself() {
    use std::io::{Read, Write};

    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_tolk"))
        .arg("serve")
        .env("TOLK_DATA_DIR", dir.path())
        .env("TOLK_BIND", &address)
        .env("TOLK_WORKERS", "1")
        .env_remove("TOLK_DATABASE_URL")
        .env_remove("TOLK_CONFIG")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut reply = String::new();
    for _ in 0..100 {
        if let Ok(mut stream) = std::net::TcpStream::connect(&address) {
            write!(
                stream,
                "GET /api HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            stream.read_to_string(&mut reply).unwrap();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(reply.starts_with("HTTP/1.1 200 OK"), "{reply}");
    assert!(
        reply.contains(&format!("\"projects\":\"http://{address}/api/projects/\"")),
        "{reply}"
    );
    assert!(
        dir.path().join("tolk.sqlite3").exists(),
        "the embedded database is created"
    );
}
