//! Signatures with the site's secret: of the session cookie (a forged or
//! altered cookie is refused before the database is asked) and of the
//! forms' anti-forgery tokens.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Signs and checks values with the site's secret.
#[derive(Clone)]
pub struct Signer {
    secret: Vec<u8>,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer(…)")
    }
}

impl Signer {
    /// A signer with the site's secret.
    pub fn new(secret: &[u8]) -> Signer {
        Signer {
            secret: secret.to_vec(),
        }
    }

    /// The signature, in hex, of the parts for one purpose: parts are
    /// joined with a separator they cannot hold (the purpose names what
    /// the signature is good for, so that one kind never passes for another).
    pub fn signature(&self, purpose: &str, parts: &[&str]) -> String {
        #[expect(clippy::expect_used, reason = "HMAC takes a key of any length")]
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("any key length");
        mac.update(purpose.as_bytes());
        for part in parts {
            mac.update(b"\0");
            mac.update(part.as_bytes());
        }
        tolk_domain::hex::hex(&mac.finalize().into_bytes())
    }

    /// `value.signature`, for a cookie.
    pub fn sign(&self, purpose: &str, value: &str) -> String {
        format!("{value}.{}", self.signature(purpose, &[value]))
    }

    /// The value of a signed `value.signature`, when the signature is right.
    pub fn unsign<'a>(&self, purpose: &str, signed: &'a str) -> Option<&'a str> {
        let (value, signature) = signed.rsplit_once('.')?;
        let expected = self.signature(purpose, &[value]);
        constant_time_eq::constant_time_eq(expected.as_bytes(), signature.as_bytes())
            .then_some(value)
    }

    /// Whether `given` is the signature of the parts for the purpose.
    pub fn verify(&self, purpose: &str, parts: &[&str], given: &str) -> bool {
        let expected = self.signature(purpose, parts);
        constant_time_eq::constant_time_eq(expected.as_bytes(), given.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_value_reads_back_only_unaltered() {
        let signer = Signer::new(b"secret");
        let signed = signer.sign("session", "abc");
        assert_eq!(signer.unsign("session", &signed), Some("abc"));
        assert_eq!(signer.unsign("csrf", &signed), None, "another purpose");
        assert_eq!(Signer::new(b"other").unsign("session", &signed), None);
        assert_eq!(
            signer.unsign("session", &signed.replace("abc", "abd")),
            None
        );
        assert_eq!(signer.unsign("session", "abc"), None);
    }

    #[test]
    fn parts_cannot_shift_into_each_other() {
        let signer = Signer::new(b"secret");
        assert_ne!(
            signer.signature("csrf", &["ab", "c"]),
            signer.signature("csrf", &["a", "bc"])
        );
    }
}
