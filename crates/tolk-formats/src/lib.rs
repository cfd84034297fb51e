//! Translation files for Tolk, usable on their own: the registry of formats
//! (named with Weblate's format ids) and codecs that read files into units
//! and write them back without disturbing what was not changed.
//!
//! This crate needs no other Tolk crate.

pub mod cleanup;
mod codecs;
mod document;
mod edits;
mod error;
mod keyed;
mod merge;
mod unit;
mod xml;

pub mod android;
pub mod csv;
pub mod gettext_build;
pub mod html;
pub mod json;
pub mod markdown;
pub mod mo;
mod new_file;
pub mod php;
pub mod po;
pub mod properties;
pub mod read_only;
pub mod registry;
pub mod resx;
pub mod stats;
pub mod strings;
pub mod stringsdict;
pub mod tbx;
mod template;
pub mod tmx;
mod translation_file;
pub mod ts;
pub mod xliff;
pub mod xlsx;
pub mod yaml;

pub use codecs::{
    CODECS, Codec, Reader, Writer, can_remove, key_text, parse, readable, uploadable, writable,
    write_new,
};
pub use document::{DocumentFile, Paired};
pub use error::FormatError;
pub use keyed::KeyedXmlFile;
pub use merge::{MergeError, merge_units};
pub use new_file::{PluralRule, new_translation};
pub use registry::{FORMATS, FormatInfo, Linguality, by_content, find, is_document};
pub use template::{parse_document, with_document, with_intermediate, with_template};
pub use translation_file::TranslationFile;
pub use unit::{State, Unit};
