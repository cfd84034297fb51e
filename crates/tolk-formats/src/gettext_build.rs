//! The gettext build files that list a project's languages: `LINGUAS`
//! (one code per line, or all on one line) and the `ALL_LINGUAS="..."`
//! line of `configure`, `configure.in` or `configure.ac`.

/// `LINGUAS` listing exactly `codes`: a file that lists them on one line
/// gets that line replaced (sorted); one per line keeps its order, loses
/// codes no longer there and gains the new ones at the end. Comments and
/// blank lines stay. `None` when it lists them already.
pub fn update_linguas(text: &str, codes: &[String]) -> Option<String> {
    let mut wanted: Vec<&str> = codes.iter().map(String::as_str).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut listed: Vec<&str> = Vec::new();
    let mut stale: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.split('#').next().unwrap_or_default().trim();
        if code.is_empty() {
            continue;
        }
        if code.contains(char::is_whitespace) {
            // All codes on one line: that line is rewritten, the rest kept.
            let expected = wanted.join(" ");
            if code == expected {
                return None;
            }
            let mut updated = lines.clone();
            updated[i] = expected;
            return Some(joined(&updated, text));
        }
        if wanted.contains(&code) && !listed.contains(&code) {
            listed.push(code);
        } else {
            stale.push(i);
        }
    }
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|c| !listed.contains(c))
        .collect();
    if stale.is_empty() && missing.is_empty() {
        return None;
    }
    for i in stale.into_iter().rev() {
        lines.remove(i);
    }
    lines.extend(missing.into_iter().map(str::to_owned));
    Some(joined(&lines, text))
}

/// A `configure` script whose `ALL_LINGUAS="..."` lines list `codes`
/// (sorted); `None` when it has no such line or lists them already.
pub fn update_configure(text: &str, codes: &[String]) -> Option<String> {
    let mut sorted: Vec<&str> = codes.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let expected = format!("ALL_LINGUAS=\"{}\"", sorted.join(" "));
    let mut changed = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let stripped = line.trim();
            if stripped.starts_with("ALL_LINGUAS=\"") && stripped != expected {
                changed = true;
                expected.clone()
            } else {
                line.to_owned()
            }
        })
        .collect();
    changed.then(|| joined(&lines, text))
}

/// True when a `configure` script sets `ALL_LINGUAS` for the add-on to update.
pub fn has_all_linguas(text: &str) -> bool {
    text.lines()
        .any(|line| line.trim().starts_with("ALL_LINGUAS=\""))
}

/// Lines joined as the original text ended: with a final newline or not.
fn joined(lines: &[String], original: &str) -> String {
    let mut text = lines.join("\n");
    if original.ends_with('\n') || original.is_empty() {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(list: &[&str]) -> Vec<String> {
        list.iter().map(|c| (*c).to_owned()).collect()
    }

    #[test]
    fn linguas_one_per_line_keeps_its_order() {
        let text = "# Languages\nde\nfr\n";
        assert_eq!(
            update_linguas(text, &codes(&["fr", "cs", "de"])).as_deref(),
            Some("# Languages\nde\nfr\ncs\n")
        );
        assert_eq!(
            update_linguas("de\nfr\n", &codes(&["fr"])).as_deref(),
            Some("fr\n")
        );
        assert_eq!(update_linguas("de\nfr\n", &codes(&["fr", "de"])), None);
    }

    #[test]
    fn linguas_on_one_line_is_rewritten_sorted() {
        assert_eq!(
            update_linguas("# x\nfr de\n", &codes(&["fr", "de", "cs"])).as_deref(),
            Some("# x\ncs de fr\n")
        );
        assert_eq!(update_linguas("cs de\n", &codes(&["de", "cs"])), None);
    }

    #[test]
    fn configure_lists_the_languages() {
        let text = "AC_INIT\nALL_LINGUAS=\"de\"\nAC_OUTPUT\n";
        assert!(has_all_linguas(text));
        assert_eq!(
            update_configure(text, &codes(&["fr", "de"])).as_deref(),
            Some("AC_INIT\nALL_LINGUAS=\"de fr\"\nAC_OUTPUT\n")
        );
        assert_eq!(update_configure("AC_INIT\n", &codes(&["de"])), None);
    }
}
