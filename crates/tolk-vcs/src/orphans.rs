//! Git processes that outlived the process that started them. Every Git
//! command leads its own process group (so a time limit stops its helpers
//! too) and carries its parent's process id in [`PARENT_VAR`]; when that
//! parent is killed, Git goes on running, reparented, and may still write
//! into a work tree that a new server is about to recover. Read from
//! `/proc` (Linux); elsewhere nothing is found.

use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};

/// How long an orphan may go on to finish its work by itself.
const FINISH: Duration = Duration::from_secs(5);
/// How long it has to remove its lock files after SIGTERM (Git does, on
/// that signal, as does a local remote's `receive-pack` in its group).
const CLEAN_UP: Duration = Duration::from_secs(2);

/// The environment variable holding the id of the process that started a
/// Git command.
pub(crate) const PARENT_VAR: &str = "TOLK_GIT_PARENT";

/// Stops every Git command (with its helpers) whose starter is gone: a
/// process group leader carrying `PARENT_VAR` whose parent is no longer
/// the process named there. Each may first finish by itself (a few
/// seconds), then gets SIGTERM, so that Git removes its lock files (a
/// SIGKILL would leave a push's ref lock in a local remote), and SIGKILL
/// last. Commands of live processes, this one's or another server's on
/// the same machine, are left alone. The ids of the group leaders that
/// had to be stopped.
pub fn reap_orphans() -> Vec<i32> {
    stop(&orphans(), FINISH, CLEAN_UP)
}

/// Waits up to `finish` for `leaders` to end, then signals the groups
/// still running with SIGTERM, and after `clean_up` with SIGKILL.
fn stop(leaders: &[i32], finish: Duration, clean_up: Duration) -> Vec<i32> {
    let running = wait_for(leaders, finish);
    signal(&running, Signal::TERM);
    signal(&wait_for(&running, clean_up), Signal::KILL);
    running
}

/// Those of `leaders` still running after at most `limit`.
fn wait_for(leaders: &[i32], limit: Duration) -> Vec<i32> {
    let deadline = Instant::now() + limit;
    loop {
        let running: Vec<i32> = leaders
            .iter()
            .copied()
            .filter(|pid| parent_and_group(*pid).is_some())
            .collect();
        if running.is_empty() || Instant::now() >= deadline {
            return running;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(leaders: &[i32], signal: Signal) {
    for group in leaders.iter().filter_map(|pid| Pid::from_raw(*pid)) {
        // Best effort: the group may have just ended.
        let _ = kill_process_group(group, signal);
    }
}

/// The orphaned Git group leaders of this machine.
fn orphans() -> Vec<i32> {
    let Some(processes) = crate::processes::all() else {
        return Vec::new();
    };
    processes
        .map(|(pid, _)| pid)
        .filter(|&pid| {
            // Ended meanwhile, a zombie, or another user's: skipped.
            let (Some(starter), Some((parent, group))) = (starter(pid), parent_and_group(pid))
            else {
                return false;
            };
            group == pid && parent != starter
        })
        .collect()
}

/// The starter a process's environment names, if it is one of ours.
fn starter(pid: i32) -> Option<i32> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{PARENT_VAR}=");
    environ
        .split(|b| *b == 0)
        .find_map(|entry| entry.strip_prefix(prefix.as_bytes()))
        .and_then(|value| std::str::from_utf8(value).ok()?.parse().ok())
}

/// A live process's parent and process group, from `/proc/{pid}/stat`
/// (fields 4 and 5, after the command name in parentheses, which may hold
/// spaces and parentheses itself).
fn parent_and_group(pid: i32) -> Option<(i32, i32)> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The parent and group of a `/proc/{pid}/stat` line; none for a zombie.
fn parse_stat(stat: &str) -> Option<(i32, i32)> {
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?;
    if state == "Z" || state == "X" {
        return None;
    }
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    Some((parent, group))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    fn running(pid: i32) -> bool {
        parent_and_group(pid).is_some()
    }

    /// A `sleep` marked as this process's Git, whose starter (a shell)
    /// has exited: an orphan leading its own group. Its process id.
    fn orphaned_sleep(seconds: &str) -> i32 {
        let out = Command::new("sh")
            .args([
                "-c",
                &format!("setsid sleep {seconds} >/dev/null 2>&1 & echo $!"),
            ])
            .env(PARENT_VAR, std::process::id().to_string())
            .stdout(Stdio::piped())
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    #[test]
    fn an_orphaned_group_is_stopped_and_a_live_childs_is_not() {
        let me = std::process::id().to_string();
        // A child of this process, leading its own group: spared.
        let mut live = Command::new("sleep")
            .arg("300")
            .env(PARENT_VAR, &me)
            .process_group(0)
            .spawn()
            .unwrap();
        // A group leader whose starter (the shell) has exited: reaped.
        // Another test of this process may reap it first (a repository's
        // lock recovery stops this process's orphans): then a new one.
        let orphan = (0..5)
            .find_map(|_| {
                let orphan = orphaned_sleep("300");
                let deadline = Instant::now() + Duration::from_secs(10);
                // Until setsid has made its group and exec has given it
                // its environment (read between the two, it has none).
                while parent_and_group(orphan).is_none_or(|(_, group)| group != orphan)
                    || starter(orphan).is_none()
                {
                    if !running(orphan) {
                        return None;
                    }
                    assert!(Instant::now() < deadline, "setsid did not start");
                    std::thread::sleep(Duration::from_millis(10));
                }
                assert_eq!(starter(orphan), Some(std::process::id() as i32));
                let found = orphans().contains(&orphan);
                assert!(found || !running(orphan), "a live orphan is not found");
                found.then_some(orphan)
            })
            .expect("an orphan outlives the other tests' reaping");
        assert!(!orphans().contains(&(live.id() as i32)));
        let started = Instant::now();
        assert_eq!(
            stop(
                &[orphan],
                Duration::from_millis(200),
                Duration::from_secs(2)
            ),
            [orphan],
            "still running after its time to finish"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "SIGTERM ended it"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        while running(orphan) {
            assert!(Instant::now() < deadline, "the orphan still runs");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            live.try_wait().unwrap().is_none(),
            "a live child was killed"
        );
        live.kill().unwrap();
        live.wait().unwrap();
    }

    #[test]
    fn an_orphan_that_finishes_by_itself_is_not_signalled() {
        let orphan = orphaned_sleep("0.3");
        assert!(stop(&[orphan], Duration::from_secs(5), Duration::from_secs(1)).is_empty());
    }

    #[test]
    fn stat_lines_are_read_after_the_last_parenthesis() {
        let line = "4242 (git (a) b) S 1 4242 4242 0 -1 4194560 0 0";
        assert_eq!(parse_stat(line), Some((1, 4242)));
        assert_eq!(parse_stat("7 (git) Z 1 7 7 0"), None);
        assert_eq!(parse_stat("7 git S 1 7"), None);
    }
}
