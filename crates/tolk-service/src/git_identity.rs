//! Who Git records as the author of the commits Tolk makes.

use tolk_store::users;
use tolk_vcs::Identity;

/// Git's identity of an account (its name and e-mail, or a no-reply
/// address), or Tolk's for the system.
pub(crate) fn author_of(user: Option<&users::UserRow>) -> Identity {
    match user {
        Some(u) => Identity {
            name: if u.full_name.is_empty() {
                u.username.clone()
            } else {
                u.full_name.clone()
            },
            email: if u.email.is_empty() {
                format!("{}@users.noreply.tolk.invalid", u.username)
            } else {
                u.email.clone()
            },
        },
        None => Identity {
            name: "Tolk".into(),
            email: "noreply@tolk.invalid".into(),
        },
    }
}
