//! The one way Tolk runs the `git` binary: with no prompts, none of the
//! user's or the system's configuration, only the transports the URL
//! policy allows, a time limit, and standard error kept for the error.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::VcsError;

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

impl Git {
    /// Checks that the binary runs and remembers its version.
    pub fn new(config: GitConfig) -> Result<Git, VcsError> {
        std::fs::create_dir_all(&config.home).map_err(|e| VcsError::io(&config.home, e))?;
        let mut git = Git {
            config,
            version: String::new(),
        };
        let out = git.run(None, &["--version"])?;
        git.version = out.text().trim().to_owned();
        Ok(git)
    }

    /// What `git --version` printed.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The configuration.
    pub fn config(&self) -> &GitConfig {
        &self.config
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
        let command_name = args
            .iter()
            .find(|a| !a.starts_with('-'))
            .copied()
            .unwrap_or("--version")
            .to_owned();
        let mut command = self.command(dir);
        command.args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().map_err(|source| VcsError::Spawn {
            binary: self.config.binary.display().to_string(),
            source,
        })?;
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let deadline = Instant::now() + self.config.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    // Best effort: the process may have just ended.
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(VcsError::TimedOut {
                        command: command_name,
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
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned();
        if status.success() {
            Ok(Output { stdout, stderr })
        } else {
            // Some failures (merge conflicts) are told on standard output.
            let said = [stderr.trim(), String::from_utf8_lossy(&stdout).trim()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            Err(VcsError::Failed {
                command: command_name,
                output: said,
            })
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
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        command
    }
}

/// Reads a child's pipe to the end on its own thread, so a full pipe never
/// blocks the child while the caller waits for it.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            // A read error leaves what was read so far.
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(home: &Path) -> Git {
        Git::new(GitConfig::new(home.to_owned())).unwrap()
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
