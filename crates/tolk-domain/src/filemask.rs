//! File masks: which files of a repository are a component's translations,
//! and the language code each one's path holds (the part `*` matched).

/// A validated file mask such as `po/*.po` or `res/values-*/strings.xml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filemask {
    prefix: String,
    suffix: String,
}

impl Filemask {
    /// Checks the mask: one `*` standing for the language code, inside the repository.
    pub fn new(mask: &str) -> Result<Filemask, String> {
        let Some((prefix, suffix)) = mask.split_once('*') else {
            return Err("File mask does not contain * as a language placeholder!".into());
        };
        if suffix.contains('*') {
            return Err("File mask contains more than one *.".into());
        }
        let filled = format!("{prefix}x{suffix}");
        if !safe_path(&filled) {
            return Err(
                "File mask must be a relative path inside the repository, outside .git.".into(),
            );
        }
        Ok(Filemask {
            prefix: prefix.to_owned(),
            suffix: suffix.to_owned(),
        })
    }

    /// The language code in `path`, when the mask matches it. The code is
    /// one path segment or part of one.
    pub fn code_of<'a>(&self, path: &'a str) -> Option<&'a str> {
        let code = path
            .strip_prefix(self.prefix.as_str())?
            .strip_suffix(self.suffix.as_str())?;
        (!code.is_empty() && !code.contains('/')).then_some(code)
    }

    /// The path of the file for language code `code`.
    pub fn path_for(&self, code: &str) -> String {
        format!("{}{code}{}", self.prefix, self.suffix)
    }
}

/// Writes a language code as `style` asks (Weblate's `language_code_style`),
/// from Tolk's code (`pt_BR`, `zh_Hant`); empty or unknown styles keep it.
pub fn styled_code(code: &str, style: &str) -> String {
    let (base, region) = match code.split_once(['_', '-', '@']) {
        Some((b, r)) => (b, Some(r)),
        None => (code, None),
    };
    let joined = |sep: &str, lower: bool| match region {
        Some(r) => {
            let r = if lower {
                r.to_ascii_lowercase()
            } else {
                r.to_owned()
            };
            format!("{base}{sep}{r}")
        }
        None => base.to_owned(),
    };
    match style {
        "posix" | "linux" => joined("_", false),
        "posix_lowercase" | "linux_lowercase" => joined("_", true),
        "bcp" | "bcp_legacy" | "appstore" | "googleplay" => joined("-", false),
        "bcp_lower" => joined("-", true),
        "android" => match region {
            Some(r) if r.len() == 2 => format!("{base}-r{r}"),
            _ => joined("-", false),
        },
        _ => code.to_owned(),
    }
}

/// The forms a code from a file name may take in Tolk's language table,
/// best first: as written, with `-` as `_`, Android's `-rXX` undone,
/// lower-case, and the base language alone.
pub fn code_candidates(code: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |c: String| {
        if !c.is_empty() && !out.contains(&c) {
            out.push(c);
        }
    };
    push(code.to_owned());
    let underscored = code.replace('-', "_");
    push(underscored.clone());
    if let Some((base, region)) = underscored.split_once("_r")
        && region.len() == 2
    {
        push(format!("{base}_{}", region.to_ascii_uppercase()));
    }
    if let Some((base, region)) = underscored.split_once('_') {
        push(format!(
            "{}_{}",
            base.to_ascii_lowercase(),
            region.to_ascii_uppercase()
        ));
        push(format!(
            "{}_{}",
            base.to_ascii_lowercase(),
            capitalize(region)
        ));
    }
    push(underscored.to_ascii_lowercase());
    if let Some((base, _)) = underscored.split_once('_') {
        push(base.to_ascii_lowercase());
    }
    out
}

fn capitalize(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let mut chars = lower.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// A relative path that stays inside the repository and outside Git's
/// own directory: no empty, `.` or `..` part, no part named `.git` (in
/// any case), no backslash or NUL.
pub fn safe_path(path: &str) -> bool {
    !path.starts_with('/')
        && !path.contains('\\')
        && !path.contains('\0')
        && path.split('/').all(|part| {
            !part.is_empty() && part != "." && part != ".." && !part.eq_ignore_ascii_case(".git")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_paths_and_extracts_codes() {
        let mask = Filemask::new("po/*.po").unwrap();
        assert_eq!(mask.code_of("po/cs.po"), Some("cs"));
        assert_eq!(mask.code_of("po/pt_BR.po"), Some("pt_BR"));
        assert_eq!(mask.code_of("po/app.pot"), None);
        assert_eq!(mask.code_of("po/x/cs.po"), None);
        assert_eq!(mask.code_of("po/.po"), None);
        assert_eq!(mask.path_for("de"), "po/de.po");
        let android = Filemask::new("res/values-*/strings.xml").unwrap();
        assert_eq!(android.code_of("res/values-de/strings.xml"), Some("de"));
        let dir = Filemask::new("*/messages.json").unwrap();
        assert_eq!(dir.code_of("fr/messages.json"), Some("fr"));
    }

    #[test]
    fn refuses_masks_without_one_placeholder_or_outside_the_repository() {
        assert!(
            Filemask::new("po/cs.po")
                .unwrap_err()
                .contains("does not contain *")
        );
        assert!(
            Filemask::new("*/*.po")
                .unwrap_err()
                .contains("more than one")
        );
        assert!(Filemask::new("../*.po").unwrap_err().contains("inside"));
        for mask in [".git/*", "sub/.GIT/*.po", "./*.po", "po/./*.po"] {
            assert!(
                Filemask::new(mask).unwrap_err().contains("outside .git"),
                "{mask}"
            );
        }
        assert!(Filemask::new("/etc/*.po").unwrap_err().contains("inside"));
    }

    #[test]
    fn styles_and_candidates_of_codes() {
        assert_eq!(styled_code("pt_BR", "bcp"), "pt-BR");
        assert_eq!(styled_code("pt_BR", "android"), "pt-rBR");
        assert_eq!(styled_code("pt_BR", "posix_lowercase"), "pt_br");
        assert_eq!(styled_code("pt_BR", ""), "pt_BR");
        assert_eq!(
            code_candidates("pt-rbr"),
            vec!["pt-rbr", "pt_rbr", "pt_BR", "pt_RBR", "pt_Rbr", "pt"]
        );
        assert_eq!(
            code_candidates("zh-hant")[2..4],
            ["zh_HANT".to_owned(), "zh_Hant".to_owned()]
        );
        assert_eq!(code_candidates("cs"), vec!["cs"]);
    }
}
