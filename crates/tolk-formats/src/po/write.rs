//! Writing new PO files from units (conversions and new languages), in
//! the layout gettext's own tools produce.

use std::borrow::Cow;

use super::render::{render_into, render_string};
use crate::unit::{State, Unit};

/// A header for files that come without one.
pub const DEFAULT_HEADER: &str =
    "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n";

/// A complete PO file: the header entry, then one entry per unit. What
/// `msgfmt --check` demands of a catalogue holds: with plural entries the
/// header has a `Plural-Forms` (the header's own, else one for as many
/// forms as the translations have) and each plural has that many forms,
/// and a translation begins and ends with a newline where its source does.
pub fn write_new(header: &str, units: &[Unit]) -> String {
    let wrap = Some(79);
    let forms = units
        .iter()
        .filter(|u| u.source.len() > 1)
        .map(|u| u.target.len().max(1))
        .max();
    let header = match (forms, plural_count(header)) {
        (Some(_), Some(_)) | (None, _) => header.to_owned(),
        (Some(n), None) => set_header_field(header, "Plural-Forms", &plural_forms(n)),
    };
    let forms = plural_count(&header).unwrap_or(1);
    let mut text = String::with_capacity(header.len() + units.len() * 80);
    text.push_str("msgid \"\"\n");
    render_into(&mut text, "msgstr", &header, wrap, "");
    for unit in units {
        text.push('\n');
        entry_into(&mut text, &checked(unit, forms), wrap);
    }
    text
}

/// The `nplurals` a header's `Plural-Forms` gives.
fn plural_count(header: &str) -> Option<usize> {
    let line = header
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("plural-forms:"))?;
    let rest = &line[line.find("nplurals=")? + "nplurals=".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
}

/// A plural rule for `n` forms when the language is not known: the usual
/// one for two, else one form per number up to the last.
fn plural_forms(n: usize) -> String {
    match n {
        1 => "nplurals=1; plural=0;".to_owned(),
        2 => "nplurals=2; plural=(n != 1);".to_owned(),
        n => format!(
            "nplurals={n}; plural=(n < {last} ? n : {last});",
            last = n - 1
        ),
    }
}

/// `unit` as a catalogue holds it: a plural with (at least) `forms`
/// translations, the missing ones empty, and each translation beginning
/// and ending with a newline as its source does.
fn checked(unit: &Unit, forms: usize) -> Cow<'_, Unit> {
    let short = unit.source.len() > 1 && unit.target.len() < forms;
    let newlines = |target: &String, i: usize| {
        let source = unit.source.get(i.min(1)).or(unit.source.last());
        source.is_some_and(|source| {
            !target.is_empty()
                && (source.starts_with('\n') != target.starts_with('\n')
                    || source.ends_with('\n') != target.ends_with('\n'))
        })
    };
    let uneven = unit.target.iter().enumerate().any(|(i, t)| newlines(t, i));
    if !short && !uneven {
        return Cow::Borrowed(unit);
    }
    let mut unit = unit.clone();
    if unit.source.len() > 1 && unit.target.len() < forms {
        unit.target.resize(forms, String::new());
    }
    for (i, target) in unit.target.iter_mut().enumerate() {
        let source = unit.source.get(i.min(1)).or(unit.source.last());
        let Some(source) = source.filter(|_| !target.is_empty()) else {
            continue;
        };
        match (source.starts_with('\n'), target.starts_with('\n')) {
            (true, false) => target.insert(0, '\n'),
            (false, true) => *target = target.trim_start_matches('\n').to_owned(),
            _ => {}
        }
        match (source.ends_with('\n'), target.ends_with('\n')) {
            (true, false) => target.push('\n'),
            (false, true) => *target = target.trim_end_matches('\n').to_owned(),
            _ => {}
        }
    }
    Cow::Owned(unit)
}

/// `header` with `field` set to `value`: the field's line replaced where
/// it is, else added at the end.
pub fn set_header_field(header: &str, field: &str, value: &str) -> String {
    let line = format!("{field}: {value}\n");
    let mut found = false;
    let mut out: String = header
        .split_inclusive('\n')
        .map(|l| {
            let key = l.split_once(':').map(|(k, _)| k.trim());
            if key.is_some_and(|k| k.eq_ignore_ascii_case(field)) {
                found = true;
                line.as_str()
            } else {
                l
            }
        })
        .collect();
    if !found {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out
}

/// Appends the lines of one entry for `unit` to `out`, each ended by a
/// line break, strings wrapped at `wrap` columns.
pub(super) fn entry_into(out: &mut String, unit: &Unit, wrap: Option<usize>) {
    // A note of several lines is a comment of several lines.
    let mut comment = |prefix: &str, note: &String| {
        for line in note.split('\n') {
            out.push_str(format!("{prefix} {line}").trim_end());
            out.push('\n');
        }
    };
    for note in &unit.translator_notes {
        comment("#", note);
    }
    for note in &unit.developer_notes {
        comment("#.", note);
    }
    if !unit.locations.is_empty() {
        out.push_str("#: ");
        out.push_str(&unit.locations.join(" "));
        out.push('\n');
    }
    let mut flags: Vec<&str> = unit.flags.iter().map(String::as_str).collect();
    if unit.state == State::Fuzzy {
        flags.insert(0, "fuzzy");
    }
    if !flags.is_empty() {
        out.push_str("#, ");
        out.push_str(&flags.join(", "));
        out.push('\n');
    }
    if let Some(previous) = &unit.previous_source {
        for line in render_string("msgid", previous, wrap, "") {
            out.push_str("#| ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    if !unit.context.is_empty() {
        render_into(out, "msgctxt", &unit.context, wrap, "");
    }
    let source = unit.source.first().map_or("", String::as_str);
    render_into(out, "msgid", source, wrap, "");
    if let Some(plural) = unit.source.get(1) {
        render_into(out, "msgid_plural", plural, wrap, "");
        for (i, form) in unit.target.iter().enumerate() {
            render_into(out, &format!("msgstr[{i}]"), form, wrap, "");
        }
    } else {
        let text = unit.target.first().map_or("", String::as_str);
        render_into(out, "msgstr", text, wrap, "");
    }
}
