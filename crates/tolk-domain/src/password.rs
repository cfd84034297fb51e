//! What a new password must be: long enough to resist guessing, short
//! enough to hash quickly, not only digits, and not the account's own
//! name or e-mail (the rules Weblate applies through Django's validators,
//! but for its list of common passwords).

use crate::validation::FieldErrors;

/// Fewest characters of a password.
pub const MIN_CHARS: usize = 10;
/// Most bytes of a password: hashing a longer one would only cost time.
pub const MAX_BYTES: usize = 1024;

/// The form fields of a new password and of its repetition.
pub const NEW_FIELD: &str = "new_password1";
/// The repetition of a new password.
pub const REPEATED_FIELD: &str = "new_password2";

/// A new password chosen for an account.
#[derive(Debug, Clone, Copy)]
pub struct NewPassword<'a> {
    /// The password.
    pub password: &'a str,
    /// The same, typed again.
    pub repeated: &'a str,
    /// The account's username.
    pub username: &'a str,
    /// The account's e-mail.
    pub email: &'a str,
}

impl NewPassword<'_> {
    /// Every rule the password breaks, on [`NEW_FIELD`] and [`REPEATED_FIELD`].
    pub fn check(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        let password = self.password;
        if password.chars().count() < MIN_CHARS {
            errors.push(
                NEW_FIELD,
                "password_too_short",
                format!(
                    "This password is too short. It must contain at least {MIN_CHARS} characters."
                ),
            );
        }
        if password.len() > MAX_BYTES {
            errors.push(
                NEW_FIELD,
                "password_too_long",
                format!("This password is too long. It may hold at most {MAX_BYTES} bytes."),
            );
        }
        if !password.is_empty() && password.chars().all(|c| c.is_ascii_digit()) {
            errors.push(
                NEW_FIELD,
                "password_entirely_numeric",
                "This password is entirely numeric.",
            );
        }
        let lowered = password.to_lowercase();
        let local_part = self.email.split('@').next().unwrap_or_default();
        if [self.username, self.email, local_part]
            .iter()
            .any(|name| !name.is_empty() && lowered == name.to_lowercase())
        {
            errors.push(
                NEW_FIELD,
                "password_too_similar",
                "The password is too similar to the username or e-mail.",
            );
        }
        if password != self.repeated {
            errors.push(
                REPEATED_FIELD,
                "password_mismatch",
                "The two password fields didn't match.",
            );
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(password: &str, repeated: &str) -> Vec<String> {
        let new = NewPassword {
            password,
            repeated,
            username: "marta",
            email: "Marta.K@example.com",
        };
        new.check().iter().map(|e| e.code.clone()).collect()
    }

    #[test]
    fn a_long_password_of_letters_and_digits_passes() {
        assert!(codes("correct horse 42", "correct horse 42").is_empty());
    }

    #[test]
    fn each_rule_is_named() {
        assert_eq!(codes("short", "short"), ["password_too_short"]);
        assert_eq!(
            codes("12345678901", "12345678901"),
            ["password_entirely_numeric"]
        );
        assert_eq!(
            codes("marta.k@EXAMPLE.com", "marta.k@EXAMPLE.com"),
            ["password_too_similar"]
        );
        assert_eq!(
            codes("MARTA.K", "MARTA.K"),
            ["password_too_short", "password_too_similar"]
        );
        assert_eq!(
            codes("correct horse 42", "correct horse 43"),
            ["password_mismatch"]
        );
        let long = "x".repeat(MAX_BYTES + 1);
        assert_eq!(codes(&long, &long), ["password_too_long"]);
    }

    #[test]
    fn characters_count_not_bytes() {
        // Ten characters, twenty bytes: long enough.
        assert!(codes("ääääääääää", "ääääääääää").is_empty());
        assert_eq!(codes("ääää", "ääää"), ["password_too_short"]);
    }
}
