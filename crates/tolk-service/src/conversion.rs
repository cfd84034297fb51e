//! Converted downloads of a translation (§9.6 `?format=`): its units as the
//! database holds them, in file order, written by a codec of another
//! format. Pending edits are in the database already, so nothing is
//! committed first.

use tolk_domain::unit::{PLURAL_SEPARATOR, UnitState, split_plurals};
use tolk_formats::{State, Unit};
use tolk_store::units::ExportRow;

use crate::translations::TranslationView;

/// A download converter (Weblate's ids, §29.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Converter {
    /// The id `format=` names.
    pub id: &'static str,
    /// The codec that writes it.
    codec: &'static str,
    /// Its media type.
    pub mime: &'static str,
    /// The extension of its file name.
    pub extension: &'static str,
    /// What it can convert.
    fits: Fits,
    /// How texts are made safe for it.
    filter: Filter,
}

/// Which translations a converter handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fits {
    /// Every translation.
    Any,
    /// Translations of monolingual components (keyed by the template).
    Monolingual,
    /// Translations of gettext PO components.
    Gettext,
}

/// What a converter does to every text it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filter {
    /// Nothing.
    None,
    /// Removes the control characters XML cannot hold.
    Xml,
    /// Starts a text a spreadsheet would take for a formula with `'`.
    Formulas,
}

/// Every download converter, in Weblate's order.
#[rustfmt::skip]
pub const CONVERTERS: &[Converter] = &[
    Converter { id: "po", codec: "po", mime: "text/x-po", extension: "po", fits: Fits::Any, filter: Filter::None },
    Converter { id: "xliff", codec: "xliff", mime: "application/x-xliff+xml", extension: "xlf", fits: Fits::Any, filter: Filter::Xml },
    Converter { id: "xliff11", codec: "xliff11", mime: "application/x-xliff+xml", extension: "xlf", fits: Fits::Any, filter: Filter::Xml },
    Converter { id: "xliff12", codec: "xliff12", mime: "application/x-xliff+xml", extension: "xlf", fits: Fits::Any, filter: Filter::Xml },
    Converter { id: "tbx", codec: "tbx", mime: "application/x-tbx", extension: "tbx", fits: Fits::Any, filter: Filter::Xml },
    Converter { id: "tmx", codec: "tmx", mime: "application/x-tmx", extension: "tmx", fits: Fits::Any, filter: Filter::Xml },
    Converter { id: "mo", codec: "mo", mime: "application/x-gettext-catalog", extension: "mo", fits: Fits::Gettext, filter: Filter::None },
    Converter { id: "csv", codec: "csv", mime: "text/csv", extension: "csv", fits: Fits::Any, filter: Filter::Formulas },
    Converter { id: "csv-multi", codec: "csv-multi", mime: "text/csv", extension: "csv", fits: Fits::Any, filter: Filter::Formulas },
    Converter { id: "xlsx", codec: "xlsx", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extension: "xlsx", fits: Fits::Any, filter: Filter::None },
    Converter { id: "json", codec: "json", mime: "application/json", extension: "json", fits: Fits::Monolingual, filter: Filter::None },
    Converter { id: "json-nested", codec: "json-nested", mime: "application/json", extension: "json", fits: Fits::Monolingual, filter: Filter::None },
    Converter { id: "aresource", codec: "aresource", mime: "application/xml", extension: "xml", fits: Fits::Monolingual, filter: Filter::Xml },
    Converter { id: "strings", codec: "strings", mime: "text/plain", extension: "strings", fits: Fits::Monolingual, filter: Filter::None },
];

/// The converter of `id`.
pub fn converter(id: &str) -> Option<&'static Converter> {
    CONVERTERS.iter().find(|c| c.id == id)
}

/// Why a translation cannot be converted.
pub(crate) const INCOMPATIBLE: &str = "File format is not compatible with this translation";

impl Converter {
    /// Whether the converter handles translations of `view`'s component.
    pub(crate) fn fits(&self, view: &TranslationView) -> bool {
        let settings = &view.component.component.settings;
        match self.fits {
            Fits::Any => true,
            Fits::Monolingual => !settings.template.is_empty(),
            Fits::Gettext => settings.file_format == "po",
        }
    }

    /// The converted file of `units` (a translation's, in file order); an
    /// error names what the format cannot hold.
    pub(crate) fn write(
        &self,
        view: &TranslationView,
        name: &str,
        units: Vec<ExportRow>,
    ) -> Result<Vec<u8>, String> {
        let monolingual = self.fits == Fits::Monolingual;
        let forms = usize::try_from(view.language.plural.number.max(1)).unwrap_or(1);
        let format = &view.component.component.settings.file_format;
        let units: Vec<Unit> = units
            .into_iter()
            .filter(|u| self.fits != Fits::Gettext || is_translated(u))
            .map(|mut u| {
                u.context = tolk_formats::key_text(format, u.context);
                self.unit(u, monolingual, forms)
            })
            .collect();
        tolk_formats::write_new(self.codec, name, Some(&header(view)), &units)
            .map_err(|e| e.to_string())
    }

    /// A stored unit as the codec takes it: a monolingual converter keys
    /// it by its context; a plural has the language's `forms`, as the API
    /// shows it.
    fn unit(&self, row: ExportRow, monolingual: bool, forms: usize) -> Unit {
        let plural = row.source.contains(PLURAL_SEPARATOR);
        let context = self.filtered(row.context);
        let source = if monolingual {
            vec![context.clone()]
        } else {
            self.forms(row.source)
        };
        let mut target = self.forms(row.target);
        if plural {
            target.resize(forms, String::new());
        }
        let developer_notes = [row.note, row.explanation]
            .into_iter()
            .filter(|n| !n.is_empty())
            .map(|n| self.filtered(n))
            .collect();
        Unit {
            context,
            source,
            target,
            state: file_state(row.state),
            developer_notes,
            translator_notes: Vec::new(),
            locations: row
                .location
                .split([',', ' ', '\n'])
                .filter(|l| !l.is_empty())
                .map(|l| self.filtered(l.to_owned()))
                .collect(),
            flags: row
                .flags
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty() && *f != "fuzzy")
                .map(str::to_owned)
                .collect(),
            previous_source: Some(row.previous_source).filter(|p| !p.is_empty()),
        }
    }

    /// The plural forms of a stored text, each as the converter writes it;
    /// a text without plurals is taken over without a copy.
    fn forms(&self, joined: String) -> Vec<String> {
        if joined.contains(PLURAL_SEPARATOR) {
            split_plurals(&joined)
                .into_iter()
                .map(|f| self.filtered(f))
                .collect()
        } else {
            vec![self.filtered(joined)]
        }
    }

    /// `value` as the converter writes it.
    fn filtered(&self, value: String) -> String {
        match self.filter {
            Filter::None => value,
            Filter::Xml if value.chars().any(not_in_xml) => {
                value.chars().filter(|c| !not_in_xml(*c)).collect()
            }
            Filter::Xml => value,
            Filter::Formulas if value.starts_with(['=', '+', '-', '@', '|', '%']) => {
                format!("'{value}")
            }
            Filter::Formulas => value,
        }
    }
}

/// Whether XML cannot hold `c` (control characters but tab and newlines).
fn not_in_xml(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

fn is_translated(row: &ExportRow) -> bool {
    UnitState::from_code(row.state).is_some_and(UnitState::is_translated)
}

/// The state a file records for a stored state.
fn file_state(code: i32) -> State {
    match UnitState::from_code(code) {
        Some(UnitState::Approved) => State::Approved,
        Some(UnitState::Translated) => State::Translated,
        Some(UnitState::ReadOnly) => State::ReadOnly,
        Some(UnitState::Fuzzy | UnitState::NeedsRewriting | UnitState::NeedsChecking) => {
            State::Fuzzy
        }
        Some(UnitState::Empty) | None => State::Untranslated,
    }
}

/// The gettext header of a converted file: the languages, the plural
/// rule, and who wrote it.
fn header(view: &TranslationView) -> String {
    let (language, plural) = (&view.language.row, &view.language.plural);
    let project = &view.component.project.settings;
    format!(
        "Project-Id-Version: {} ({})\nLanguage-Team: {}\nLanguage: {}\nMIME-Version: 1.0\n\
         Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\
         Plural-Forms: nplurals={}; plural={};\nX-Generator: Tolk {}\nX-Source-Language: {}\n",
        language.name,
        project.name,
        language.name,
        language.code,
        plural.number,
        plural.formula,
        env!("CARGO_PKG_VERSION"),
        view.component.source_language.row.code,
    )
}
