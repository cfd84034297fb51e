//! Add-ons (§14, §29.12): the catalogue of Weblate's add-on names, which
//! of them Tolk runs, where each may be installed, and the checks on
//! their configuration.
//!
//! Tolk runs the add-ons that need neither the network nor outside
//! programs; every other name Weblate knows is refused at installation
//! with the reason, so a client learns at once instead of finding an
//! add-on that never acts.

use serde_json::{Map, Value};

use crate::json::Json;
use crate::validation::FieldErrors;

/// A request body installing an add-on.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AddonCreate {
    /// The add-on's id (§29.12), e.g. `weblate.gettext.linguas`.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100))]
    pub name: String,
    /// Its settings, an object; keys the add-on does not define are kept as given.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub configuration: Option<Json>,
}

/// A request body changing an installed add-on (PUT and PATCH): only its
/// configuration may change.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AddonChange {
    /// The add-on's id; when given, it must be the installed one's.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100))]
    pub name: Option<String>,
    /// Its new settings, an object (replacing the old ones).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub configuration: Option<Json>,
}

/// One configuration key of an add-on and what it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The key.
    pub name: &'static str,
    /// What its value must be.
    pub kind: FieldKind,
}

/// What a configuration value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// `true` or `false`.
    Boolean,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in this range.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// Text up to this many characters.
    Text(usize),
}

/// Which components an add-on suits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compat {
    /// Every component.
    Any,
    /// Components in one of these formats.
    Formats(&'static [&'static str]),
    /// Monolingual components (with a template) in a format whose files
    /// can lose strings.
    Monolingual,
    /// Gettext components with a POT file as `new_base`.
    GettextWithBase,
}

/// Whether Tolk runs an add-on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// It runs on components that suit it.
    Runs(Compat),
    /// Refused at installation, for this reason.
    Refused(&'static str),
}

/// An add-on Weblate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddonKind {
    /// Its id, e.g. `weblate.gettext.linguas`.
    pub id: &'static str,
    /// Its name as Weblate shows it (used in add-on commit messages).
    pub verbose: &'static str,
    /// Installable on a component only, never on a whole project.
    pub component_only: bool,
    /// Whether and where Tolk runs it.
    pub support: Support,
    /// Its configuration keys (only for add-ons Tolk runs).
    pub fields: &'static [Field],
}

/// Formats of gettext files.
const GETTEXT: &[&str] = &["po", "po-mono"];
/// Formats written as JSON.
const JSON: &[&str] = &[
    "json",
    "json-nested",
    "webextension",
    "arb",
    "i18next",
    "i18nextv4",
    "go-i18n-json",
    "go-i18n-json-v2",
];

const NETWORK: &str = "it needs the network, which Tolk's add-ons do not use";
const PROGRAMS: &str = "it runs programs on the project's source code, which Tolk does not do";
const NOT_YET: &str = "Tolk does not run it yet";

const fn refused(id: &'static str, verbose: &'static str, why: &'static str) -> AddonKind {
    AddonKind {
        id,
        verbose,
        component_only: false,
        support: Support::Refused(why),
        fields: &[],
    }
}

const fn runs(
    id: &'static str,
    verbose: &'static str,
    compat: Compat,
    fields: &'static [Field],
) -> AddonKind {
    AddonKind {
        id,
        verbose,
        component_only: false,
        support: Support::Runs(compat),
        fields,
    }
}

const fn field(name: &'static str, kind: FieldKind) -> Field {
    Field { name, kind }
}

/// Every add-on name Weblate accepts, by id.
pub const CATALOGUE: &[AddonKind] = &[
    refused(
        "weblate.autotranslate.autotranslate",
        "Automatic translation",
        NOT_YET,
    ),
    refused("weblate.cdn.cdnjs", "JavaScript localization CDN", NETWORK),
    refused("weblate.cdn.files", "Translation files CDN", NETWORK),
    runs(
        "weblate.cleanup.blank",
        "Remove blank strings",
        Compat::Monolingual,
        &[],
    ),
    runs(
        "weblate.cleanup.generic",
        "Cleanup translation files",
        Compat::Monolingual,
        &[],
    ),
    runs(
        "weblate.consistency.languages",
        "Add missing languages",
        Compat::Any,
        &[],
    ),
    AddonKind {
        component_only: true,
        ..refused(
            "weblate.discovery.discovery",
            "Component discovery",
            NOT_YET,
        )
    },
    refused(
        "weblate.fedora_messaging.publish",
        "Fedora Messaging",
        NETWORK,
    ),
    refused("weblate.flags.bulk", "Bulk edit", NOT_YET),
    refused(
        "weblate.flags.same_edit",
        "Flag unchanged translations as \"Needs rewriting\"",
        NOT_YET,
    ),
    refused(
        "weblate.flags.source_edit",
        "Flag new source strings as \"Needs checking\"",
        NOT_YET,
    ),
    refused(
        "weblate.flags.target_edit",
        "Flag new translations as \"Needs rewriting\"",
        NOT_YET,
    ),
    refused(
        "weblate.flags.target_repo_update",
        "Flag updated translations from repository as \"Needs rewriting\"",
        NOT_YET,
    ),
    refused(
        "weblate.generate.fill_read_only",
        "Fill read-only strings with source",
        NOT_YET,
    ),
    refused("weblate.generate.generate", "Statistics generator", NOT_YET),
    refused(
        "weblate.generate.prefill",
        "Prefill translation with source",
        NOT_YET,
    ),
    refused(
        "weblate.generate.pseudolocale",
        "Pseudolocale generation",
        NOT_YET,
    ),
    refused(
        "weblate.gettext.authors",
        "Contributors in comment",
        NOT_YET,
    ),
    runs(
        "weblate.gettext.configure",
        "Update ALL_LINGUAS variable in the \"configure\" file",
        Compat::Formats(GETTEXT),
        &[],
    ),
    refused(
        "weblate.gettext.django",
        "Update gettext template (Django)",
        PROGRAMS,
    ),
    runs(
        "weblate.gettext.linguas",
        "Update LINGUAS file",
        Compat::Formats(GETTEXT),
        &[],
    ),
    refused("weblate.gettext.meson", "Update POT file (Meson)", PROGRAMS),
    runs(
        "weblate.gettext.mo",
        "Generate MO files",
        Compat::Formats(GETTEXT),
        &[
            field("path", FieldKind::Text(400)),
            field("fuzzy", FieldKind::Boolean),
        ],
    ),
    runs(
        "weblate.gettext.msgmerge",
        "Update PO files to match POT (msgmerge)",
        Compat::GettextWithBase,
        &[
            field("fuzzy", FieldKind::Boolean),
            field("previous", FieldKind::Boolean),
            field("no_location", FieldKind::Boolean),
        ],
    ),
    refused(
        "weblate.gettext.sphinx",
        "Update POT file (Sphinx)",
        PROGRAMS,
    ),
    refused(
        "weblate.gettext.xgettext",
        "Update POT file (xgettext)",
        PROGRAMS,
    ),
    runs(
        "weblate.git.squash",
        "Squash Git commits",
        Compat::Any,
        &[
            field(
                "squash",
                FieldKind::Choice(&["all", "language", "file", "author"]),
            ),
            field("append_trailers", FieldKind::Boolean),
            field("commit_message", FieldKind::Text(5000)),
        ],
    ),
    refused(
        "weblate.hosted.reset",
        "Reset repository to upstream",
        NOT_YET,
    ),
    runs(
        "weblate.json.customize",
        "Customize JSON output",
        Compat::Formats(JSON),
        &[
            field("sort_keys", FieldKind::Boolean),
            field("indent", FieldKind::Integer { min: 0, max: 16 }),
            field("style", FieldKind::Choice(&["spaces", "tabs"])),
        ],
    ),
    refused(
        "weblate.properties.sort",
        "Format the Java properties file",
        NOT_YET,
    ),
    refused("weblate.removal.comments", "Stale comment removal", NOT_YET),
    refused(
        "weblate.removal.suggestions",
        "Stale suggestion removal",
        NOT_YET,
    ),
    refused("weblate.resx.update", "Update RESX files", NOT_YET),
    refused("weblate.webhook.slack", "Slack Webhooks", NETWORK),
    refused("weblate.webhook.webhook", "Webhook", NETWORK),
];

/// The add-on named `id`.
pub fn find(id: &str) -> Option<&'static AddonKind> {
    CATALOGUE.iter().find(|kind| kind.id == id)
}

/// What an add-on's compatibility depends on in a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComponentFacts<'a> {
    /// Its file format id.
    pub format: &'a str,
    /// It has a monolingual template.
    pub monolingual: bool,
    /// It names a file new translations start from.
    pub has_new_base: bool,
    /// Its format's files can lose strings.
    pub removable: bool,
}

impl Compat {
    /// True when a component with `facts` suits the add-on.
    pub fn suits(self, facts: ComponentFacts<'_>) -> bool {
        match self {
            Compat::Any => true,
            Compat::Formats(formats) => formats.contains(&facts.format),
            Compat::Monolingual => facts.monolingual && facts.removable,
            Compat::GettextWithBase => GETTEXT.contains(&facts.format) && facts.has_new_base,
        }
    }
}

/// Most characters a stored configuration may take: keys an add-on does
/// not define are kept, but not without bound.
pub const MAX_CONFIGURATION: usize = 10_000;

/// Checks a configuration for `kind`: an object whose keys the add-on
/// defines hold values of their kind (keys it does not define are kept as
/// given, as Weblate keeps them, up to [`MAX_CONFIGURATION`] characters in
/// all). The messages name each wrong key.
pub fn check_configuration(
    kind: &AddonKind,
    value: &Value,
    errors: &mut FieldErrors,
) -> Map<String, Value> {
    let Value::Object(map) = value else {
        errors.invalid(
            "configuration",
            &format!(
                "Expected a dictionary of items but got type \"{}\".",
                json_type(value)
            ),
        );
        return Map::new();
    };
    if value.to_string().chars().count() > MAX_CONFIGURATION {
        errors.max_length("configuration", MAX_CONFIGURATION);
    }
    for field in kind.fields {
        let Some(given) = map.get(field.name) else {
            continue;
        };
        if let Some(problem) = field.kind.problem(given) {
            errors.invalid("configuration", &format!("{}: {problem}", field.name));
        }
    }
    map.clone()
}

impl FieldKind {
    /// What is wrong with `value` for this kind, if anything.
    fn problem(self, value: &Value) -> Option<String> {
        match (self, value) {
            (FieldKind::Boolean, Value::Bool(_)) => None,
            (FieldKind::Boolean, _) => Some("Must be a valid boolean.".into()),
            (FieldKind::Choice(words), Value::String(s)) if words.contains(&s.as_str()) => None,
            (FieldKind::Choice(_), other) => Some(format!(
                "Select a valid choice. {} is not one of the available choices.",
                shown(other)
            )),
            (FieldKind::Integer { min, max }, Value::Number(n)) => match n.as_i64() {
                None => Some("Enter a whole number.".into()),
                Some(n) if n < min => Some(format!(
                    "Ensure this value is greater than or equal to {min}."
                )),
                Some(n) if n > max => {
                    Some(format!("Ensure this value is less than or equal to {max}."))
                }
                Some(_) => None,
            },
            (FieldKind::Integer { .. }, _) => Some("Enter a whole number.".into()),
            (FieldKind::Text(max), Value::String(s)) if s.chars().count() > max => Some(format!(
                "Ensure this field has no more than {max} characters."
            )),
            (FieldKind::Text(_), Value::String(_)) => None,
            (FieldKind::Text(_), _) => Some("Not a valid string.".into()),
        }
    }
}

/// A value as a message quotes it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Python's name of a JSON value's type, as Weblate's messages say it.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// How `weblate.git.squash` groups the commits it squashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquashMode {
    /// One commit for everything.
    All,
    /// One commit per language.
    Language,
    /// One commit per file.
    File,
    /// One commit per author.
    Author,
}

/// `weblate.git.squash`'s settings, with Weblate's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquashSettings {
    /// How commits are grouped.
    pub mode: SquashMode,
    /// Co-authors and trailers of the squashed commits are kept.
    pub append_trailers: bool,
    /// The squashed commit's message; empty: the squashed commits' messages.
    pub commit_message: String,
}

impl SquashSettings {
    /// The settings a stored configuration gives.
    pub fn from_configuration(configuration: &Map<String, Value>) -> SquashSettings {
        SquashSettings {
            mode: match configuration.get("squash").and_then(Value::as_str) {
                Some("language") => SquashMode::Language,
                Some("file") => SquashMode::File,
                Some("author") => SquashMode::Author,
                _ => SquashMode::All,
            },
            append_trailers: flag(configuration, "append_trailers", true),
            commit_message: configuration
                .get("commit_message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        }
    }
}

/// `weblate.json.customize`'s settings, with Weblate's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonLayout {
    /// Keys are sorted.
    pub sort_keys: bool,
    /// Characters of indentation per level (tabs or spaces).
    pub indent: usize,
    /// Tabs instead of spaces.
    pub tabs: bool,
}

impl JsonLayout {
    /// The settings a stored configuration gives.
    pub fn from_configuration(configuration: &Map<String, Value>) -> JsonLayout {
        JsonLayout {
            sort_keys: flag(configuration, "sort_keys", false),
            indent: configuration
                .get("indent")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(4),
            tabs: configuration.get("style").and_then(Value::as_str) == Some("tabs"),
        }
    }
}

/// A boolean setting, or its default.
fn flag(configuration: &Map<String, Value>, key: &str, default: bool) -> bool {
    configuration
        .get(key)
        .and_then(Value::as_bool)
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_weblate_name_is_known_once() {
        let mut ids: Vec<&str> = CATALOGUE.iter().map(|k| k.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGUE.len());
        assert!(find("weblate.gettext.linguas").is_some());
        assert!(find("weblate.nothing").is_none());
    }

    #[test]
    fn configuration_is_checked_by_key() {
        let squash = find("weblate.git.squash").unwrap();
        let mut errors = FieldErrors::default();
        let kept = check_configuration(
            squash,
            &json!({"squash": "author", "extra": 1, "append_trailers": false}),
            &mut errors,
        );
        assert!(errors.is_empty());
        assert_eq!(kept.get("extra"), Some(&json!(1)));
        let mut errors = FieldErrors::default();
        check_configuration(
            squash,
            &json!({"squash": "everything", "append_trailers": "yes"}),
            &mut errors,
        );
        let messages: Vec<&str> = errors.iter().map(|e| e.detail.as_str()).collect();
        assert_eq!(
            messages,
            [
                "squash: Select a valid choice. everything is not one of the available choices.",
                "append_trailers: Must be a valid boolean."
            ]
        );
        let mut errors = FieldErrors::default();
        let long = "x".repeat(MAX_CONFIGURATION);
        check_configuration(squash, &json!({ "note": long }), &mut errors);
        assert!(
            errors.has("configuration"),
            "unbounded extra keys are refused"
        );
        let mut errors = FieldErrors::default();
        check_configuration(squash, &json!([1]), &mut errors);
        assert_eq!(
            errors.iter().next().unwrap().detail,
            "Expected a dictionary of items but got type \"list\"."
        );
    }

    #[test]
    fn settings_take_weblate_defaults() {
        let squash = SquashSettings::from_configuration(&Map::new());
        assert_eq!(squash.mode, SquashMode::All);
        assert!(squash.append_trailers);
        let layout = JsonLayout::from_configuration(
            json!({"indent": 2, "style": "tabs", "sort_keys": true})
                .as_object()
                .unwrap(),
        );
        assert_eq!(
            layout,
            JsonLayout {
                sort_keys: true,
                indent: 2,
                tabs: true
            }
        );
    }

    #[test]
    fn compatibility_follows_the_component() {
        let facts = ComponentFacts {
            format: "po",
            monolingual: false,
            has_new_base: true,
            removable: true,
        };
        assert!(Compat::GettextWithBase.suits(facts));
        assert!(!Compat::Monolingual.suits(facts));
        assert!(!Compat::Formats(JSON).suits(facts));
        assert!(!Compat::GettextWithBase.suits(ComponentFacts {
            has_new_base: false,
            ..facts
        }));
    }
}
