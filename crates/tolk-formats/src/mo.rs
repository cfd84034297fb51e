//! Compiled gettext catalogues (`mo`): reading both byte orders and
//! writing little-endian files. An unchanged file is written back as read;
//! after an edit the whole catalogue is written anew, sorted by `msgid`
//! as gettext expects (without the optional hash table, which readers do
//! not need).

use encoding_rs::{Encoding, UTF_8};

use crate::error::{FormatError, cannot_add, ensure_new, stateless_forms, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};

const MAGIC: u32 = 0x9504_12de;
/// Separates context from `msgid`.
pub(crate) const CONTEXT_SEPARATOR: char = '\u{4}';

/// One message of a catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Message {
    context: Option<String>,
    msgid: String,
    msgid_plural: Option<String>,
    msgstr: Vec<String>,
}

impl Message {
    /// The message of a unit.
    fn of(unit: &Unit) -> Message {
        Message {
            context: (!unit.context.is_empty()).then(|| unit.context.clone()),
            msgid: unit.source.first().cloned().unwrap_or_default(),
            msgid_plural: unit.source.get(1).cloned(),
            msgstr: unit.target.clone(),
        }
    }
}

/// A parsed MO file.
#[derive(Debug, Clone)]
pub struct MoFile {
    name: String,
    source: Vec<u8>,
    /// The header (`msgid ""`) translation.
    header: String,
    messages: Vec<Message>,
    edited: bool,
}

fn error(name: &str, message: impl Into<String>) -> FormatError {
    FormatError::new(name, 0, message)
}

fn charset(header: &str) -> &'static Encoding {
    header
        .lines()
        .find_map(|l| l.split_once("charset=").map(|(_, c)| c.trim()))
        .and_then(|c| Encoding::for_label(c.as_bytes()))
        .unwrap_or(UTF_8)
}

impl MoFile {
    /// Parses a MO file; `name` is used in error messages, which give byte offsets.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<MoFile, FormatError> {
        let word = |offset: usize, big: bool| -> Result<u32, FormatError> {
            let raw: [u8; 4] = bytes
                .get(offset..offset + 4)
                .and_then(|s| s.try_into().ok())
                .ok_or_else(|| {
                    error(
                        name,
                        format!("the file ends at byte {} inside its tables", bytes.len()),
                    )
                })?;
            Ok(if big {
                u32::from_be_bytes(raw)
            } else {
                u32::from_le_bytes(raw)
            })
        };
        let big = match word(0, false)? {
            MAGIC => false,
            m if m.swap_bytes() == MAGIC => true,
            _ => {
                return Err(error(
                    name,
                    "not a gettext MO file (bad magic number at byte 0)",
                ));
            }
        };
        let revision = word(4, big)? >> 16;
        if revision > 1 {
            return Err(error(
                name,
                format!("unsupported MO major revision {revision}"),
            ));
        }
        let count = word(8, big)? as usize;
        let originals = word(12, big)? as usize;
        let translations = word(16, big)? as usize;
        if count > bytes.len() / 8 {
            return Err(error(
                name,
                format!("{count} messages cannot fit in {} bytes", bytes.len()),
            ));
        }
        let string = |table: usize, index: usize| -> Result<&[u8], FormatError> {
            let at = table + index * 8;
            let length = word(at, big)? as usize;
            let offset = word(at + 4, big)? as usize;
            bytes
                .get(offset..offset.saturating_add(length))
                .ok_or_else(|| {
                    error(
                        name,
                        format!("string {index} at byte {offset} runs past the end of the file"),
                    )
                })
        };
        let mut raw = Vec::with_capacity(count);
        for index in 0..count {
            raw.push((string(originals, index)?, string(translations, index)?));
        }
        let header_bytes = raw
            .iter()
            .find(|(id, _)| id.is_empty())
            .map(|(_, s)| *s)
            .unwrap_or_default();
        let encoding = charset(&String::from_utf8_lossy(header_bytes));
        let decode = |b: &[u8], index: usize| -> Result<String, FormatError> {
            encoding
                .decode_without_bom_handling_and_without_replacement(b)
                .map(|s| s.into_owned())
                .ok_or_else(|| {
                    error(
                        name,
                        format!("string {index} is not valid {}", encoding.name()),
                    )
                })
        };
        let mut header = String::new();
        let mut messages = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (index, (id, text)) in raw.into_iter().enumerate() {
            let id = decode(id, index)?;
            let text = decode(text, index)?;
            if id.is_empty() {
                header = text;
                continue;
            }
            let key = id.split('\0').next().unwrap_or_default().to_owned();
            if !seen.insert(key) {
                return Err(FormatError::new(
                    name,
                    0,
                    format!("message {index} repeats the key of an earlier one"),
                ));
            }
            let (context, id) = match id.split_once(CONTEXT_SEPARATOR) {
                Some((c, i)) => (Some(c.to_owned()), i.to_owned()),
                None => (None, id),
            };
            let (msgid, msgid_plural) = match id.split_once('\0') {
                Some((s, p)) => (s.to_owned(), Some(p.to_owned())),
                None => (id, None),
            };
            messages.push(Message {
                context,
                msgid,
                msgid_plural,
                msgstr: text.split('\0').map(str::to_owned).collect(),
            });
        }
        Ok(MoFile {
            name: name.to_owned(),
            source: bytes.to_vec(),
            header,
            messages,
            edited: false,
        })
    }

    /// A new catalogue holding the translated units, for converting other files to MO.
    pub fn from_units(name: &str, header: &str, units: &[Unit]) -> MoFile {
        let messages = units
            .iter()
            .filter(|u| u.state != State::Fuzzy && u.target.iter().any(|t| !t.is_empty()))
            .map(Message::of)
            .collect();
        MoFile {
            name: name.to_owned(),
            source: Vec::new(),
            header: header.to_owned(),
            messages,
            edited: true,
        }
    }

    /// The header (the translation of the empty `msgid`).
    pub fn header_text(&self) -> &str {
        &self.header
    }
}

impl TranslationFile for MoFile {
    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, false)?;
        if unit.state == State::Fuzzy || unit.target.iter().all(String::is_empty) {
            return Err(cannot_add(
                &self.name,
                "strings that are not translated to MO files",
            ));
        }
        self.messages.push(Message::of(unit));
        self.edited = true;
        Ok(())
    }

    fn units(&self) -> Vec<Unit> {
        self.messages
            .iter()
            .map(|m| {
                let mut source = vec![m.msgid.clone()];
                source.extend(m.msgid_plural.clone());
                Unit::new(
                    m.context.clone().unwrap_or_default(),
                    source,
                    m.msgstr.clone(),
                )
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let message = unit_at(&mut self.messages, index, &self.name)?;
        stateless_forms(
            &self.name,
            0,
            "MO",
            fuzzy,
            target.len(),
            message.msgstr.len(),
        )?;
        message.msgstr = target.to_vec();
        self.edited = true;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        if !self.edited {
            return Ok(self.source.clone());
        }
        let mut pairs: Vec<(String, String)> = vec![(String::new(), self.header.clone())];
        for m in &self.messages {
            let mut id = match &m.context {
                Some(c) => format!("{c}{CONTEXT_SEPARATOR}{}", m.msgid),
                None => m.msgid.clone(),
            };
            if let Some(plural) = &m.msgid_plural {
                id.push('\0');
                id.push_str(plural);
            }
            pairs.push((id, m.msgstr.join("\0")));
        }
        pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        Ok(write(&pairs))
    }
}

/// Lays out a catalogue: header, the two string tables, then the strings.
fn write(pairs: &[(String, String)]) -> Vec<u8> {
    let count = pairs.len();
    let originals = 28;
    let translations = originals + count * 8;
    let data_offset = translations + count * 8;
    let mut out = Vec::new();
    let push = |out: &mut Vec<u8>, value: usize| {
        out.extend_from_slice(&u32::try_from(value).unwrap_or(u32::MAX).to_le_bytes());
    };
    for value in [
        MAGIC as usize,
        0,
        count,
        originals,
        translations,
        0,
        data_offset,
    ] {
        push(&mut out, value);
    }
    let mut data = Vec::new();
    let mut tables = [Vec::new(), Vec::new()];
    for (side, table) in tables.iter_mut().enumerate() {
        for pair in pairs {
            let text = if side == 0 { &pair.0 } else { &pair.1 };
            push(table, text.len());
            push(table, data_offset + data.len());
            data.extend_from_slice(text.as_bytes());
            data.push(0);
        }
    }
    out.extend_from_slice(&tables[0]);
    out.extend_from_slice(&tables[1]);
    out.extend_from_slice(&data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TranslationFile;

    fn unit(context: &str, source: &[&str], target: &[&str]) -> Unit {
        Unit::new(
            context.into(),
            source.iter().map(|s| (*s).to_owned()).collect(),
            target.iter().map(|s| (*s).to_owned()).collect(),
        )
    }

    #[test]
    fn writes_and_reads_back() {
        let units = vec![
            unit("", &["zebra"], &["zebra-cs"]),
            unit("menu", &["Open"], &["Otevřít"]),
            unit("", &["file", "files"], &["soubor", "soubory", "souborů"]),
        ];
        let header = "Content-Type: text/plain; charset=UTF-8\n";
        let bytes = MoFile::from_units("t.mo", header, &units)
            .to_bytes()
            .unwrap();
        let mo = MoFile::parse("t.mo", &bytes).unwrap();
        let read = mo.units();
        assert_eq!(read.len(), 3);
        assert_eq!(read[0].source, vec!["file", "files"], "sorted by msgid");
        assert_eq!(read[0].target, vec!["soubor", "soubory", "souborů"]);
        assert_eq!(read[1].context, "menu");
        assert_eq!(
            mo.to_bytes().unwrap(),
            bytes,
            "unchanged files are written as read"
        );
    }

    #[test]
    fn rejects_damaged_files_without_panicking() {
        let good = MoFile::from_units("t.mo", "", &[unit("", &["a"], &["b"])])
            .to_bytes()
            .unwrap();
        assert!(
            MoFile::parse("t.mo", b"no")
                .unwrap_err()
                .message
                .contains("inside its tables")
        );
        assert!(
            MoFile::parse("t.mo", b"nope")
                .unwrap_err()
                .message
                .contains("magic")
        );
        assert!(
            MoFile::parse("t.mo", &[0u8; 28])
                .unwrap_err()
                .message
                .contains("magic")
        );
        for cut in 0..good.len() {
            let _ = MoFile::parse("t.mo", &good[..cut]);
        }
        let mut wild = good.clone();
        wild[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(MoFile::parse("t.mo", &wild).is_err());
        let mut state: u64 = 3;
        for _ in 0..5_000 {
            let mut damaged = good.clone();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let at = (state >> 33) as usize % damaged.len();
            damaged[at] = (state >> 20) as u8;
            let _ = MoFile::parse("t.mo", &damaged);
        }
    }
}
