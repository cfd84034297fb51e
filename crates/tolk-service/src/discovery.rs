//! Finding the components in a repository's files (`tolk import`): groups
//! of translation files whose paths differ only by a language code, each
//! group's format (from the extension and a look at one file), and the
//! template or gettext base next to it.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use tolk_domain::filemask::Filemask;

/// A component found in the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its display name, unique among those found.
    pub name: String,
    /// Its slug.
    pub slug: String,
    /// Format id.
    pub file_format: &'static str,
    /// The file mask, `*` standing for the language code.
    pub filemask: String,
    /// The source language's file of a monolingual format; empty when none.
    pub template: String,
    /// The file new translations start from (a gettext POT); empty when none.
    pub new_base: String,
    /// The language codes of the files the mask matches, sorted; not the
    /// template's (a file `Base.lproj` holds the source strings).
    pub languages: Vec<String>,
}

/// Files that look like translations but make no component, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file mask they would have had.
    pub filemask: String,
    /// Why they were left out.
    pub reason: String,
}

/// What [`discover`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The components, by file mask.
    pub components: Vec<Found>,
    /// The groups left out.
    pub skipped: Vec<Skipped>,
}

/// Directories whose files belong to other projects (dependencies) or to
/// tools, never looked into.
const IGNORED_DIRS: [&str; 4] = ["node_modules", "vendor", "bower_components", "third_party"];

/// Words that are codes of rare languages but, in paths, usually mean
/// something else (`src/`, `bin/`, Apple's `Base.lproj`): they join a
/// group other codes make, never make one alone.
const RARELY_CODES: [&str; 5] = ["src", "bin", "man", "base", "mo"];

/// Formats whose files each carry the source text: no template is looked for.
const BILINGUAL: [&str; 8] = [
    "po", "ts", "xliff", "xliff2", "poxliff", "csv", "tbx", "catkeys",
];

/// Longest language code taken from a path.
const CODE_MAX: usize = 20;

/// The known language codes, lower-case with `_`.
struct Codes(HashSet<String>);

impl Codes {
    fn builtin() -> Codes {
        let mut codes = HashSet::new();
        for language in tolk_domain::language::builtin_languages() {
            codes.insert(normal(&language.code));
            codes.extend(language.aliases.iter().map(|a| normal(a)));
        }
        Codes(codes)
    }

    /// Whether `code` names a language as a file name would: a known
    /// code, or a known language with a region or script (`de_AT`,
    /// `zh-rCN`, `sr_Latn`).
    fn is_language(&self, code: &str) -> bool {
        let code = normal(code);
        if code.len() < 2 || code.len() > CODE_MAX {
            return false;
        }
        if self.0.contains(&code) {
            return true;
        }
        let Some((base, rest)) = code.split_once('_') else {
            return false;
        };
        let rest = rest
            .strip_prefix('r')
            .filter(|r| r.len() == 2)
            .unwrap_or(rest);
        let region = (rest.len() == 2 && rest.chars().all(|c| c.is_ascii_alphabetic()))
            || (rest.len() == 3 && rest.chars().all(|c| c.is_ascii_digit()));
        let script = rest.len() == 4 && rest.chars().all(|c| c.is_ascii_alphabetic());
        (region || script) && self.0.contains(base)
    }
}

fn normal(code: &str) -> String {
    code.replace('-', "_").to_ascii_lowercase()
}

/// The format a file's extension suggests, before its content is seen;
/// `None` for files that are not translations (or only documents).
fn format_by_extension(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (_, extension) = name.rsplit_once('.')?;
    Some(match extension.to_ascii_lowercase().as_str() {
        "po" => "po",
        "ts" => "ts",
        "xlf" | "xliff" => "xliff",
        "strings" => "strings",
        "stringsdict" => "stringsdict",
        "properties" => "properties",
        "resx" => "resx",
        // Android's resources only: other XML is rarely translations.
        "xml"
            if path
                .split('/')
                .any(|d| d == "values" || d.starts_with("values-")) =>
        {
            "aresource"
        }
        "arb" => "arb",
        "json" => "json",
        "yml" | "yaml" => "yaml",
        "php" => "php",
        "ftl" => "fluent",
        "csv" => "csv",
        "dtd" => "dtd",
        "catkeys" => "catkeys",
        _ => return None,
    })
}

/// The format of a group whose extension suggests `format`, once one of
/// its files (`sample`, at `path`) is seen: JSON, YAML and PHP come in
/// several flavours, XLIFF in two versions.
fn format_by_content(
    format: &'static str,
    path: &str,
    sample: &[u8],
    codes: &Codes,
) -> &'static str {
    match format {
        "xliff" => tolk_formats::by_content(format, sample),
        "json" => json_flavour(path, sample),
        "yaml" => {
            let text = String::from_utf8_lossy(sample);
            let first = text
                .lines()
                .map(str::trim_end)
                .find(|l| !l.is_empty() && !l.starts_with('#') && l != &"---");
            // Rails keeps each file under its language's key.
            match first.and_then(|l| l.strip_suffix(':')) {
                Some(key) if !key.starts_with(' ') && codes.is_language(key) => "ruby-yaml",
                _ => "yaml",
            }
        }
        "php" => {
            let text = String::from_utf8_lossy(sample);
            if text.contains("return [") || text.contains("return array(") {
                "laravel"
            } else {
                "php"
            }
        }
        other => other,
    }
}

/// Which JSON format a file is: go-i18n's list, a browser extension's
/// messages, FormatJS descriptors, i18next with its plural suffixes,
/// nested or flat keys.
fn json_flavour(path: &str, sample: &[u8]) -> &'static str {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(sample) else {
        return "json";
    };
    let object = match value {
        serde_json::Value::Array(_) => return "go-i18n-json",
        serde_json::Value::Object(object) => object,
        _ => return "json",
    };
    let entries: Vec<&serde_json::Map<String, serde_json::Value>> =
        object.values().filter_map(|v| v.as_object()).collect();
    if path.contains("_locales/") && path.ends_with("/messages.json")
        || (!entries.is_empty()
            && entries.len() == object.len()
            && entries.iter().all(|e| e.contains_key("message")))
    {
        return "webextension";
    }
    if entries.iter().any(|e| e.contains_key("defaultMessage")) {
        return "formatjs";
    }
    let mut keys = Vec::new();
    collect_keys(&object, &mut keys);
    if keys.iter().any(|k| k.ends_with("_plural")) {
        return "i18next";
    }
    if keys.iter().any(|k| {
        ["_one", "_other", "_few", "_many"]
            .iter()
            .any(|s| k.ends_with(s))
    }) {
        return "i18nextv4";
    }
    if entries.is_empty() {
        "json"
    } else {
        "json-nested"
    }
}

fn collect_keys<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    out: &mut Vec<&'a str>,
) {
    for (key, value) in object {
        out.push(key);
        if let Some(inner) = value.as_object() {
            collect_keys(inner, out);
        }
    }
}

/// Where a separator may start or end a language code inside a name.
fn is_separator(c: u8) -> bool {
    matches!(c, b'-' | b'_' | b'.')
}

/// Every way `path` holds a language code: the file mask with `*` in its
/// place, and the code.
fn masks_of(path: &str, codes: &Codes) -> Vec<(String, String)> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut found = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let bytes = segment.as_bytes();
        // A file's extension is never its code.
        let limit = if i + 1 == segments.len() {
            segment.rfind('.').unwrap_or(segment.len())
        } else {
            segment.len()
        };
        let starts = std::iter::once(0)
            .chain(
                (0..limit)
                    .filter(|&k| is_separator(bytes[k]))
                    .map(|k| k + 1),
            )
            .filter(|&k| k < limit);
        for start in starts {
            let ends = (start + 1..limit)
                .filter(|&k| is_separator(bytes[k]))
                .chain(std::iter::once(limit));
            for end in ends.take_while(|&end| end - start <= CODE_MAX) {
                let code = &segment[start..end];
                if !codes.is_language(code) {
                    continue;
                }
                let mut masked = segments.clone();
                let replaced = format!("{}*{}", &segment[..start], &segment[end..]);
                masked[i] = &replaced;
                found.push((masked.join("/"), code.to_owned()));
            }
        }
    }
    found
}

/// The components in a repository's `files` (`/`-separated paths),
/// reading the few files `read` is asked for (one sample per group);
/// templates are the files of `source_language` or the files without a
/// code next to the others (Android's `values/`, `Messages.properties`).
pub fn discover(
    files: &[String],
    read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    source_language: &str,
) -> Discovery {
    let codes = Codes::builtin();
    let present: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut groups: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for path in files {
        let hidden_or_ignored = path
            .split('/')
            .rev()
            .skip(1)
            .any(|d| d.starts_with('.') || IGNORED_DIRS.contains(&d));
        if hidden_or_ignored || format_by_extension(path).is_none() {
            continue;
        }
        for (mask, code) in masks_of(path, &codes) {
            groups.entry(mask).or_default().push((path.clone(), code));
        }
    }
    // The reading that explains the most files wins; a file belongs to one group.
    let mut ranked: Vec<(String, Vec<(String, String)>)> = groups.into_iter().collect();
    ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    let mut taken: HashSet<String> = HashSet::new();
    let mut discovery = Discovery::default();
    for (mask, members) in ranked {
        if members.iter().any(|(path, _)| taken.contains(path)) {
            continue;
        }
        let group = Group {
            codes: &codes,
            mask: &mask,
            members: &members,
            present: &present,
            source_language,
        };
        match group.component(read) {
            Ok(Some(found)) => {
                taken.extend(members.iter().map(|(path, _)| path.clone()));
                discovery.components.push(found);
            }
            Ok(None) => {}
            Err(reason) => {
                taken.extend(members.iter().map(|(path, _)| path.clone()));
                discovery.skipped.push(Skipped {
                    filemask: mask.clone(),
                    reason,
                });
            }
        }
    }
    discovery
        .components
        .sort_by(|a, b| a.filemask.cmp(&b.filemask));
    name_components(&mut discovery.components);
    discovery
}

/// Files one mask matches, with what surrounds them.
struct Group<'a> {
    codes: &'a Codes,
    mask: &'a str,
    members: &'a [(String, String)],
    present: &'a BTreeSet<&'a str>,
    source_language: &'a str,
}

impl Group<'_> {
    /// The component these files make; `None` when they are no group
    /// (a lone file with nothing to translate it from), an error when
    /// they look like one Tolk cannot make.
    fn component(
        &self,
        read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Result<Option<Found>, String> {
        let Some(guess) = format_by_extension(self.mask) else {
            return Ok(None);
        };
        if self
            .members
            .iter()
            .all(|(_, code)| RARELY_CODES.contains(&normal(code).as_str()))
        {
            return Ok(None);
        }
        if Filemask::new(self.mask).is_err() {
            return Ok(None);
        }
        let template = if BILINGUAL.contains(&guess) {
            None
        } else {
            self.template()
        };
        let new_base = if guess == "po" {
            self.gettext_base()
        } else {
            None
        };
        let lone_source =
            self.members.len() == 1 && self.source_member().is_some() && guess != "po";
        if self.members.len() < 2 && template.is_none() && new_base.is_none() && !lone_source {
            return Ok(None);
        }
        let sample_path = template
            .clone()
            .unwrap_or_else(|| self.members[0].0.clone());
        let sample =
            read(&sample_path).ok_or_else(|| format!("{sample_path} could not be read"))?;
        let format = format_by_content(guess, &sample_path, &sample, self.codes);
        if !tolk_formats::readable().contains(&format) {
            return Err(format!("Tolk cannot read the {format} format yet"));
        }
        if let Err(e) = tolk_formats::parse(format, &sample_path, &sample) {
            return Err(format!("not readable as {format}: {e}"));
        }
        let info = tolk_formats::find(format);
        if template.is_none() && info.is_some_and(|f| f.needs_template()) {
            return Err(format!(
                "{format} files need a template, and no file of the source language \
                 ({}) or without a language code was found",
                self.source_language
            ));
        }
        let mut languages: Vec<String> = self
            .members
            .iter()
            .filter(|(path, _)| template.as_ref() != Some(path))
            .map(|(_, c)| c.clone())
            .collect();
        languages.sort();
        Ok(Some(Found {
            name: String::new(),
            slug: String::new(),
            file_format: format,
            filemask: self.mask.to_owned(),
            template: template.unwrap_or_default(),
            new_base: new_base.unwrap_or_default(),
            languages,
        }))
    }

    /// The member in the source language: its code exactly, else the
    /// first with a region of it (`en_US`).
    fn source_member(&self) -> Option<&str> {
        let source = normal(self.source_language);
        let prefix = format!("{source}_");
        self.members
            .iter()
            .find(|(_, code)| normal(code) == source)
            .or_else(|| {
                self.members
                    .iter()
                    .find(|(_, code)| normal(code).starts_with(&prefix))
            })
            .map(|(path, _)| path.as_str())
    }

    /// The source file of a monolingual group: the file without a code
    /// (`values/strings.xml` next to `values-*/`, `Messages.properties`
    /// next to `Messages_*.properties`, Apple's `Base.lproj`), else the
    /// source language's file.
    fn template(&self) -> Option<String> {
        let (prefix, suffix) = self.mask.split_once('*')?;
        let without_code = prefix
            .strip_suffix(|c: char| is_separator(c as u8) && c.is_ascii())
            .map(|p| format!("{p}{suffix}"));
        let base = format!("{prefix}Base{suffix}");
        without_code
            .into_iter()
            .chain(std::iter::once(base))
            .find(|p| self.present.contains(p.as_str()))
            .or_else(|| self.source_member().map(str::to_owned))
    }

    /// The POT file of a gettext group: in the directory above the codes
    /// or the files' own, named like the files, else the only one there.
    fn gettext_base(&self) -> Option<String> {
        let (prefix, suffix) = self.mask.split_once('*')?;
        let above = prefix.rsplit_once('/').map_or("", |(dir, _)| dir);
        let own = self.mask.rsplit_once('/').map_or("", |(dir, _)| dir);
        let stem = suffix
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".po")
            .trim_start_matches(['.', '-', '_']);
        let in_dir = |dir: &str| -> Vec<&str> {
            self.present
                .iter()
                .copied()
                .filter(|p| p.ends_with(".pot"))
                .filter(|p| p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
                .collect()
        };
        let mut dirs = vec![above];
        if own != above && !own.contains('*') {
            dirs.push(own);
        }
        for dir in dirs {
            let pots = in_dir(dir);
            let named = pots.iter().find(|p| {
                !stem.is_empty()
                    && p.rsplit('/').next().and_then(|n| n.strip_suffix(".pot")) == Some(stem)
            });
            match (named, pots.as_slice()) {
                (Some(pot), _) => return Some((*pot).to_owned()),
                (None, [only]) => return Some((*only).to_owned()),
                _ => {}
            }
        }
        None
    }
}

/// Names each component after what its mask says besides the code (the
/// file's name, else its directory); components that would share a name
/// get the first directory where their paths part (`app-strings`,
/// `core-strings`), then a number.
fn name_components(found: &mut [Found]) {
    let words: Vec<Vec<String>> = found.iter().map(|f| mask_words(&f.filemask)).collect();
    let last = |w: &Vec<String>| w.last().cloned().unwrap_or_default();
    let mut names: Vec<String> = words.iter().map(last).collect();
    for i in 0..found.len() {
        let same: Vec<usize> = (0..found.len())
            .filter(|&j| last(&words[j]) == last(&words[i]))
            .collect();
        if same.len() < 2 {
            continue;
        }
        // The first word where the paths of this name part.
        let parting = (0..words[i].len().saturating_sub(1))
            .find(|&k| same.iter().any(|&j| words[j].get(k) != words[i].get(k)));
        if let Some(k) = parting {
            names[i] = format!("{}-{}", words[i][k], last(&words[i]));
        }
    }
    let mut used: HashSet<String> = HashSet::new();
    for (f, name) in found.iter_mut().zip(names) {
        let mut unique = name.clone();
        let mut n = 2;
        while !used.insert(slug_of(&unique)) {
            unique = format!("{name}-{n}");
            n += 1;
        }
        f.slug = slug_of(&unique);
        f.name = unique;
    }
}

/// The words of a mask's path without the code and the extension, outermost first.
fn mask_words(mask: &str) -> Vec<String> {
    let stemmed = match mask.rsplit_once('.') {
        Some((stem, _)) if !stem.ends_with('/') => stem,
        _ => mask,
    };
    let mut words: Vec<String> = stemmed
        .split('/')
        .map(|s| {
            s.replace('*', "")
                .trim_matches(|c: char| is_separator(c as u8) || c == ' ')
                .to_owned()
        })
        .filter(|s| !s.is_empty())
        .collect();
    if words.is_empty() {
        words.push("translations".into());
    }
    words
}

/// A slug from a name: letters and digits, other runs as `-`, lower-case.
pub fn slug_of(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-').to_owned();
    if slug.is_empty() {
        "translations".into()
    } else {
        slug.chars()
            .take(tolk_domain::component::NAME_MAX)
            .collect()
    }
}
