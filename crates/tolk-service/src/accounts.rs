//! Signing in to the web pages with a password: sessions, password
//! changes, one-time links to choose a password (Tolk sends no mail, an
//! administrator hands the link on), renewing the API token shown on the
//! profile, and the site's secret that signs cookies and forms. The API
//! keeps its tokens ([`crate::auth`]).
//!
//! Passwords are kept as Argon2id hashes; session and link keys only as
//! digests. Sign-in attempts are throttled per account and per address.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use chrono::{Duration, NaiveDateTime};
use tolk_domain::password::{MAX_BYTES, NewPassword};
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::user::{ANONYMOUS_USERNAME, NAME_MAX};
use tolk_store::users::UserRow;
use tolk_store::{DbConnection, sessions, site_secrets, time, tokens, users};

use crate::auth::{generate_token, hash_token, subject_of_row};
use crate::rate_limits::RateKey;
use crate::{ServiceError, ServiceResult};

/// How long a session lasts after signing in.
pub const SESSION_DAYS: i64 = 14;
/// How long a one-time password link works.
pub const PASSWORD_LINK_DAYS: i64 = 3;
/// Sign-in attempts on one account in a row; then one a minute.
pub const ACCOUNT_ATTEMPTS: Throttle = Throttle {
    burst: 5,
    seconds_each: 60,
};
/// Sign-in attempts from one address in a row (an office behind one
/// address signs in together); then one every fifteen seconds.
pub const ADDRESS_ATTEMPTS: Throttle = Throttle {
    burst: 20,
    seconds_each: 15,
};

/// How many attempts may come at once, and how soon one more may follow.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    /// Attempts in a row.
    pub burst: i64,
    /// Seconds that give one attempt back.
    pub seconds_each: i64,
}

impl Throttle {
    /// The key of this throttle for `of`.
    fn key(self, of: String) -> RateKey {
        const MICROS: i64 = 1_000_000;
        RateKey {
            key: of,
            interval: self.seconds_each * MICROS,
            window: self.seconds_each * MICROS * self.burst,
        }
    }
}
/// The answer to a wrong username or password: the same for both, so that
/// it does not tell which accounts exist.
pub const WRONG_CREDENTIALS: &str =
    "Please enter a correct username and password. Note that both fields may be case-sensitive.";
/// Random characters of session and link keys.
const KEY_PREFIX: &str = "";

/// A person signed in, as the pages show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// The account's id.
    pub id: i64,
    /// Login name.
    pub username: String,
    /// Display name.
    pub full_name: String,
    /// E-mail.
    pub email: String,
}

impl From<&UserRow> for Person {
    fn from(row: &UserRow) -> Self {
        Person {
            id: row.id,
            username: row.username.clone(),
            full_name: row.full_name.clone(),
            email: row.email.clone(),
        }
    }
}

/// A session's person and what they may do.
#[derive(Debug, Clone)]
pub struct Session {
    /// Who is signed in.
    pub person: Person,
    /// Their permissions, as the API's token would give them.
    pub subject: Subject,
}

/// The address a request came from, as the HTTP edge determined it
/// (behind trusted proxies, the client's own): what sign-in attempts are
/// counted against besides the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddress(pub String);

/// One sign-in attempt.
#[derive(Debug, Clone, Copy)]
pub struct SignIn<'a> {
    /// The username typed.
    pub username: &'a str,
    /// The password typed.
    pub password: &'a str,
    /// Where the attempt came from.
    pub from: &'a ClientAddress,
}

/// A password chosen on a page: the new one twice, and for a change the
/// current one.
#[derive(Debug, Clone, Copy)]
pub struct PasswordChoice<'a> {
    /// The current password (a change), or `None` (a one-time link).
    pub current: Option<&'a str>,
    /// The new password.
    pub new: &'a str,
    /// The new password typed again.
    pub repeated: &'a str,
}

crate::service::area!(
    /// The use-cases of signing in to the web pages with a password.
    Accounts,
    accounts
);

impl Accounts<'_> {
    /// Checks a username and password and opens a session; its key, for
    /// the cookie. Every attempt counts against the account
    /// ([`ACCOUNT_ATTEMPTS`]) and the address ([`ADDRESS_ATTEMPTS`]);
    /// past either, [`ServiceError::TooManyAttempts`].
    pub fn sign_in(&self, attempt: SignIn<'_>) -> ServiceResult<String> {
        // No account has a longer name, and no password is longer: such
        // input is wrong at once, counted against the address only, and
        // never stored as a throttle key nor hashed.
        if attempt.username.chars().count() > NAME_MAX || attempt.password.len() > MAX_BYTES {
            self.count(&[ADDRESS_ATTEMPTS.key(address_key(attempt.from))])?;
            return Err(wrong_credentials());
        }
        self.count_attempt(attempt)?;
        let stored = self
            .store
            .read(|conn| users::password_of(conn, attempt.username))?
            .filter(|_| attempt.username != ANONYMOUS_USERNAME);
        let user_id = match stored {
            Some((id, Some(hash))) if verify(attempt.password, &hash) => id,
            Some((_, Some(_))) => return Err(wrong_credentials()),
            // As long as a check of a real hash, so that the time taken
            // does not tell whether the account exists.
            _ => {
                verify(attempt.password, DECOY_HASH);
                return Err(wrong_credentials());
            }
        };
        self.store.write(|conn| {
            users::set_last_login(conn, user_id, time::now())?;
            open_session(conn, user_id)
        })
    }

    /// The person and permissions of a session key, if it is open.
    pub fn session(&self, key: &str) -> ServiceResult<Option<Session>> {
        if key.is_empty() || key.len() > 128 {
            return Ok(None);
        }
        self.store.read(|conn| {
            let Some(row) = sessions::find(conn, &hash_token(key), time::now())? else {
                return Ok(None);
            };
            if !row.is_active {
                return Ok(None);
            }
            Ok(Some(Session {
                person: Person::from(&row),
                subject: subject_of_row(conn, &row)?,
            }))
        })
    }

    /// Ends a session.
    pub fn sign_out(&self, key: &str) -> ServiceResult<()> {
        self.store
            .quick(|conn| sessions::delete(conn, &hash_token(key)))?;
        Ok(())
    }

    /// Changes a signed-in person's password, ending all their sessions;
    /// the key of a new session for the one who changed it. The current
    /// password must be given and right.
    pub fn change_password(
        &self,
        user_id: i64,
        choice: PasswordChoice<'_>,
    ) -> ServiceResult<String> {
        let row = self.active(user_id)?;
        let stored = self
            .store
            .read(|conn| users::password_of(conn, &row.username))?
            .and_then(|(_, hash)| hash);
        let current_right = match (choice.current, stored) {
            (Some(current), Some(hash)) => verify(current, &hash),
            _ => false,
        };
        let mut errors = new_password(&row, choice).check();
        if !current_right {
            errors.push(
                "old_password",
                "password_incorrect",
                "Your old password was entered incorrectly. Please enter it again.",
            );
        }
        errors.into_result()?;
        self.replace_password(row.id, choice.new)
    }

    /// Makes a one-time link key for `username` to choose a password
    /// with, replacing the account's earlier link; for administrators
    /// (checked by the caller: the command line, the users page).
    pub fn password_link(&self, username: &str) -> ServiceResult<String> {
        let row = self
            .store
            .read(|conn| users::get_by_username(conn, username))?
            .filter(|row| row.is_active && !row.is_bot && row.username != ANONYMOUS_USERNAME)
            .ok_or_else(|| {
                ServiceError::invalid("username", "No active person has this username.")
            })?;
        let key = generate_token(KEY_PREFIX);
        let expires = time::now() + Duration::days(PASSWORD_LINK_DAYS);
        self.store.write(|conn| {
            sessions::replace_password_link(conn, &hash_token(&key), row.id, expires)
        })?;
        Ok(key)
    }

    /// A one-time password link for `username` made by `subject`, who
    /// must manage accounts (`user.edit`): what the users page shows.
    pub fn password_link_by(&self, subject: &Subject, username: &str) -> ServiceResult<String> {
        crate::access::require(
            subject,
            Permission::USER_EDIT,
            Target::Site,
            "You do not have permission to manage accounts.",
        )?;
        self.password_link(username)
    }

    /// The person a password link is for, while it works.
    pub fn link_owner(&self, key: &str) -> ServiceResult<Person> {
        Ok(Person::from(&self.link_account(key)?))
    }

    /// The active account a working password link is for.
    fn link_account(&self, key: &str) -> ServiceResult<UserRow> {
        self.store
            .read(|conn| sessions::password_link(conn, &hash_token(key), time::now()))?
            .filter(|row| row.is_active)
            .ok_or(ServiceError::NotFound)
    }

    /// Sets the password a link was made for and uses the link up,
    /// ending the account's other sessions; the key of a new session.
    pub fn set_password_with_link(
        &self,
        key: &str,
        choice: PasswordChoice<'_>,
    ) -> ServiceResult<String> {
        let row = self.link_account(key)?;
        new_password(&row, choice).check().into_result()?;
        let hash = hash_password(choice.new)?;
        self.store.write(|conn| {
            if !sessions::take_password_link(conn, &hash_token(key))? {
                return Err(ServiceError::NotFound);
            }
            users::set_password(conn, row.id, &hash)?;
            sessions::delete_of_user(conn, row.id)?;
            open_session(conn, row.id)
        })
    }

    /// Sets a password without asking for the current one (the command
    /// line's `createadmin --password`), checked by the same rules.
    pub fn set_password(&self, user_id: i64, password: &str) -> ServiceResult<()> {
        let row = self.active(user_id)?;
        let choice = PasswordChoice {
            current: None,
            new: password,
            repeated: password,
        };
        new_password(&row, choice).check().into_result()?;
        self.replace_password(row.id, password).map(drop)
    }

    /// Replaces a person's personal API tokens with a new one and returns
    /// it: Tolk keeps only a digest, so the token is shown once.
    pub fn renew_api_token(&self, user_id: i64) -> ServiceResult<String> {
        self.store.write(|conn| {
            tokens::delete_personal(conn, user_id)?;
            crate::auth::new_user_token(conn, user_id)
        })
    }

    /// The secret that signs the pages' cookies and forms, made on first use.
    pub fn site_secret(&self) -> ServiceResult<String> {
        let candidate = tolk_domain::hex::hex(&crate::ids::random_bytes::<32>());
        Ok(self
            .store
            .quick(|conn| site_secrets::get_or_insert(conn, "pages", &candidate))?)
    }

    /// Forgets ended sessions and expired password links.
    pub fn sweep(&self, now: NaiveDateTime) -> ServiceResult<usize> {
        Ok(self.store.quick(|conn| sessions::sweep(conn, now))?)
    }

    /// Counts one sign-in attempt against the account and the address.
    fn count_attempt(&self, attempt: SignIn<'_>) -> ServiceResult<()> {
        self.count(&[
            ACCOUNT_ATTEMPTS.key(format!("sign-in:user:{}", attempt.username.to_lowercase())),
            ADDRESS_ATTEMPTS.key(address_key(attempt.from)),
        ])
    }

    /// Counts one attempt against every key, or refuses it.
    fn count(&self, keys: &[RateKey]) -> ServiceResult<()> {
        let now = chrono::Utc::now().timestamp_micros();
        let count = self.rate_limits().count(keys, now)?;
        let Some(refused) = count.refused_by else {
            return Ok(());
        };
        let key = &keys[refused];
        let waited = count.used_before[refused] - key.window + key.interval;
        Err(ServiceError::TooManyAttempts {
            retry_after: u64::try_from(waited).map_or(1, |w| w.div_ceil(1_000_000).max(1)),
        })
    }

    /// An active account by id.
    fn active(&self, user_id: i64) -> ServiceResult<UserRow> {
        self.store
            .read(|conn| users::get(conn, user_id))?
            .filter(|row| row.is_active)
            .ok_or(ServiceError::NotFound)
    }

    /// Stores a new password, ends every session of the account and opens one.
    fn replace_password(&self, user_id: i64, password: &str) -> ServiceResult<String> {
        let hash = hash_password(password)?;
        self.store.write(|conn| {
            users::set_password(conn, user_id, &hash)?;
            sessions::delete_of_user(conn, user_id)?;
            open_session(conn, user_id)
        })
    }
}

/// The rules a new password of `row` must meet.
fn new_password<'a>(row: &'a UserRow, choice: PasswordChoice<'a>) -> NewPassword<'a> {
    NewPassword {
        password: choice.new,
        repeated: choice.repeated,
        username: &row.username,
        email: &row.email,
    }
}

/// Opens a session of `user_id`; its key.
fn open_session(conn: &mut DbConnection, user_id: i64) -> ServiceResult<String> {
    let key = generate_token(KEY_PREFIX);
    let now = time::now();
    sessions::insert(
        conn,
        &hash_token(&key),
        user_id,
        now,
        now + Duration::days(SESSION_DAYS),
    )?;
    Ok(key)
}

/// The throttle key of an address.
fn address_key(from: &ClientAddress) -> String {
    format!("sign-in:address:{}", from.0)
}

fn wrong_credentials() -> ServiceError {
    ServiceError::AuthenticationFailed(WRONG_CREDENTIALS.into())
}

/// A hash of no one's password, checked when the username is unknown.
const DECOY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$dG9say1kZWNveS1zYWx0$Yk3E8BJ3aNDyzHnB5vJQ3oCkAnVwB4V0tL2d9m3y0o0";

/// The Argon2id hash of a password (PHC string), with a random salt.
fn hash_password(password: &str) -> ServiceResult<String> {
    let salt: [u8; 16] = crate::ids::random_bytes();
    argon2::Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| {
            ServiceError::Validation({
                let mut errors = tolk_domain::validation::FieldErrors::default();
                errors.invalid(tolk_domain::password::NEW_FIELD, &e.to_string());
                errors
            })
        })
}

/// Whether `password` is the one `hash` was made from; a hash that does
/// not read (another algorithm) matches nothing.
fn verify(password: &str, hash: &str) -> bool {
    argon2::Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_and_verify() {
        let hash = hash_password("correct horse 42").unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(verify("correct horse 42", &hash));
        assert!(!verify("correct horse 43", &hash));
        assert_ne!(hash, hash_password("correct horse 42").unwrap(), "salted");
    }

    #[test]
    fn the_decoy_hash_reads_and_matches_nothing_typed() {
        assert!(argon2::password_hash::phc::PasswordHash::new(DECOY_HASH).is_ok());
        assert!(!verify("", DECOY_HASH));
    }

    #[test]
    fn other_algorithms_match_nothing() {
        assert!(!verify("x", "pbkdf2_sha256$600000$salt$hash"));
    }
}
