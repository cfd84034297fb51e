//! `tolk import`: a project and its components from a repository or a
//! directory in one step. What was found is shown before anything is
//! created; then the components' setup tasks (clone, reading the files)
//! run here with a progress bar each, unless a running server's workers
//! take them first.

use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_service::Service;
use tolk_service::discovery::Discovery;
use tolk_service::import::{ImportPlan, ImportSource};
use tolk_service::tasks::TaskView;

use crate::config::StorageFlags;
use crate::opening::{describe, open_service, storage_settings};

/// How often the bars are redrawn from the tasks' saved progress.
const POLL: Duration = Duration::from_millis(100);

/// `tolk import`'s arguments.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A repository URL, a local Git repository, or a directory of
    /// translation files (which becomes a repository in the data directory).
    source: String,
    /// Slug of the project to create, or of an existing project to add
    /// the components to [default: from the source's name].
    #[arg(long)]
    project: Option<String>,
    /// Name of a new project [default: the source's name].
    #[arg(long)]
    name: Option<String>,
    /// Website of a new project [default: the repository's page for an
    /// https URL, else the project's page on this server].
    #[arg(long)]
    web: Option<String>,
    /// Branch to import [default: the repository's default branch].
    #[arg(long)]
    branch: Option<String>,
    /// Language code of the source strings.
    #[arg(long, default_value = "en")]
    source_language: String,
    /// Show what would be created, and create nothing.
    #[arg(long)]
    dry_run: bool,
    /// Create without asking (needed when standard input is no terminal).
    #[arg(long, short)]
    yes: bool,
    #[command(flatten)]
    storage: StorageFlags,
}

/// Runs `tolk import`.
pub fn run(args: ImportArgs) -> Result<(), String> {
    let settings = storage_settings(&args.storage)?;
    let service = open_service(&settings)?;
    let source = ImportSource::from_argument(&args.source, args.branch.as_deref().unwrap_or(""))?;
    let name = args.name.clone().unwrap_or_else(|| source.project_name());
    let slug = args
        .project
        .clone()
        .unwrap_or_else(|| tolk_service::discovery::slug_of(&name));
    let web = args
        .web
        .clone()
        .or_else(|| source.web())
        .unwrap_or_else(|| format!("{}/projects/{slug}/", settings.site_url));
    let spinner = ProgressBar::new_spinner().with_message(format!("looking at {}", args.source));
    spinner.enable_steady_tick(POLL);
    let plan = service.imports().plan(source, &args.source_language);
    spinner.finish_and_clear();
    let plan = plan.map_err(describe)?;
    print!("{}", describe_plan(&args.source, &plan));
    if plan.discovery.components.is_empty() {
        return Err(format!(
            "no translation files were found in {}; create components one by one \
             with the API instead (POST /api/projects/{{project}}/components/)",
            args.source
        ));
    }
    if args.dry_run {
        println!("Nothing was created (--dry-run).");
        return Ok(());
    }
    let count = plan.discovery.components.len();
    if !args.yes
        && !confirm(&format!(
            "Create these {count} components in project {slug}?"
        ))?
    {
        println!("Nothing was created.");
        return Ok(());
    }
    let project = ProjectSettings {
        name,
        slug: slug.clone(),
        web,
        ..ProjectSettings::default()
    };
    let imported = service
        .imports()
        .run(&Subject::System, &plan, project, &args.source_language)
        .map_err(describe)?;
    let there = match imported.kept.len() {
        0 => String::new(),
        n => format!(" ({n} found there already)"),
    };
    println!(
        "{} project {slug}; setting up {}{there}:",
        if imported.project_created {
            "Created"
        } else {
            "Added to"
        },
        components(imported.components.len())
    );
    // The tasks of an import cut off before (Ctrl-C) are taken back too.
    if let Err(e) = service.tasks().recover(&crate::opening::hostname()) {
        tracing::warn!("cannot take back the tasks of stopped workers: {e}");
    }
    let all: Vec<_> = imported.components.iter().chain(&imported.kept).collect();
    let tasks: Vec<(String, String)> = all
        .iter()
        .filter_map(|c| {
            Some((
                c.component.settings.slug.clone(),
                c.component.task_id.clone()?,
            ))
        })
        .collect();
    let outcomes = run_setup(&service, &tasks);
    let mut failed = 0;
    let mut unread = 0;
    for component in &all {
        let component = &component.component.settings.slug;
        let task = tasks
            .iter()
            .zip(&outcomes)
            .find(|((c, _), _)| c == component)
            .map(|(_, task)| task);
        let failure = task.and_then(|task| match task.result.as_ref() {
            Some(serde_json::Value::String(reason)) => Some(reason.clone()),
            _ => None,
        });
        match failure {
            Some(reason) => {
                failed += 1;
                println!("  {component}: failed: {reason}");
            }
            None => println!("  {component}: {}", summary(&service, &slug, component)),
        }
        // Files the setup could not read were left out: said, and counted.
        let prefix = format!("{} ", tolk_service::scan::SKIPPED);
        for line in task.iter().flat_map(|t| t.log.lines()) {
            if line.starts_with(&prefix) {
                unread += 1;
                println!("    {line}");
            }
        }
    }
    println!(
        "Browse it at {}/projects/{slug}/ or through the API at {}/api/projects/{slug}/",
        settings.site_url, settings.site_url
    );
    match (failed, unread) {
        (0, 0) => Ok(()),
        (0, n) => Err(format!(
            "{n} files could not be read and were left out (see above); fix them in the \
             repository, then pull or rescan the component"
        )),
        (n, _) => Err(format!(
            "{n} of {count} components could not be set up; their tasks' logs tell why"
        )),
    }
}

/// What was found, as the table the command prints.
fn describe_plan(source: &str, plan: &ImportPlan) -> String {
    let Discovery {
        components,
        skipped,
    } = &plan.discovery;
    let mut out = String::new();
    let branch = if plan.branch.is_empty() {
        String::new()
    } else {
        format!(" (branch {})", plan.branch)
    };
    out.push_str(&format!(
        "Found {} in {source}{branch}:\n",
        self::components(components.len())
    ));
    let rows: Vec<[String; 5]> = components
        .iter()
        .map(|f| {
            let start = match (f.template.as_str(), f.new_base.as_str()) {
                ("", "") => "-".to_owned(),
                ("", base) => format!("base {base}"),
                (template, _) => format!("template {template}"),
            };
            [
                f.slug.clone(),
                f.file_format.to_owned(),
                f.filemask.clone(),
                start,
                format!("{} ({})", f.languages.len(), listed(&f.languages)),
            ]
        })
        .collect();
    let header = ["COMPONENT", "FORMAT", "FILE MASK", "SOURCE", "LANGUAGES"].map(String::from);
    let mut widths = [0usize; 5];
    for row in std::iter::once(&header).chain(&rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        out.push_str(&format!("  {}\n", line.join("  ").trim_end()));
    }
    if !skipped.is_empty() {
        out.push_str("Left out:\n");
        for skip in skipped {
            out.push_str(&format!("  {}: {}\n", skip.filemask, skip.reason));
        }
    }
    out
}

/// Most language codes shown in one line.
const CODES_SHOWN: usize = 12;

/// Language codes separated by spaces, the first [`CODES_SHOWN`] of many.
fn listed(codes: &[impl AsRef<str>]) -> String {
    let shown: Vec<&str> = codes.iter().take(CODES_SHOWN).map(AsRef::as_ref).collect();
    match codes.len().saturating_sub(CODES_SHOWN) {
        0 => shown.join(" "),
        more => format!("{} and {more} more", shown.join(" ")),
    }
}

/// `n components`, or `1 component`.
fn components(n: usize) -> String {
    match n {
        1 => "1 component".into(),
        n => format!("{n} components"),
    }
}

/// Asks a yes-or-no question on the terminal; refuses to guess when
/// standard input is no terminal.
fn confirm(question: &str) -> Result<bool, String> {
    if !std::io::stdin().is_terminal() {
        return Err("add --yes to create them without asking (or --dry-run to only look)".into());
    }
    print!("{question} [y/N] ");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| e.to_string())?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// Runs the setup tasks `(component, task id)` in this process (those a
/// server's workers do not take first) while a bar per component shows
/// each task's progress and latest log line; how each ended.
fn run_setup(service: &Service, tasks: &[(String, String)]) -> Vec<TaskView> {
    let ids: Vec<String> = tasks.iter().map(|(_, id)| id.clone()).collect();
    let bars = MultiProgress::new();
    let style = ProgressStyle::with_template("  {prefix:<24} [{bar:30}] {pos:>3}% {wide_msg}")
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    let progress: Vec<ProgressBar> = tasks
        .iter()
        .map(|(component, _)| {
            bars.add(
                ProgressBar::new(100)
                    .with_style(style.clone())
                    .with_prefix(component.clone()),
            )
        })
        .collect();
    let worker = tolk_service::tasks::worker_name(&crate::opening::hostname(), 0);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                match service.tasks().run_among(&worker, &ids) {
                    Ok(true) => {}
                    Ok(false) => std::thread::sleep(POLL),
                    Err(e) => {
                        tracing::error!("running the setup tasks: {e}");
                        std::thread::sleep(POLL);
                    }
                }
            }
        });
        let outcomes = loop {
            let views: Vec<Option<TaskView>> = match service.tasks().list(&Subject::System, &ids) {
                Ok(views) => views,
                Err(e) => {
                    tracing::warn!("reading the setup tasks: {e}");
                    std::thread::sleep(POLL);
                    continue;
                }
            };
            for (bar, view) in progress.iter().zip(&views) {
                let Some(view) = view else { continue };
                bar.set_position(u64::try_from(view.progress).unwrap_or(0));
                bar.set_message(view.log.lines().last().unwrap_or("waiting").to_owned());
                if view.completed && !bar.is_finished() {
                    bar.finish();
                }
            }
            if views.iter().all(|v| v.as_ref().is_none_or(|v| v.completed)) {
                break views;
            }
            std::thread::sleep(POLL);
        };
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        outcomes
            .into_iter()
            .map(|v| {
                v.unwrap_or(TaskView {
                    completed: true,
                    progress: 100,
                    result: Some(serde_json::Value::String("the task is gone".into())),
                    log: String::new(),
                })
            })
            .collect()
    })
}

/// A set-up component in a few words: its translations and source strings.
fn summary(service: &Service, project: &str, component: &str) -> String {
    match service
        .translations()
        .of_component(&Subject::System, project, component)
    {
        Ok(translations) => {
            let strings = translations
                .iter()
                .find(|t| t.is_source())
                .map_or(0, |t| t.translation.counters.total.strings);
            let codes: Vec<&str> = translations
                .iter()
                .map(|t| t.translation.language_code.as_str())
                .collect();
            format!(
                "{} translations ({}), {strings} source strings",
                translations.len(),
                listed(&codes)
            )
        }
        Err(e) => describe(e),
    }
}
