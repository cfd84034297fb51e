//! Taking a string out of a JSON document: the object member that holds
//! it goes with the comma that separated it from its neighbours, so the
//! document stays valid and the other members keep their layout.

use std::ops::Range;

/// The bytes to cut from `text` to remove the object member whose value
/// token is at `value`: from its key to the next member (or from the comma
/// after the previous member, for the last one; its whole line, for the
/// only one). `None` when the value is not a member's (an array item).
pub(super) fn member_span(text: &str, value: Range<usize>) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let before = |mut at: usize| {
        while at > 0 && bytes[at - 1].is_ascii_whitespace() {
            at -= 1;
        }
        at
    };
    let after = |mut at: usize| {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    };
    let colon = before(value.start).checked_sub(1)?;
    if bytes[colon] != b':' {
        return None;
    }
    let closing = before(colon).checked_sub(1)?;
    if bytes[closing] != b'"' {
        return None;
    }
    // A key holds no unescaped quote: the first one back is its opening.
    let mut opening = closing;
    loop {
        opening = text[..opening].rfind('"')?;
        let backslashes = bytes[..opening]
            .iter()
            .rev()
            .take_while(|b| **b == b'\\')
            .count();
        if backslashes % 2 == 0 {
            break;
        }
    }
    let next = after(value.end);
    if bytes.get(next) == Some(&b',') {
        return Some(opening..after(next + 1));
    }
    let previous = before(opening);
    if previous > 0 && bytes[previous - 1] == b',' {
        return Some(previous - 1..value.end);
    }
    Some(crate::edits::removal_span(text, opening..value.end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, value: &str) -> String {
        let start = text.find(value).unwrap();
        let span = member_span(text, start..start + value.len()).unwrap();
        let mut out = text.to_owned();
        out.replace_range(span, "");
        out
    }

    #[test]
    fn members_leave_with_their_comma() {
        let text = "{\n  \"a\": \"1\",\n  \"b\\\"\": \"2\",\n  \"c\": \"3\"\n}\n";
        assert_eq!(
            cut(text, "\"1\""),
            "{\n  \"b\\\"\": \"2\",\n  \"c\": \"3\"\n}\n"
        );
        assert_eq!(
            cut(text, "\"2\""),
            "{\n  \"a\": \"1\",\n  \"c\": \"3\"\n}\n"
        );
        assert_eq!(
            cut(text, "\"3\""),
            "{\n  \"a\": \"1\",\n  \"b\\\"\": \"2\"\n}\n"
        );
        assert_eq!(
            cut("{\n  \"g\": {\n    \"only\": \"x\"\n  }\n}", "\"x\""),
            "{\n  \"g\": {\n  }\n}"
        );
        assert_eq!(cut("{\"a\": \"1\"}", "\"1\""), "{}");
        let array = "{\"a\": [\"1\", \"2\"]}";
        assert_eq!(member_span(array, 12..15), None);
    }
}
