//! Translation flags (`c-format`, `max-length:40`, `ignore-end-stop`, …):
//! from the file, the unit's extra flags, the component and the project,
//! each a comma-separated list of names with optional `:`-separated values.

/// A parsed set of flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags(Vec<(String, Option<String>)>);

impl Flags {
    /// The flags of several comma-separated lists; a later value of a flag
    /// replaces an earlier one.
    pub fn parse<'a>(lists: impl IntoIterator<Item = &'a str>) -> Flags {
        let mut flags = Flags::default();
        for list in lists {
            for item in list.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (name, value) = match item.split_once(':') {
                    Some((name, value)) => (name.trim(), Some(value.trim().trim_matches('"'))),
                    None => (item, None),
                };
                flags.0.retain(|(n, _)| n != name);
                flags.0.push((name.to_owned(), value.map(str::to_owned)));
            }
        }
        flags
    }

    /// Whether the flag is set.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// The value of a flag, if set with one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the check `id` is turned off (`ignore-ID`, with `-` for `_`).
    pub fn ignores(&self, id: &str) -> bool {
        self.has(&format!("ignore-{}", id.replace('_', "-")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_merge_and_values_parse() {
        let flags = Flags::parse([
            "c-format, max-length:10",
            "",
            "max-length:40,ignore-end-stop",
        ]);
        assert!(flags.has("c-format"));
        assert_eq!(flags.value("max-length"), Some("40"));
        assert!(flags.ignores("end_stop"));
        assert!(!flags.ignores("end_space"));
        assert_eq!(flags.value("c-format"), None);
    }
}
