//! Where a translation's strings are checked: language, plural forms,
//! names, glossary and key, as every check may need them.

use super::glossary;

/// Where a translation's strings are checked.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The translation's language code.
    pub language: &'a str,
    /// The source language's code.
    pub source_language: &'a str,
    /// The gettext formula of the translation's plural forms (which forms
    /// stand for a single number).
    pub plural: &'a str,
    /// The names of the project and the component, whose words `same`
    /// lets pass (names are seldom translated).
    pub names: &'a str,
    /// The glossary terms of the translation's language
    /// (`check_glossary`, with `check-glossary`).
    pub glossary: Option<&'a glossary::Glossary>,
    /// Whether the strings are a glossary's terms.
    pub is_glossary: bool,
    /// The key (context) of the string checked: the entry a Fluent string
    /// belongs to.
    pub key: &'a str,
}

impl<'a> Context<'a> {
    /// A context with no project or component names.
    pub fn of(language: &'a str, source_language: &'a str, plural: &'a str) -> Context<'a> {
        Context {
            language,
            source_language,
            plural,
            ..Context::default()
        }
    }

    /// The same context in a project and component of these names
    /// (joined by a space).
    pub fn named(self, names: &'a str) -> Context<'a> {
        Context { names, ..self }
    }

    /// The same context for the string of this key (context).
    pub fn at_key(self, key: &'a str) -> Context<'a> {
        Context { key, ..self }
    }

    /// The same context with the glossary terms of its language, in a
    /// glossary or not.
    pub fn with_glossary(self, glossary: &'a glossary::Glossary, is_glossary: bool) -> Context<'a> {
        Context {
            glossary: Some(glossary),
            is_glossary,
            ..self
        }
    }
}
