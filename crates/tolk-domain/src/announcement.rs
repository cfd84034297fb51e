//! What an announcement may say (§17.2): a Markdown message, a severity
//! that colours it, and an optional last day.

use chrono::NaiveDate;

use crate::validation::{FieldErrors, check_text};

/// The severities, Weblate's choices; the first is the default.
pub const SEVERITIES: &[&str] = &["info", "warning", "danger", "success"];

/// Longest message, in characters (Weblate sets none; a message is read
/// on every page of its scope).
pub const MAX_MESSAGE: usize = 10_000;

/// An announcement as posted, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    /// The message.
    pub message: String,
    /// One of [`SEVERITIES`].
    pub severity: String,
    /// The last day it is shown.
    pub expiry: Option<NaiveDate>,
    /// Whether subscribers are to be told.
    pub notify: bool,
}

impl Posting {
    /// Checks what was sent: a message that is not blank, a known
    /// severity (default `info`), an expiry written `YYYY-MM-DD`. Every
    /// bad field is reported.
    pub fn check(
        message: &str,
        severity: Option<&str>,
        expiry: Option<&str>,
        notify: bool,
    ) -> Result<Posting, FieldErrors> {
        let mut errors = FieldErrors::default();
        check_text(message, "message", MAX_MESSAGE, &mut errors);
        let severity = severity.unwrap_or(SEVERITIES[0]);
        if !SEVERITIES.contains(&severity) {
            errors.invalid_choice("severity", severity);
        }
        let expiry = match expiry.map(str::trim).filter(|e| !e.is_empty()) {
            None => None,
            Some(text) => {
                let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok();
                if date.is_none() {
                    errors.push(
                        "expiry",
                        "invalid",
                        "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.",
                    );
                }
                date
            }
        };
        errors.into_result()?;
        Ok(Posting {
            message: message.to_owned(),
            severity: severity.to_owned(),
            expiry,
            notify,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(errors: &FieldErrors) -> Vec<(String, String)> {
        errors
            .iter()
            .map(|e| (e.attr.clone().unwrap_or_default(), e.code.clone()))
            .collect()
    }

    #[test]
    fn a_posting_defaults_to_info_without_an_end() {
        let posting = Posting::check("Freeze on Friday", None, None, false).unwrap();
        assert_eq!(posting.severity, "info");
        assert_eq!(posting.expiry, None);
        let dated = Posting::check("Freeze", Some("warning"), Some("2026-09-01"), true).unwrap();
        assert_eq!(dated.expiry, NaiveDate::from_ymd_opt(2026, 9, 1));
        assert!(dated.notify);
    }

    #[test]
    fn every_bad_field_is_reported() {
        let errors = Posting::check(" ", Some("loud"), Some("1 Sept"), false).unwrap_err();
        assert_eq!(
            codes(&errors),
            [
                ("message".to_owned(), "blank".to_owned()),
                ("severity".to_owned(), "invalid_choice".to_owned()),
                ("expiry".to_owned(), "invalid".to_owned()),
            ]
        );
        let long = "x".repeat(MAX_MESSAGE + 1);
        let errors = Posting::check(&long, None, Some("2026-02-30"), false).unwrap_err();
        assert_eq!(
            codes(&errors),
            [
                ("message".to_owned(), "max_length".to_owned()),
                ("expiry".to_owned(), "invalid".to_owned()),
            ]
        );
    }
}
