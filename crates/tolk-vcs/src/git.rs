//! The one way Tolk runs the `git` binary: with no prompts, none of the
//! user's or the system's configuration, only the transports the URL
//! policy allows, symbolic links checked out as plain files, no HTTP
//! redirects, a time limit that stops Git with every helper it started
//! (its process group), and standard error kept for the error.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::VcsError;
use crate::tally::{CommandTally, Tally};

/// Who commits: Git's committer identity for every commit Tolk makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Display name.
    pub name: String,
    /// E-mail address.
    pub email: String,
}

/// How Git is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitConfig {
    /// The binary: a path or a name looked up in `PATH`.
    pub binary: PathBuf,
    /// `HOME` for Git and SSH (known hosts, keys); nothing else of the
    /// user's environment reaches Git.
    pub home: PathBuf,
    /// Longest time one Git command may run.
    pub timeout: Duration,
    /// Whether `file://` and local paths may be cloned (tests, local setups).
    pub allow_local: bool,
    /// The committer of Tolk's commits.
    pub committer: Identity,
}

impl GitConfig {
    /// Git from `PATH` with a two-minute limit, no local transport and the
    /// committer `Tolk <noreply@tolk.invalid>`.
    pub fn new(home: PathBuf) -> Self {
        Self {
            binary: PathBuf::from("git"),
            home,
            timeout: Duration::from_secs(120),
            allow_local: false,
            committer: Identity {
                name: "Tolk".into(),
                email: "noreply@tolk.invalid".into(),
            },
        }
    }
}

/// A checked way to run Git: [`Git::new`] fails when the binary is missing.
#[derive(Debug, Clone)]
pub struct Git {
    config: GitConfig,
    version: String,
    /// What its processes (and its clones') came to.
    tally: Arc<Tally>,
}

/// Output of a successful Git command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Standard output, as Git wrote it.
    pub stdout: Vec<u8>,
    /// Standard error, lossily decoded (progress and hints).
    pub stderr: String,
}

impl Output {
    /// Standard output as text, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// The oldest Git Tolk runs: 2.28 (`git init -b`, `git branch
/// --show-current`, `protocol.allow` and `http.followRedirects`).
pub const MIN_VERSION: (u32, u32) = (2, 28);

/// The version `git --version` printed (`git version 2.47.3`), as
/// (major, minor); `None` when it names none.
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let number = text
        .split_whitespace()
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
    let mut parts = number.split('.').map(|p| p.parse::<u32>());
    Some((parts.next()?.ok()?, parts.next()?.ok()?))
}

impl Git {
    /// Checks that the binary runs and is at least [`MIN_VERSION`], and
    /// remembers its version.
    pub fn new(config: GitConfig) -> Result<Git, VcsError> {
        std::fs::create_dir_all(&config.home).map_err(|e| VcsError::io(&config.home, e))?;
        let mut git = Git {
            config,
            version: String::new(),
            tally: Arc::default(),
        };
        let out = git.run(None, &["--version"])?;
        git.version = out.text().trim().to_owned();
        match parse_version(&git.version) {
            Some(found) if found >= MIN_VERSION => Ok(git),
            _ => Err(VcsError::Failed {
                command: "--version".into(),
                output: format!(
                    "{} is too old or unknown: Tolk needs Git {}.{} or newer",
                    git.version, MIN_VERSION.0, MIN_VERSION.1
                ),
            }),
        }
    }

    /// What `git --version` printed.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The configuration.
    pub fn config(&self) -> &GitConfig {
        &self.config
    }

    /// The processes this Git and its clones ran, by subcommand (those
    /// Tolk does not name are counted as `other`).
    pub fn tally(&self) -> Vec<(&'static str, CommandTally)> {
        self.tally.snapshot()
    }

    /// Runs `git ARGS` in `dir` and returns its output, or the failure with
    /// Git's standard error. Callers put `--` before paths and URLs.
    pub fn run(&self, dir: Option<&Path>, args: &[&str]) -> Result<Output, VcsError> {
        self.run_with(dir, args, &[])
    }

    /// [`Git::run`] with extra environment variables (such as an author).
    pub fn run_with(
        &self,
        dir: Option<&Path>,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Output, VcsError> {
        self.counted(args, |name| self.run_command(dir, args, env, name, None))
    }

    /// [`Git::run`] for a command given `--progress`: each progress line
    /// Git writes to standard error (`Receiving objects:  45% (9/20)`) is
    /// handed to `progress` as it comes, and left out of the output.
    pub fn run_reporting(
        &self,
        dir: Option<&Path>,
        args: &[&str],
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Output, VcsError> {
        self.counted(args, |name| {
            self.run_command(dir, args, &[], name, Some(progress))
        })
    }

    /// Runs `run` with the subcommand's name and counts the process.
    fn counted(
        &self,
        args: &[&str],
        run: impl FnOnce(&str) -> Result<Output, VcsError>,
    ) -> Result<Output, VcsError> {
        let command_name = args
            .iter()
            .find(|a| !a.starts_with('-'))
            .copied()
            .unwrap_or("--version")
            .to_owned();
        let started = Instant::now();
        let result = run(&command_name);
        self.tally
            .record(&command_name, result.is_ok(), started.elapsed());
        result
    }

    /// Runs one Git process to its end or its time limit.
    fn run_command(
        &self,
        dir: Option<&Path>,
        args: &[&str],
        env: &[(&str, &str)],
        command_name: &str,
        progress: Option<&(dyn Fn(&str) + Sync)>,
    ) -> Result<Output, VcsError> {
        let mut command = self.command(dir);
        command.args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().map_err(|source| VcsError::Spawn {
            binary: self.config.binary.display().to_string(),
            source,
        })?;
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (status, stdout, stderr) = std::thread::scope(|scope| {
            let stdout = scope.spawn(|| drain(stdout, None));
            let stderr = scope.spawn(|| drain(stderr, progress));
            let status = self.wait(&mut child, command_name);
            (
                status,
                stdout.join().unwrap_or_default(),
                stderr.join().unwrap_or_default(),
            )
        });
        let status = status?;
        let stderr = String::from_utf8_lossy(&stderr).into_owned();
        if status.success() {
            Ok(Output { stdout, stderr })
        } else {
            // Some failures (merge conflicts) are told on standard output.
            let said = [stderr.trim(), String::from_utf8_lossy(&stdout).trim()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            Err(VcsError::from_git(command_name, said))
        }
    }

    /// Waits for `child`, killing it and every process it started when
    /// the time limit passes.
    fn wait(
        &self,
        child: &mut std::process::Child,
        command_name: &str,
    ) -> Result<std::process::ExitStatus, VcsError> {
        let deadline = Instant::now() + self.config.timeout;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Ok(status),
                Ok(None) if Instant::now() >= deadline => {
                    // Git and whatever it started (ssh, remote helpers,
                    // credential helpers) form one process group. Best
                    // effort: the process may have just ended.
                    let group = rustix::process::Pid::from_child(child);
                    let _ =
                        rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(VcsError::TimedOut {
                        command: command_name.to_owned(),
                        limit: self.config.timeout,
                    });
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(source) => {
                    return Err(VcsError::Spawn {
                        binary: self.config.binary.display().to_string(),
                        source,
                    });
                }
            }
        }
    }

    /// A command with a clean environment: no user or system configuration,
    /// no prompts (terminal, askpass or SSH), C locale, and only the
    /// transports Tolk allows (no `ext::`, `fd::` or helpers).
    fn command(&self, dir: Option<&Path>) -> Command {
        let mut command = Command::new(&self.config.binary);
        command.env_clear();
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        let protocols = if self.config.allow_local {
            "https:ssh:git:file"
        } else {
            "https:ssh:git"
        };
        let committer = &self.config.committer;
        command
            .env("HOME", &self.config.home)
            .env("LC_ALL", "C")
            .env(crate::orphans::PARENT_VAR, std::process::id().to_string())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_ASKPASS", "")
            .env("SSH_ASKPASS", "")
            .env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
            .env("GIT_ALLOW_PROTOCOL", protocols)
            .env("GIT_COMMITTER_NAME", &committer.name)
            .env("GIT_COMMITTER_EMAIL", &committer.email)
            .env("GIT_AUTHOR_NAME", &committer.name)
            .env("GIT_AUTHOR_EMAIL", &committer.email)
            .args([
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "core.fsmonitor=false",
                // A link in a repository becomes a small file holding its
                // target's name; WorkTree refuses such paths.
                "-c",
                "core.symlinks=false",
                // A redirect could lead to another host than the policy checked.
                "-c",
                "http.followRedirects=false",
            ])
            // Its own process group, so a time limit stops its helpers too.
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        command
    }
}

/// Reads a child's pipe to the end, so a full pipe never blocks the
/// child while the caller waits for it. With `progress`, lines that end
/// in a carriage return (Git's progress updates) and the lines `--progress`
/// adds go to it instead of into the bytes kept.
fn drain<R: Read>(pipe: Option<R>, progress: Option<&(dyn Fn(&str) + Sync)>) -> Vec<u8> {
    let mut bytes = Vec::new();
    let Some(mut pipe) = pipe else {
        return bytes;
    };
    let Some(progress) = progress else {
        // A read error leaves what was read so far.
        let _ = pipe.read_to_end(&mut bytes);
        return bytes;
    };
    let mut line = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut buffer) {
        if n == 0 {
            break;
        }
        for &byte in &buffer[..n] {
            line.push(byte);
            if byte == b'\r' || byte == b'\n' {
                let text = String::from_utf8_lossy(&line);
                if byte == b'\r' || is_progress(&text) {
                    progress(text.trim_end());
                } else {
                    bytes.extend_from_slice(&line);
                }
                line.clear();
            }
        }
    }
    bytes.extend_from_slice(&line);
    bytes
}

/// Whether a line of standard error is one of Git's progress reports
/// (`Receiving objects: 100% (20/20), done.`, `Cloning into '…'...`);
/// other lines (errors, `remote:` messages) are kept.
fn is_progress(line: &str) -> bool {
    line.starts_with("Cloning into ")
        || line.split_once('%').is_some_and(|(before, _)| {
            before
                .split_whitespace()
                .next_back()
                .is_some_and(|n| n.parse::<u8>().is_ok())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(home: &Path) -> Git {
        Git::new(GitConfig::new(home.to_owned())).unwrap()
    }

    #[test]
    fn reads_versions() {
        assert_eq!(parse_version("git version 2.47.3"), Some((2, 47)));
        assert_eq!(
            parse_version("git version 2.39.5 (Apple Git-154)"),
            Some((2, 39))
        );
        assert_eq!(parse_version("git version 3.0"), Some((3, 0)));
        assert_eq!(parse_version("nonsense"), None);
        assert!(parse_version("git version 2.27.0").unwrap() < MIN_VERSION);
    }

    #[test]
    fn refuses_an_old_git() {
        let tmp = tempfile::tempdir().unwrap();
        let fake = tmp.path().join("git");
        std::fs::write(&fake, "#!/bin/sh\necho git version 2.20.1\n").unwrap();
        let status = Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
        assert!(status.success());
        let config = GitConfig {
            binary: fake,
            ..GitConfig::new(tmp.path().join("home"))
        };
        let err = Git::new(config).unwrap_err();
        assert!(
            err.to_string().ends_with(
                "git version 2.20.1 is too old or unknown: Tolk needs Git 2.28 or newer"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_time_limit_stops_the_helpers_too() {
        let tmp = tempfile::tempdir().unwrap();
        // A "git" that starts a helper in the background, then waits:
        // both must be gone once the limit passes.
        let fake = tmp.path().join("git");
        let pidfile = tmp.path().join("helper.pid");
        std::fs::write(
            &fake,
            format!(
                "#!/bin/sh\ncase \"$*\" in *--version*) echo git version 2.40.0; exit 0;; esac\n\
                 sleep 300 &\necho $! > {}\nwait\n",
                pidfile.display()
            ),
        )
        .unwrap();
        let status = Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
        assert!(status.success());
        let config = GitConfig {
            binary: fake,
            timeout: Duration::from_millis(500),
            ..GitConfig::new(tmp.path().join("home"))
        };
        let git = Git::new(config).unwrap();
        let err = git.run(None, &["fetch"]).unwrap_err();
        assert!(matches!(err, VcsError::TimedOut { .. }), "{err}");
        let helper = std::fs::read_to_string(&pidfile).unwrap();
        let proc_dir = format!("/proc/{}", helper.trim());
        let deadline = Instant::now() + Duration::from_secs(5);
        // The helper is killed; once reaped by init its /proc entry goes,
        // or it lingers as a zombie ("Z") meanwhile.
        while Path::new(&proc_dir).exists() && Instant::now() < deadline {
            let stat = std::fs::read_to_string(format!("{proc_dir}/stat")).unwrap_or_default();
            if stat.split_whitespace().nth(2) == Some("Z") {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let stat = std::fs::read_to_string(format!("{proc_dir}/stat")).unwrap_or_default();
        assert!(
            stat.is_empty() || stat.split_whitespace().nth(2) == Some("Z"),
            "the helper still runs: {stat}"
        );
    }

    #[test]
    fn reports_a_missing_binary_clearly() {
        let tmp = tempfile::tempdir().unwrap();
        let config = GitConfig {
            binary: "/nonexistent/git".into(),
            ..GitConfig::new(tmp.path().to_owned())
        };
        let err = Git::new(config).unwrap_err();
        assert!(
            err.to_string().starts_with("cannot run /nonexistent/git"),
            "{err}"
        );
    }

    #[test]
    fn ignores_the_callers_configuration() {
        let tmp = tempfile::tempdir().unwrap();
        let git = git(tmp.path());
        assert!(git.version().starts_with("git version"));
        // The global configuration is /dev/null whatever HOME holds.
        std::fs::write(tmp.path().join(".gitconfig"), "[user]\n\tname = Leak\n").unwrap();
        let err = git.run(None, &["config", "user.name"]).unwrap_err();
        assert!(matches!(err, VcsError::Failed { .. }), "{err}");
    }

    #[test]
    fn refuses_command_transports() {
        let tmp = tempfile::tempdir().unwrap();
        let git = git(tmp.path());
        let dest = tmp.path().join("x");
        let marker = tmp.path().join("pwned");
        let url = format!("ext::sh -c touch% {}", marker.display());
        let err = git
            .run(None, &["clone", "--", &url, dest.to_str().unwrap()])
            .unwrap_err();
        assert!(
            err.to_string().contains("transport 'ext' not allowed"),
            "{err}"
        );
        assert!(!marker.exists());
    }

    #[test]
    fn stops_a_command_at_its_time_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let config = GitConfig {
            timeout: Duration::from_millis(300),
            ..GitConfig::new(tmp.path().to_owned())
        };
        let git = Git::new(config).unwrap();
        // `git hash-object --stdin` would wait for input forever, but stdin is
        // closed; a credential helper reading a FIFO never returns.
        let fifo = tmp.path().join("fifo");
        let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(status.success());
        let err = git
            .run(None, &["hash-object", "--", fifo.to_str().unwrap()])
            .unwrap_err();
        assert!(matches!(err, VcsError::TimedOut { .. }), "{err}");
    }
}
