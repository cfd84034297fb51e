//! Bytes written as lower-case hexadecimal, as digests, secrets and ids
//! are stored and shown.

/// The digits, by value.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `bytes` as lower-case hexadecimal, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::hex;

    #[test]
    fn two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[]), "");
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff, 0x12]), "000fa0ff12");
    }
}
