//! What the pages' forms send, and their errors as the pages show them.

use serde::Deserialize;
use tolk_domain::validation::FieldErrors;
use tolk_service::PageRequest;

use crate::extract::Guarded;

/// A form that carries only its anti-forgery token (sign-out, new token).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenOnly {
    /// The anti-forgery token.
    pub csrfmiddlewaretoken: String,
}

/// The sign-in form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SignInForm {
    /// The anti-forgery token.
    pub csrfmiddlewaretoken: String,
    /// The username typed.
    pub username: String,
    /// The password typed.
    pub password: String,
    /// Where to go after signing in.
    pub next: String,
}

/// The query of the sign-in page.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NextQuery {
    /// Where to go after signing in.
    pub next: String,
}

/// The page of a list a page shows (`?page=`, from 1).
#[derive(Debug, Deserialize)]
pub struct PageQuery {
    /// The page, from 1.
    #[serde(default = "first_page")]
    pub page: u64,
}

fn first_page() -> u64 {
    1
}

impl PageQuery {
    /// The page asked for, of `size` items.
    pub fn request(&self, size: u64) -> PageRequest {
        PageRequest {
            number: Some(self.page.max(1)),
            size,
        }
    }
}

/// A new password, typed twice, and for a change the current one.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PasswordForm {
    /// The anti-forgery token.
    pub csrfmiddlewaretoken: String,
    /// The current password (a change only).
    pub old_password: String,
    /// The new password.
    pub new_password1: String,
    /// The new password again.
    pub new_password2: String,
}

/// Field errors of a form, one message per field.
#[derive(Debug, Clone, Default)]
pub struct FormErrors(FieldErrors);

impl FormErrors {
    /// The errors of a use-case.
    pub fn new(errors: FieldErrors) -> FormErrors {
        FormErrors(errors)
    }

    /// The messages about one field, joined; `None` when it has none.
    pub fn on(&self, field: &str) -> Option<String> {
        let messages: Vec<&str> = self
            .0
            .iter()
            .filter(|e| e.attr.as_deref() == Some(field))
            .map(|e| e.detail.as_str())
            .collect();
        (!messages.is_empty()).then(|| messages.join(" "))
    }
}

/// Where to go after signing in: a path of this site, never another site
/// (`//host`, `/\host`, a scheme), else the profile.
pub fn safe_next(next: &str) -> &str {
    let local = next.starts_with('/')
        && !next.starts_with("//")
        && !next.starts_with("/\\")
        && !next.chars().any(|c| c.is_control() || c == '\\');
    if local { next } else { "/accounts/profile/" }
}

/// The forms that carry the anti-forgery token.
macro_rules! guarded {
    ($($form:ty),*) => {
        $(impl Guarded for $form {
            fn token(&self) -> &str {
                &self.csrfmiddlewaretoken
            }
        })*
    };
}

guarded!(TokenOnly, SignInForm, PasswordForm);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_of_this_site_are_followed() {
        assert_eq!(safe_next("/projects/demo/"), "/projects/demo/");
        for elsewhere in [
            "",
            "https://evil.example/",
            "//evil.example/",
            "/\\evil.example/",
            "/\\/evil.example",
            "javascript:alert(1)",
            "/a\nb",
        ] {
            assert_eq!(safe_next(elsewhere), "/accounts/profile/", "{elsewhere:?}");
        }
    }
}
