//! Where a new string goes in a JSON document and how it is written there:
//! as the last member of the object its key leads to, on a line of its own
//! with the indentation of the members before it.

use super::parse::{MAX_DEPTH, Value};

/// How a new member is written.
pub(super) struct NewMember<'a> {
    /// The dotted key of the new string.
    pub key: &'a str,
    /// Whether dots in the key lead into nested objects (created where
    /// missing) rather than being part of one member name.
    pub nests: bool,
    /// A JSON string literal of a text.
    pub quote: &'a dyn Fn(&str) -> String,
    /// The member, given its name, that holds the new string.
    pub leaf: &'a dyn Fn(&str) -> String,
}

/// `text`, whose parsed root is `root`, with `new` added; the error says
/// what cannot be added.
pub(super) fn insert(text: &str, root: &Value, new: &NewMember<'_>) -> Result<String, String> {
    let (mut members, mut span) = match root {
        Value::Object(members, span) => (members, span),
        Value::Array(_) => return Err("strings to a go-i18n v1 list".into()),
        _ => return Err("strings to a JSON file that is not an object".into()),
    };
    let segments: Vec<&str> = new.key.split('.').collect();
    let mut rest: Vec<String> = if new.nests && segments.iter().all(|s| !s.is_empty()) {
        segments.iter().map(|s| (*s).to_owned()).collect()
    } else {
        vec![new.key.to_owned()]
    };
    if rest.len() > MAX_DEPTH {
        // The file could not be read back: its objects would nest too deeply.
        return Err(format!(
            "{:?}: the key leads more than {MAX_DEPTH} objects deep",
            new.key
        ));
    }
    // Into the deepest object the key leads to; as in every JSON reader,
    // of a repeated name the last member counts.
    loop {
        let Some(name) = rest.first() else {
            return Err(format!("{:?}: the key names an object", new.key));
        };
        match members.iter().rev().find(|(k, _)| k == name) {
            Some((_, Value::Object(inner, inner_span))) => {
                (members, span) = (inner, inner_span);
                rest.remove(0);
            }
            Some(_) => {
                // A value holds the name: the rest is one member name.
                let flat = rest.join(".");
                if members.iter().any(|(k, _)| *k == flat) {
                    return Err(format!("{:?}: the key is taken", new.key));
                }
                rest = vec![flat];
                break;
            }
            None => break,
        }
    }
    Ok(add_member(
        text,
        span.clone(),
        !members.is_empty(),
        &rest,
        new,
    ))
}

/// `text` with a member for the path `rest` added to the object at `span`.
fn add_member(
    text: &str,
    span: std::ops::Range<usize>,
    has_members: bool,
    rest: &[String],
    new: &NewMember<'_>,
) -> String {
    let (open, close) = (span.start, span.end - 1);
    let body_end = text[..close].trim_end().len().max(open + 1);
    let last_line = text[..body_end].rfind('\n').map_or(0, |i| i + 1);
    let brace_line = text[..close].rfind('\n').map_or(0, |i| i + 1);
    let brace_indent = Some(&text[brace_line..close]).filter(|lead| lead.trim().is_empty());
    let indent = if has_members && last_line > open {
        let line = &text[last_line..];
        line[..line.len() - line.trim_start().len()].to_owned()
    } else {
        format!("{}  ", brace_indent.unwrap_or(""))
    };
    let step = match brace_indent {
        Some(lead) if indent.len() > lead.len() && indent.starts_with(lead) => {
            &indent[lead.len()..]
        }
        _ => "  ",
    };
    let comma = if has_members { "," } else { "" };
    let closing_line = if text[body_end..close].contains('\n') {
        ""
    } else {
        "\n"
    };
    let member = nested(rest, &indent, step, new);
    format!(
        "{}{comma}\n{indent}{member}{closing_line}{}",
        &text[..body_end],
        &text[body_end..]
    )
}

/// The member for `path` at `indent`: the leaf, inside one object per
/// further name.
fn nested(path: &[String], indent: &str, step: &str, new: &NewMember<'_>) -> String {
    match path {
        [name] => (new.leaf)(name),
        [name, inner @ ..] => {
            let deeper = format!("{indent}{step}");
            format!(
                "{}: {{\n{deeper}{}\n{indent}}}",
                (new.quote)(name),
                nested(inner, &deeper, step, new)
            )
        }
        [] => String::new(),
    }
}
