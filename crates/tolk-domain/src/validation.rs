//! Field-level validation errors, worded like Weblate's API so that
//! clients that show them to people keep working.

/// One invalid field (or, with `attr` `None`, an error of the whole object).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Field name, dotted for nested fields (`plural.number`).
    pub attr: Option<String>,
    /// Machine-readable code such as `required` or `invalid`.
    pub code: String,
    /// Human-readable message.
    pub detail: String,
}

/// An ordered collection of field errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<FieldError>);

impl FieldErrors {
    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates over the errors in the order they were reported.
    pub fn iter(&self) -> impl Iterator<Item = &FieldError> {
        self.0.iter()
    }

    /// True when the field already has an error.
    pub fn has(&self, attr: &str) -> bool {
        self.0.iter().any(|e| e.attr.as_deref() == Some(attr))
    }

    /// Adds an error.
    pub fn push(&mut self, attr: &str, code: &str, detail: impl Into<String>) {
        self.0.push(FieldError {
            attr: Some(attr.to_owned()),
            code: code.to_owned(),
            detail: detail.into(),
        });
    }

    /// Appends all errors of `other`.
    pub fn extend(&mut self, other: FieldErrors) {
        self.0.extend(other.0);
    }

    /// Turns the collection into a result: `Ok(())` when empty.
    pub fn into_result(self) -> Result<(), FieldErrors> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }

    /// A required field is missing.
    pub fn required(&mut self, attr: &str) {
        self.push(attr, "required", "This field is required.");
    }

    /// A text field is empty.
    pub fn blank(&mut self, attr: &str) {
        self.push(attr, "blank", "This field may not be blank.");
    }

    /// A field is `null` but may not be.
    pub fn null(&mut self, attr: &str) {
        self.push(attr, "null", "This field may not be null.");
    }

    /// An error of the whole request rather than of one field (`attr` null).
    pub fn general(&mut self, code: &str, detail: impl Into<String>) {
        self.0.push(FieldError {
            attr: None,
            code: code.to_owned(),
            detail: detail.into(),
        });
    }

    /// A generic invalid value with a message.
    pub fn invalid(&mut self, attr: &str, detail: &str) {
        self.push(attr, "invalid", detail);
    }

    /// A text is longer than allowed.
    pub fn max_length(&mut self, attr: &str, max: usize) {
        self.push(
            attr,
            "max_length",
            format!("Ensure this field has no more than {max} characters."),
        );
    }

    /// A value is not one of the allowed choices.
    pub fn invalid_choice(&mut self, attr: &str, value: &str) {
        self.push(
            attr,
            "invalid_choice",
            format!("\"{value}\" is not a valid choice."),
        );
    }

    /// A value must be unique but is taken.
    pub fn unique(&mut self, attr: &str, model: &str, field_label: &str) {
        self.push(
            attr,
            "unique",
            format!("{model} with this {field_label} already exists."),
        );
    }

    /// A reference to an object that does not exist.
    pub fn does_not_exist(&mut self, attr: &str, value: &str) {
        self.push(
            attr,
            "does_not_exist",
            format!("Invalid pk \"{value}\" - object does not exist."),
        );
    }
}

impl IntoIterator for FieldErrors {
    type Item = FieldError;
    type IntoIter = std::vec::IntoIter<FieldError>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Checks a required text field: not blank and not longer than `max` characters.
pub fn check_text(value: &str, attr: &str, max: usize, errors: &mut FieldErrors) {
    if value.trim().is_empty() {
        errors.blank(attr);
    } else {
        check_length(value, attr, max, errors);
    }
}

/// Checks an optional text field's length.
pub fn check_length(value: &str, attr: &str, max: usize, errors: &mut FieldErrors) {
    if value.chars().count() > max {
        errors.max_length(attr, max);
    }
}

/// Checks a slug: letters, digits, `_` and `-`, not blank, at most `max` characters.
pub fn check_slug(value: &str, attr: &str, max: usize, errors: &mut FieldErrors) {
    if value.is_empty() {
        errors.blank(attr);
    } else if !value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        errors.invalid(
            attr,
            "Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens.",
        );
    } else {
        check_length(value, attr, max, errors);
    }
}

/// Checks an absolute `http`/`https` URL with a host.
pub fn check_url(value: &str, attr: &str, errors: &mut FieldErrors) {
    if value.is_empty() {
        errors.blank(attr);
        return;
    }
    let rest = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"));
    let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    let host_ok = host.is_some_and(|h| {
        let name = h.rsplit_once('@').map_or(h, |(_, n)| n);
        let name = name.split(':').next().unwrap_or("");
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '-' || c == '[' || c == ']')
            && !name.starts_with('.')
            && !name.ends_with('.')
    });
    if !host_ok || value.chars().any(char::is_whitespace) || value.chars().count() > 200 {
        errors.invalid(attr, "Enter a valid URL.");
    }
}

/// Checks an e-mail address by the rules of Django's `EmailValidator`:
/// a dot-atom or quoted local part, `@`, and a domain of dot-separated
/// labels ending in a top-level label of two or more characters, an
/// address literal in brackets, or `localhost`.
pub fn check_email(value: &str, attr: &str, errors: &mut FieldErrors) {
    let valid = value.chars().count() <= 320
        && value
            .rsplit_once('@')
            .is_some_and(|(local, domain)| email_local_ok(local) && email_domain_ok(domain));
    if !valid {
        errors.invalid(attr, "Enter a valid email address.");
    } else {
        check_length(value, attr, 190, errors);
    }
}

/// Characters a dot-atom local part may hold besides letters and digits.
const ATOM_SPECIALS: &str = "!#$%&'*+/=?^_`{|}~-";

fn email_local_ok(local: &str) -> bool {
    if let Some(quoted) = local
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            let ok = match c {
                '\\' => chars
                    .next()
                    .is_some_and(|n| n.is_ascii() && !matches!(n, '\0' | '\n' | '\r')),
                '"' => false,
                c => c.is_ascii() && !matches!(c, '\0' | '\t' | '\n' | '\r'),
            };
            if !ok {
                return false;
            }
        }
        return true;
    }
    !local.is_empty()
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ATOM_SPECIALS.contains(c))
        })
}

fn email_domain_ok(domain: &str) -> bool {
    if domain == "localhost" {
        return true;
    }
    if let Some(literal) = domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => literal.parse::<std::net::Ipv4Addr>().is_ok(),
        };
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let Some((top, hosts)) = labels.split_last() else {
        return false;
    };
    // Letters beyond ASCII stand for internationalised names.
    let label_char = |c: char| c.is_alphanumeric() || c == '-';
    !hosts.is_empty()
        && hosts.iter().all(|label| {
            (1..=63).contains(&label.chars().count())
                && label.chars().all(label_char)
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
        && (2..=63).contains(&top.chars().count())
        && top.chars().all(label_char)
        && !top.ends_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(f: impl Fn(&mut FieldErrors)) -> Vec<String> {
        let mut errors = FieldErrors::default();
        f(&mut errors);
        errors.into_iter().map(|e| e.code).collect()
    }

    #[test]
    fn slugs() {
        assert!(codes(|e| check_slug("hello-world_2", "slug", 60, e)).is_empty());
        assert_eq!(codes(|e| check_slug("", "slug", 60, e)), vec!["blank"]);
        assert_eq!(codes(|e| check_slug("a b", "slug", 60, e)), vec!["invalid"]);
        assert_eq!(codes(|e| check_slug("a/b", "slug", 60, e)), vec!["invalid"]);
        assert_eq!(
            codes(|e| check_slug(&"x".repeat(61), "slug", 60, e)),
            vec!["max_length"]
        );
    }

    #[test]
    fn urls() {
        for good in [
            "https://example.com/",
            "http://127.0.0.1:8000/x?y#z",
            "https://weblate.org",
        ] {
            assert!(codes(|e| check_url(good, "web", e)).is_empty(), "{good}");
        }
        for bad in [
            "example.com",
            "ftp://x.org",
            "https://",
            "https:// x.org",
            "http://.org",
        ] {
            assert_eq!(
                codes(|e| check_url(bad, "web", e)),
                vec!["invalid"],
                "{bad}"
            );
        }
    }

    #[test]
    fn emails() {
        for good in [
            "jane@example.com",
            "Jane.Doe+tag@mail.example.co.uk",
            "o'neil@example.org",
            "\"a b\"@example.org",
            "root@localhost",
            "jane@[192.0.2.1]",
            "jane@[IPv6:2001:db8::1]",
            "jane@bücher.example",
        ] {
            assert!(
                codes(|e| check_email(good, "email", e)).is_empty(),
                "{good}"
            );
        }
        for bad in [
            "jane",
            "@x.org",
            "a@b",
            "a b@x.org",
            "a@@x.org",
            "a.@x.org",
            "a..b@x.org",
            ".a@x.org",
            "a@x.c",
            "a@-x.org",
            "a@x-.org",
            "a@x.org-",
            "a@x..org",
            "a@[300.0.0.1]",
            "a(b)@x.org",
            "a@x.org\n",
        ] {
            assert_eq!(
                codes(|e| check_email(bad, "email", e)),
                vec!["invalid"],
                "{bad}"
            );
        }
    }

    #[test]
    fn text_is_trimmed_for_blankness() {
        assert_eq!(codes(|e| check_text("  ", "name", 60, e)), vec!["blank"]);
        assert!(codes(|e| check_text("Name", "name", 60, e)).is_empty());
    }
}
