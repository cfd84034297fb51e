//! The components part of `cargo xtask bench`: Git repositories of
//! generated gettext catalogues, and the time from `POST` to a finished
//! task, a commit of many edits, and reads of translations and statistics
//! on a site with few and with many translations, and with a million units.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::bench::{Client, Figures, Options, field, load, load_paced, load_with};
use crate::bench_targets::{Target, judged, median_within, timed};

/// The target of a bulk edit's and an upload's time.
const SECOND: Duration = Duration::from_secs(1);

/// Languages with their plural count and formula, for the catalogues.
const LANGUAGES: [&str; 50] = [
    "ar", "bg", "ca", "cs", "da", "de", "el", "es", "et", "eu", "fa", "fi", "fr", "ga", "gl", "he",
    "hi", "hr", "hu", "id", "is", "it", "ja", "ka", "kk", "ko", "lt", "lv", "mk", "ml", "mn", "nb",
    "nl", "pl", "pt", "pt_BR", "ro", "ru", "sk", "sl", "sq", "sr", "sv", "ta", "th", "tr", "uk",
    "vi", "zh_Hans", "zh_Hant",
];

fn git(dir: &Path, args: &[&str]) -> Result<(), String> {
    let status = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .status()
        .map_err(|e| e.to_string())?;
    status
        .success()
        .then_some(())
        .ok_or(format!("git {args:?} failed"))
}

/// A gettext catalogue of `strings` strings, every other one translated.
fn catalogue(code: &str, strings: usize) -> String {
    let mut text = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Language: {code}\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
    );
    for i in 0..strings {
        let target = if i % 2 == 0 {
            format!("{code} translation {i}")
        } else {
            String::new()
        };
        text.push_str(&format!(
            "#: src/file{}.c:{i}\nmsgid \"Source string number {i} with some words\"\nmsgstr \"{target}\"\n\n",
            i % 17
        ));
    }
    text
}

/// A bare repository `name.git` under `dir` whose `main` holds, for every
/// directory of `layout` (name, languages, strings), `dir/{code}.po` files.
pub(crate) fn repository(
    dir: &Path,
    name: &str,
    layout: &[(String, usize, usize)],
) -> Result<String, String> {
    let work = dir.join(format!("{name}-work"));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    git(&work, &["init", "--quiet", "-b", "main"])?;
    for (folder, languages, strings) in layout {
        let path = work.join(folder);
        std::fs::create_dir_all(&path).map_err(|e| e.to_string())?;
        for code in LANGUAGES.iter().take(*languages) {
            std::fs::write(path.join(format!("{code}.po")), catalogue(code, *strings))
                .map_err(|e| e.to_string())?;
        }
    }
    git(&work, &["add", "-A"])?;
    git(&work, &["commit", "--quiet", "-m", "catalogues"])?;
    let bare = dir.join(format!("{name}.git"));
    let bare_text = bare.to_string_lossy().into_owned();
    git(
        dir,
        &[
            "clone",
            "--quiet",
            "--bare",
            &work.to_string_lossy(),
            &bare_text,
        ],
    )?;
    Ok(bare_text)
}

/// A value of a JSON answer, by key, as text (without quotes).
/// Creates a component of `repo` and waits for its task; the time taken.
fn create(
    client: &mut Client,
    project: &str,
    slug: &str,
    repo: &str,
    folder: &str,
) -> Result<Duration, String> {
    let body = format!(
        r#"{{"name":"{slug}","slug":"{slug}","repo":"{repo}","filemask":"{folder}/*.po","file_format":"po"}}"#
    );
    let started = Instant::now();
    let (status, answer) = client
        .request(
            "POST",
            &format!("/api/projects/{project}/components/"),
            &body,
        )
        .map_err(|e| e.to_string())?;
    if status != 201 {
        return Err(format!(
            "creating {slug}: {status} {}",
            String::from_utf8_lossy(&answer)
        ));
    }
    let task = field(&answer, "task_url").ok_or("no task_url")?;
    let path = task
        .find("/api/")
        .map(|at| task[at..].to_owned())
        .ok_or("odd task_url")?;
    loop {
        let (_, body) = client
            .request("GET", &path, "")
            .map_err(|e| e.to_string())?;
        if field(&body, "completed").as_deref() == Some("true") {
            if field(&body, "result").is_some_and(|r| !r.contains("component")) {
                return Err(format!(
                    "task of {slug} failed: {}",
                    String::from_utf8_lossy(&body)
                ));
            }
            return Ok(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Edits `per_file` units in each of `files` translations of a component,
/// then times the commit that writes them.
fn commit_edits(
    client: &mut Client,
    component: &str,
    files: usize,
    per_file: usize,
) -> Result<Duration, String> {
    for code in LANGUAGES.iter().take(files) {
        let (_, body) = client
            .request(
                "GET",
                &format!("/api/translations/{component}/{code}/units/?page_size={per_file}"),
                "",
            )
            .map_err(|e| e.to_string())?;
        let page: serde_json::Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
        for unit in page["results"].as_array().ok_or("no units")? {
            let edit = format!(
                r#"{{"target":["edited {code} {}"],"state":20}}"#,
                unit["id"]
            );
            let (status, _) = client
                .request("PATCH", &format!("/api/units/{}/", unit["id"]), &edit)
                .map_err(|e| e.to_string())?;
            if status != 200 {
                return Err(format!("editing a unit answered {status}"));
            }
        }
    }
    let started = Instant::now();
    let (status, body) = client
        .request(
            "POST",
            &format!("/api/components/{component}/repository/"),
            r#"{"operation":"commit"}"#,
        )
        .map_err(|e| e.to_string())?;
    if status != 200 || field(&body, "result").as_deref() != Some("true") {
        return Err(format!(
            "commit answered {status} {}",
            String::from_utf8_lossy(&body)
        ));
    }
    Ok(started.elapsed())
}

/// The ids of the units on `pages` (of 1,000) of the translation
/// `project/component/language`.
fn unit_ids(
    client: &mut Client,
    translation: &str,
    pages: impl IntoIterator<Item = usize>,
) -> Result<Vec<i64>, String> {
    let mut ids = Vec::new();
    for number in pages {
        let path = format!("/api/translations/{translation}/units/?page_size=1000&page={number}");
        let (_, body) = client
            .request("GET", &path, "")
            .map_err(|e| e.to_string())?;
        let page: serde_json::Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
        for unit in page["results"].as_array().ok_or("no units")? {
            ids.push(unit["id"].as_i64().ok_or("no id")?);
        }
    }
    Ok(ids)
}

/// Makes a component of one language with 10,000 strings and times one
/// bulk edit translating all of them.
fn bulk_edit(client: &mut Client, dir: &Path) -> Result<Duration, String> {
    let repo = repository(dir, "bulk", &[("po".into(), 1, 10_000)])?;
    create(client, "git", "bulk", &repo, "po")?;
    let edits: Vec<serde_json::Value> = unit_ids(client, "git/bulk/ar", 1..=10)?
        .into_iter()
        .map(|id| serde_json::json!({"id": id, "target": ["bulk"], "state": 20}))
        .collect();
    let body = serde_json::json!({ "units": edits }).to_string();
    let started = Instant::now();
    let (status, answer) = client
        .request("PATCH", "/api/translations/git/bulk/ar/units/", &body)
        .map_err(|e| e.to_string())?;
    let taken = started.elapsed();
    if status != 200 || field(&answer, "applied").as_deref() != Some("10000") {
        return Err(format!(
            "bulk edit answered {status} {}",
            String::from_utf8_lossy(&answer[..answer.len().min(300)])
        ));
    }
    Ok(taken)
}

/// Uploads a PO file translating the 10,000 strings of the bulk
/// component's translation anew (replacing what the bulk edit wrote);
/// the time to the answer.
fn upload(client: &mut Client) -> Result<Duration, String> {
    let mut file = String::from(
        "msgid \"\"\nmsgstr \"\"\n\"Language: ar\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n",
    );
    for i in 0..10_000 {
        file.push_str(&format!(
            "msgid \"Source string number {i} with some words\"\nmsgstr \"uploaded {i}\"\n\n"
        ));
    }
    let boundary = "tolk-bench-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"conflicts\"\r\n\r\nreplace-translated\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"ar.po\"\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file.as_bytes());
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={boundary}");
    let started = Instant::now();
    let (status, answer) = client
        .send(
            "POST",
            "/api/translations/git/bulk/ar/file/",
            &content_type,
            &body,
        )
        .map_err(|e| e.to_string())?;
    let taken = started.elapsed();
    if status != 200 || field(&answer, "accepted").as_deref() != Some("10000") {
        return Err(format!(
            "upload answered {status} {}",
            String::from_utf8_lossy(&answer[..answer.len().min(300)])
        ));
    }
    Ok(taken)
}

/// Downloads a component's ZIP archive; its size, the time taken and how
/// far the server's peak memory rose above what it held before.
fn archive(client: &mut Client, path: &str, pid: u32) -> Result<String, String> {
    let resident = |field: &str| -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    // Peak memory starts again from what the server holds now.
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").map_err(|e| e.to_string())?;
    let before = resident("VmRSS:").ok_or("no VmRSS")?;
    let started = Instant::now();
    let (status, body) = client.request("GET", path, "").map_err(|e| e.to_string())?;
    let taken = started.elapsed();
    if status != 200 || !body.starts_with(b"PK") {
        return Err(format!("{path} answered {status}"));
    }
    let peak = resident("VmHWM:").ok_or("no VmHWM")?;
    Ok(format!(
        "ZIP {path}: {:.1} MB in {:.2} s, server memory +{:.1} MiB at its peak",
        body.len() as f64 / 1e6,
        taken.as_secs_f64(),
        peak.saturating_sub(before) as f64 / 1024.0
    ))
}

/// Runs the components benchmarks against the server at `address`
/// (process `pid`).
pub fn run(
    address: &str,
    token: &str,
    dir: &Path,
    options: &Options,
    pid: u32,
) -> Result<(), String> {
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    client
        .request(
            "POST",
            "/api/projects/",
            r#"{"name":"Git","slug":"git","web":"https://example.com/"}"#,
        )
        .map_err(|e| e.to_string())?;

    let small = repository(dir, "small", &[("po".into(), 4, 200)])?;
    let taken = create(&mut client, "git", "small", &small, "po")?;
    println!(
        "component of 4 languages × 200 strings: POST to finished task in {:.3} s",
        taken.as_secs_f64()
    );

    let medium = repository(dir, "medium", &[("po".into(), 4, 1000)])?;
    create(&mut client, "git", "medium", &medium, "po")?;

    let large = repository(dir, "large", &[("po".into(), 50, 2000)])?;
    let taken = create(&mut client, "git", "large", &large, "po")?;
    println!(
        "component of 50 languages × 2,000 strings (102,000 units with the source): cloned and read in {:.2} s",
        taken.as_secs_f64()
    );

    let taken = commit_edits(&mut client, "git/large", 10, 100)?;
    println!(
        "commit of 1,000 pending edits across 10 files: {:.3} s",
        taken.as_secs_f64()
    );

    let first = "/api/translations/git/small/cs/units/?page_size=1";
    read_and_edit(&mut client, address, token, first, options, None)?;
    // The loads above let this connection idle past the server's keep-alive.
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    let taken = bulk_edit(&mut client, dir)?;
    println!(
        "{}",
        timed(
            "bulk edit of 10,000 strings of one translation",
            taken,
            SECOND
        )
    );
    let taken = upload(&mut client)?;
    println!(
        "{}",
        timed(
            "upload of a PO file translating 10,000 strings",
            taken,
            SECOND
        )
    );
    println!(
        "{}",
        archive(&mut client, "/api/components/git/large/file/", pid)?
    );
    // The pages of that translation of 10,000 strings, as a visitor
    // reads them: its page, the editor in its middle and at its first
    // untranslated string.
    for path in [
        "/projects/git/bulk/ar/",
        "/translate/git/bulk/ar/?offset=5000",
        "/translate/git/bulk/ar/?q=state%3A%3Ctranslated",
    ] {
        println!("{}", load(address, "", path, options)?);
    }

    // The file as stored, read from the work tree without a Git process
    // (the first download writes the pending edits), then converted
    // downloads of a translation of 200, 1,000 and 2,000 strings.
    let stored = "/api/translations/git/large/cs/file/";
    client
        .request("GET", stored, "")
        .map_err(|e| e.to_string())?;
    println!("{}", load(address, token, stored, options)?);
    let conversions = [
        ("small", "po"),
        ("medium", "po"),
        ("medium", "csv"),
        ("large", "po"),
        ("large", "csv"),
        ("large", "xlsx"),
    ];
    for (translation, format) in conversions {
        let path = format!("/api/translations/git/{translation}/cs/file/?format={format}");
        println!("{}", load(address, token, &path, options)?);
    }
    let paths = [
        "/api/translations/git/small/cs/",
        "/api/components/git/small/statistics/",
        "/api/translations/git/small/cs/units/?page_size=100",
        // Text searches through every unit of the site (the trigram indexes).
        "/api/units/?q=%22number%201999%20with%22",
        "/api/units/?q=source%3A1999%20target%3Atranslation",
        // The editor (a page: read as a visitor), however large the site.
        "/translate/git/small/cs/?offset=100",
    ];
    println!("with {} translations on the site:", 4 + 1 + 4 + 1 + 50 + 1);
    for path in paths {
        println!("{}", load(address, token, path, options)?);
    }
    // Many more translations: 199 further components of 50 languages.
    let layout: Vec<(String, usize, usize)> = (0..199).map(|i| (format!("c{i}"), 50, 2)).collect();
    let many = repository(dir, "many", &layout)?;
    // The loads above let this connection idle past the server's keep-alive.
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    let started = Instant::now();
    for i in 0..199 {
        create(
            &mut client,
            "git",
            &format!("c{i}"),
            &many,
            &format!("c{i}"),
        )?;
    }
    println!(
        "199 more components of 50 languages (autoshared clone) created and read in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    println!("with {} translations on the site:", 61 + 199 * 51);
    for path in paths {
        println!("{}", load(address, token, path, options)?);
    }
    million(address, token, dir, options, &paths)?;
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    // The edits above are committed first: the figure is the archive's own.
    client
        .request(
            "POST",
            "/api/components/git/huge/repository/",
            r#"{"operation":"commit"}"#,
        )
        .map_err(|e| e.to_string())?;
    println!(
        "{}",
        archive(&mut client, "/api/components/git/huge/file/", pid)?
    );
    Ok(())
}

/// Loads the server with reads, then edits, of the unit the one-unit
/// page `page` lists; a line of figures for each, judged by `targets`
/// (of the read, of the edit) when given.
fn read_and_edit(
    client: &mut Client,
    address: &str,
    token: &str,
    page: &str,
    options: &Options,
    targets: Option<(Target, Target)>,
) -> Result<(), String> {
    let (_, body) = client.request("GET", page, "").map_err(|e| e.to_string())?;
    let page: serde_json::Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let unit = format!("/api/units/{}/", page["results"][0]["id"]);
    let show = |figures: Figures, target: Option<Target>| match target {
        Some(target) => judged(&figures, target, 0.0),
        None => figures.to_string(),
    };
    let read = load(address, token, &unit, options)?;
    println!("{}", show(read, targets.map(|t| t.0)));
    let edited = unit.clone();
    let patch = move |n: u64| {
        let body = format!(r#"{{"target":["edit {n}"],"state":20}}"#);
        ("PATCH", edited.clone(), body)
    };
    let label = format!("PATCH {unit}");
    let edits = load_with(address, token, &label, options, patch)?;
    println!("{}", show(edits, targets.map(|t| t.1)));
    Ok(())
}

/// Edits of 2,000 different units of the million-unit component (strings
/// no other component holds, so nothing propagates): as fast as answers
/// come, then at a steady 3,000 a second.
fn edit_many(address: &str, token: &str, options: &Options) -> Result<(), String> {
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    let ids = unit_ids(&mut client, "git/huge/cs", 6..=7)?;
    let ids = std::sync::Arc::new(ids);
    let patch = move |n: u64| {
        // Spread the connections' numbers over the units.
        let unit = ids[(n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % ids.len()];
        let body = format!(r#"{{"target":["edit {n}"],"state":20}}"#);
        ("PATCH", format!("/api/units/{unit}/"), body)
    };
    let label = "PATCH of 2,000 units";
    let figures = load_with(address, token, label, options, patch.clone())?;
    println!(
        "{}",
        judged(&figures, Target::RateWithin(3_000.0, 20.0), 0.0)
    );
    let label = "PATCH of 2,000 units at 3,000/s";
    println!(
        "{}",
        load_paced(address, token, label, options, 3000.0, patch)?
    );
    Ok(())
}

/// A component of a million units: reading it, then unit reads, edits,
/// pages, statistics and the same searches with 1.1 million units on the site.
fn million(
    address: &str,
    token: &str,
    dir: &Path,
    options: &Options,
    paths: &[&str],
) -> Result<(), String> {
    let huge = repository(dir, "huge", &[("po".into(), 50, 20_000)])?;
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    let taken = create(&mut client, "git", "huge", &huge, "po")?;
    let what = "component of 50 languages × 20,000 strings (1,020,000 units): cloned and read";
    println!("{}", timed(what, taken, Duration::from_secs(60)));
    println!("with 1,122,000 units on the site:");
    let deep = "/api/translations/git/huge/cs/units/?page_size=1&page=15000";
    let targets = (Target::Rate(10_000.0), Target::RateWithin(3_000.0, 20.0));
    read_and_edit(&mut client, address, token, deep, options, Some(targets))?;
    edit_many(address, token, options)?;
    for path in [
        "/api/translations/git/huge/cs/",
        "/api/projects/git/statistics/",
    ]
    .iter()
    .chain(paths)
    {
        println!("{}", load(address, token, path, options)?);
    }
    let page = "/api/translations/git/huge/cs/units/?page_size=100&page=100";
    let figures = load(address, token, page, options)?;
    println!("{}", judged(&figures, Target::Rate(2_000.0), 0.0));
    // A search's (and the project statistics') own time, without 31
    // others sharing the two cores.
    let alone = Options {
        connections: 1,
        database_url: None,
        ..*options
    };
    let searches = paths.iter().filter(|p| p.contains("?q="));
    let statistics = load(address, token, "/api/projects/git/statistics/", &alone)?;
    let limit = Duration::from_millis(2);
    println!("one client: {}", median_within(&statistics, limit));
    for path in searches {
        let figures = load(address, token, path, &alone)?;
        let limit = Duration::from_millis(50);
        println!("one client: {}", median_within(&figures, limit));
    }
    Ok(())
}
