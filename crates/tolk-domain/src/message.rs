//! Commit message templates: `{{ name }}` placeholders (Weblate writes them
//! in Django's template language; Tolk fills the plain variables it knows
//! and leaves unknown ones empty).

/// Fills the `{{ name }}` placeholders of `template` from `values`.
pub fn render(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let name = after[..end].trim();
                if let Some((_, value)) = values.iter().find(|(k, _)| *k == name) {
                    out.push_str(value);
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_known_placeholders_and_drops_unknown_ones() {
        let values = [
            ("language_name", "Czech".to_owned()),
            ("stats.translated", "3".to_owned()),
        ];
        assert_eq!(
            render(
                "update {{ language_name }} ({{stats.translated}}, {{ nope }}) {{ open",
                &values
            ),
            "update Czech (3, ) {{ open"
        );
    }
}
