//! API tokens: minting, hashing and authenticating callers.

use sha2::{Digest, Sha256};
use tolk_domain::permission::Subject;
use tolk_store::{DbConnection, grants, time, tokens};

use crate::{Service, ServiceError, ServiceResult};

/// Prefix of personal tokens.
pub const USER_TOKEN_PREFIX: &str = "wlu_";
/// Prefix of project tokens.
pub const PROJECT_TOKEN_PREFIX: &str = "wlp_";
/// Random characters after the prefix.
const TOKEN_RANDOM_LEN: usize = 36;
/// Longest key accepted from a client.
const MAX_KEY_LEN: usize = 128;

/// A new random token with the given prefix: 36 characters from `[A-Za-z0-9]`.
pub fn generate_token(prefix: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut token = String::with_capacity(prefix.len() + TOKEN_RANDOM_LEN);
    token.push_str(prefix);
    while token.len() < prefix.len() + TOKEN_RANDOM_LEN {
        let buf: [u8; 64] = crate::ids::random_bytes();
        // 248 is the largest multiple of 62 below 256: rejecting the rest keeps every character equally likely.
        for byte in buf.iter().filter(|b| **b < 248) {
            if token.len() == prefix.len() + TOKEN_RANDOM_LEN {
                break;
            }
            token.push(char::from(ALPHABET[usize::from(*byte) % ALPHABET.len()]));
        }
    }
    token
}

/// The stored form of a token: its SHA-256 digest in hex. Tokens carry
/// 214 bits of randomness, so a fast digest is enough.
pub fn hash_token(token: &str) -> String {
    tolk_domain::hex::hex(&Sha256::digest(token.as_bytes()))
}

/// Stores a new personal token of a user; its key.
pub(crate) fn new_user_token(conn: &mut DbConnection, user_id: i64) -> ServiceResult<String> {
    let key = generate_token(USER_TOKEN_PREFIX);
    let new = tokens::NewToken {
        user_id,
        project_id: None,
        key_hash: &hash_token(&key),
        created: time::now(),
        expires: None,
    };
    tokens::insert(conn, &new)?;
    Ok(key)
}

/// What an account may do: its teams' grants (none read for a superuser,
/// who passes every check).
pub(crate) fn subject_of_row(
    conn: &mut DbConnection,
    user: &tolk_store::users::UserRow,
) -> ServiceResult<Subject> {
    let grants = if user.is_superuser {
        Vec::new()
    } else {
        grants::of_user(conn, user.id)?
    };
    Ok(Subject::User {
        id: user.id,
        superuser: user.is_superuser,
        grants,
    })
}

crate::service::area!(
    /// The use-cases of signing in: who a token names, the anonymous visitor,
    /// issuing a person's token, creating the first administrator.
    Auth,
    auth
);

impl Auth<'_> {
    /// Resolves a token key to the caller it belongs to.
    pub fn authenticate(&self, key: &str) -> ServiceResult<Subject> {
        let invalid = || ServiceError::AuthenticationFailed("Invalid token.".into());
        if key.is_empty() || key.len() > MAX_KEY_LEN {
            return Err(invalid());
        }
        let hash = hash_token(key);
        let now = time::now();
        // A caller kept under a trusted generation needs no connection.
        if let Some(subject) = self
            .cache
            .trusted()
            .and_then(|generation| self.cache.caller(generation, &hash, now))
        {
            return Ok(subject);
        }
        self.store.read(|conn| {
            let generation = self.cache.sync(conn)?;
            if let Some(subject) = self.cache.caller(generation, &hash, now) {
                return Ok(subject);
            }
            let Some(found) = tokens::find(conn, &hash, now)? else {
                return Err(invalid());
            };
            if !constant_time_eq::constant_time_eq(found.key_hash.as_bytes(), hash.as_bytes()) {
                return Err(invalid());
            }
            let user = found.user;
            if !user.is_active {
                return Err(ServiceError::AuthenticationFailed(
                    "User inactive or deleted.".into(),
                ));
            }
            let subject = subject_of_row(conn, &user)?;
            self.cache
                .keep_caller(generation, hash.clone(), subject.clone(), found.expires);
            Ok(subject)
        })
    }

    /// The anonymous caller, with the grants of the teams of the account
    /// standing for anonymous callers.
    pub fn anonymous(&self) -> ServiceResult<Subject> {
        if let Some(subject) = self
            .cache
            .trusted()
            .and_then(|generation| self.cache.kept_anonymous(generation))
        {
            return Ok(subject);
        }
        self.store.read(|conn| {
            let generation = self.cache.sync(conn)?;
            self.cache.anonymous(generation, || {
                Ok(Subject::anonymous(grants::of_anonymous(conn)?))
            })
        })
    }

    /// Mints a new personal token for a user and returns it; only its hash is kept.
    pub fn issue_user_token(&self, user_id: i64) -> ServiceResult<String> {
        self.store.write(|conn| new_user_token(conn, user_id))
    }
}

impl Service {
    /// The caller a task queued by `user_id` acts as, with the grants it
    /// holds now (anonymous callers' for none); an account deactivated
    /// meanwhile may do nothing more.
    pub(crate) fn subject_of(&self, user_id: Option<i64>) -> ServiceResult<Subject> {
        let Some(id) = user_id else {
            return self.auth().anonymous();
        };
        self.store.read(|conn| {
            let user = tolk_store::users::get_by_ids(conn, &[id])?
                .pop()
                .filter(|u| u.is_active)
                .ok_or_else(|| {
                    ServiceError::AuthenticationFailed("User inactive or deleted.".into())
                })?;
            subject_of_row(conn, &user)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_the_weblate_shape() {
        let token = generate_token(USER_TOKEN_PREFIX);
        assert_eq!(token.len(), 40);
        assert!(token.starts_with("wlu_"));
        assert!(token[4..].chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(token, generate_token(USER_TOKEN_PREFIX));
        assert!(generate_token(PROJECT_TOKEN_PREFIX).starts_with("wlp_"));
    }

    #[test]
    fn hashes_are_stable_hex() {
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
