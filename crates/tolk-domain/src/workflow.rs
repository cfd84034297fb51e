//! Workflow settings of a project's language (`…/languages/{code}/workflow/`):
//! for the strings of one language in every component of a project, they
//! replace the project's `translation_review` and the components'
//! `enable_suggestions`, `suggestion_voting` and `suggestion_autoaccept`,
//! and may restrict direct edits to those who may override suggestions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::component::ComponentSettings;
use crate::project::ProjectSettings;
use crate::validation::FieldErrors;

/// Highest `suggestion_autoaccept`.
pub const MAX_AUTOACCEPT: i32 = 32_767;

/// The workflow in effect for the strings of one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Workflow {
    /// Approved state and reviewers.
    pub translation_review: bool,
    /// Suggestions allowed at all.
    pub enable_suggestions: bool,
    /// Votes on suggestions.
    pub suggestion_voting: bool,
    /// Votes that accept a suggestion; 0 turns it off.
    pub suggestion_autoaccept: i32,
    /// Only those who may override suggestions (`unit.override`) edit
    /// translations directly; others suggest.
    pub restrict_direct_editing: bool,
    /// The language translators read beside the source, as a code, if set.
    pub source_language: Option<String>,
}

impl Default for Workflow {
    fn default() -> Self {
        Workflow {
            translation_review: false,
            enable_suggestions: true,
            suggestion_voting: false,
            suggestion_autoaccept: 0,
            restrict_direct_editing: false,
            source_language: None,
        }
    }
}

impl Workflow {
    /// The workflow that holds without settings of the language: the
    /// project's review and the component's suggestion settings.
    pub fn inherited(project: &ProjectSettings, component: &ComponentSettings) -> Workflow {
        Workflow {
            translation_review: project.translation_review,
            enable_suggestions: component.enable_suggestions,
            suggestion_voting: component.suggestion_voting,
            suggestion_autoaccept: component.suggestion_autoaccept,
            restrict_direct_editing: false,
            source_language: None,
        }
    }

    /// Checks the values: `suggestion_autoaccept` in 0..=32767.
    pub fn check(&self) -> Result<(), FieldErrors> {
        let mut errors = FieldErrors::default();
        if !(0..=MAX_AUTOACCEPT).contains(&self.suggestion_autoaccept) {
            let detail = if self.suggestion_autoaccept < 0 {
                "Ensure this value is greater than or equal to 0.".to_owned()
            } else {
                format!("Ensure this value is less than or equal to {MAX_AUTOACCEPT}.")
            };
            let code = if self.suggestion_autoaccept < 0 {
                "min_value"
            } else {
                "max_value"
            };
            errors.push("suggestion_autoaccept", code, detail);
        }
        errors.into_result()
    }
}

/// A project's workflow settings, by language code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Workflows(pub BTreeMap<String, Workflow>);

impl Workflows {
    /// The workflow of the strings of `language` in a component: the
    /// language's settings in the project if it has them, else the
    /// inherited ones.
    pub fn of(
        &self,
        language: &str,
        project: &ProjectSettings,
        component: &ComponentSettings,
    ) -> Workflow {
        self.0
            .get(language)
            .cloned()
            .unwrap_or_else(|| Workflow::inherited(project, component))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_s_settings_replace_the_inherited_ones() {
        let project = ProjectSettings {
            translation_review: true,
            ..ProjectSettings::default()
        };
        let component = ComponentSettings {
            suggestion_voting: true,
            suggestion_autoaccept: 3,
            ..ComponentSettings::default()
        };
        let own = Workflow {
            enable_suggestions: false,
            restrict_direct_editing: true,
            ..Workflow::default()
        };
        let workflows = Workflows(BTreeMap::from([("cs".to_owned(), own.clone())]));
        assert_eq!(workflows.of("cs", &project, &component), own);
        let inherited = workflows.of("de", &project, &component);
        assert_eq!(
            (
                inherited.translation_review,
                inherited.enable_suggestions,
                inherited.suggestion_voting,
                inherited.suggestion_autoaccept,
                inherited.restrict_direct_editing
            ),
            (true, component.enable_suggestions, true, 3, false)
        );
    }

    #[test]
    fn autoaccept_stays_in_a_small_integer() {
        let with = |n| Workflow {
            suggestion_autoaccept: n,
            ..Workflow::default()
        };
        assert!(with(0).check().is_ok());
        assert!(with(MAX_AUTOACCEPT).check().is_ok());
        let codes = |w: Workflow| {
            w.check()
                .unwrap_err()
                .iter()
                .map(|e| e.code.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(with(-1)), ["min_value"]);
        assert_eq!(codes(with(MAX_AUTOACCEPT + 1)), ["max_value"]);
    }
}
