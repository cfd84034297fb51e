//! Format strings: the placeholders of printf-style C, Python's `%` and
//! Python's `{}` formats must survive translation. A translated form
//! fails when its placeholders differ from its source form's; in plural
//! forms a placeholder may be left out (`one` often spells the number),
//! but none may be added.

use std::sync::LazyLock;

use regex::Regex;

/// A format the checks know: its check id, its flag and how to read it.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// The check id (`c_format`).
    pub id: &'static str,
    /// The flag that turns it on (`c-format`).
    pub flag: &'static str,
    placeholders: fn(&str) -> Vec<String>,
}

/// Every format checked.
pub const FORMATS: &[Format] = &[
    Format {
        id: "c_format",
        flag: "c-format",
        placeholders: c_placeholders,
    },
    Format {
        id: "python_format",
        flag: "python-format",
        placeholders: python_placeholders,
    },
    Format {
        id: "python_brace_format",
        flag: "python-brace-format",
        placeholders: brace_placeholders,
    },
];

static C: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"%(?:(\d+)\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?([diouxXeEfFgGaAcspn%])",
    )
    .expect("a valid expression")
});

static PYTHON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"%(\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?([diouxXeEfFgGcrsa%])")
        .expect("a valid expression")
});

static BRACE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{|\}\}|\{([^{}]*)\}").expect("a valid expression"));

/// C placeholders as `type` in order, or `N$type` by position when
/// numbered; `%%` is no placeholder.
fn c_placeholders(text: &str) -> Vec<String> {
    let mut numbered = Vec::new();
    let mut plain = Vec::new();
    for found in C.captures_iter(text) {
        let kind = &found[2];
        if kind == "%" {
            continue;
        }
        match found.get(1) {
            Some(position) => {
                let at = position.as_str().parse::<usize>().unwrap_or(0);
                numbered.push((at, kind.to_owned()));
            }
            None => plain.push(kind.to_owned()),
        }
    }
    // Numbered placeholders stand in the order of their numbers.
    numbered.sort();
    plain.extend(numbered.into_iter().map(|(_, kind)| kind));
    plain
}

/// Python `%` placeholders: `(name)type` for named ones, else `type`, sorted.
fn python_placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = PYTHON
        .captures_iter(text)
        .filter(|c| &c[2] != "%")
        .map(|c| format!("{}{}", c.get(1).map_or("", |m| m.as_str()), &c[2]))
        .collect();
    found.sort();
    found
}

/// Python `{}` fields by name (format spec and conversion left out), sorted.
fn brace_placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = BRACE
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| {
            m.as_str()
                .split([':', '!'])
                .next()
                .unwrap_or("")
                .trim()
                .to_owned()
        })
        .collect();
    found.sort();
    found
}

impl Format {
    /// Whether `target` breaks the placeholders of `source`; `plural`
    /// allows leaving some out.
    pub fn fails(&self, source: &str, target: &str, plural: bool) -> bool {
        if target.is_empty() {
            return false;
        }
        let wanted = (self.placeholders)(source);
        let given = (self.placeholders)(target);
        if !plural {
            return wanted != given;
        }
        let mut left = wanted;
        for placeholder in given {
            match left.iter().position(|p| *p == placeholder) {
                Some(i) => {
                    left.remove(i);
                }
                None => return true,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(id: &str) -> Format {
        *FORMATS.iter().find(|f| f.id == id).unwrap()
    }

    #[test]
    fn c_format_placeholders() {
        let c = check("c_format");
        assert!(!c.fails("%d files in %s", "%d souborů v %s", false));
        assert!(c.fails("%d files in %s", "%d souborů", false));
        assert!(
            c.fails("%d files in %s", "%s souborů v %d", false),
            "order matters"
        );
        assert!(!c.fails("%d files in %s", "V %2$s je %1$d souborů", false));
        assert!(!c.fails("100%% done", "Hotovo", false));
        assert!(
            !c.fails("%d file", "jeden soubor", true),
            "a plural form may spell it"
        );
        assert!(c.fails("%d file", "%d soubor %s", true));
    }

    #[test]
    fn python_formats() {
        let py = check("python_format");
        assert!(!py.fails("%(count)d of %(total)d", "%(total)d: %(count)d", false));
        assert!(py.fails("%(count)d of %(total)d", "%(count)d", false));
        let brace = check("python_brace_format");
        assert!(!brace.fails("{name} has {count:d}", "{count} má {name}", false));
        assert!(brace.fails("{name}", "{jmeno}", false));
        assert!(!brace.fails("{{literal}} {x}", "{x} {{doslova}}", false));
    }
}
