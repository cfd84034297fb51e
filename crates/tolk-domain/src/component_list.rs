//! Component lists (§15): their request bodies, the checks on them, and
//! the rules that fill them.

use regex::{Regex, RegexBuilder};

use crate::validation::{FieldErrors, check_slug, check_text};

/// Longest name and slug of a list.
pub const MAX_NAME: usize = 100;
/// Longest pattern of a rule.
pub const MAX_PATTERN: usize = 500;
/// Most rules a list keeps.
pub const MAX_RULES: usize = 50;
/// Memory a compiled pattern may take: a hostile pattern is refused
/// rather than compiled to a huge automaton.
const PATTERN_SIZE: usize = 256 * 1024;

/// A rule putting every component whose project slug and own slug match
/// in the list, now and when components are created (Weblate's automatic
/// assignment; like Python's `re.match`, a pattern must match from the
/// start of the slug, not to its end).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutoAssignRule {
    /// Regular expression for the project slug.
    #[cfg_attr(feature = "openapi", schema(max_length = 500))]
    pub project_match: String,
    /// Regular expression for the component slug.
    #[cfg_attr(feature = "openapi", schema(max_length = 500))]
    pub component_match: String,
}

/// A request body creating or replacing a component list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentListCreate {
    /// Name shown to users, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = r"\S")
    )]
    pub name: String,
    /// Name in URLs, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = "^[A-Za-z0-9_-]+$")
    )]
    pub slug: String,
    /// Offered as a dashboard view (default true).
    pub show_dashboard: Option<bool>,
    /// Rules adding components automatically (a Tolk extension: Weblate
    /// sets them in its admin pages only); left out, the rules stay.
    pub auto_assign: Option<Vec<AutoAssignRule>>,
}

/// A request body changing some fields of a component list.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentListPatch {
    /// Name shown to users, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = r"\S")
    )]
    pub name: Option<String>,
    /// Name in URLs, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = "^[A-Za-z0-9_-]+$")
    )]
    pub slug: Option<String>,
    /// Offered as a dashboard view.
    pub show_dashboard: Option<bool>,
    /// Rules adding components automatically; replaces the list's rules.
    pub auto_assign: Option<Vec<AutoAssignRule>>,
}

impl From<ComponentListCreate> for ComponentListPatch {
    fn from(create: ComponentListCreate) -> Self {
        ComponentListPatch {
            name: Some(create.name),
            slug: Some(create.slug),
            show_dashboard: Some(create.show_dashboard.unwrap_or(true)),
            auto_assign: create.auto_assign,
        }
    }
}

/// Checks a list's name and slug.
pub fn check_fields(name: &str, slug: &str, errors: &mut FieldErrors) {
    check_text(name, "name", MAX_NAME, errors);
    check_slug(slug, "slug", MAX_NAME, errors);
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub struct Matcher {
    project: Regex,
    component: Regex,
}

fn compile(pattern: &str) -> Result<Regex, String> {
    if pattern.chars().count() > MAX_PATTERN {
        return Err(format!(
            "Ensure this field has no more than {MAX_PATTERN} characters."
        ));
    }
    RegexBuilder::new(&format!("^(?:{pattern})"))
        .size_limit(PATTERN_SIZE)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => "The regular expression is too complex.".to_owned(),
            _ => format!("Invalid regular expression: {pattern}"),
        })
}

impl Matcher {
    /// Compiles a rule; an invalid pattern is reported on `auto_assign`.
    pub fn new(rule: &AutoAssignRule, errors: &mut FieldErrors) -> Option<Matcher> {
        match (compile(&rule.project_match), compile(&rule.component_match)) {
            (Ok(project), Ok(component)) => Some(Matcher { project, component }),
            (Err(message), _) | (_, Err(message)) => {
                errors.invalid("auto_assign", &message);
                None
            }
        }
    }

    /// Whether a component with these slugs belongs in the list.
    pub fn matches(&self, project_slug: &str, component_slug: &str) -> bool {
        self.project.is_match(project_slug) && self.component.is_match(component_slug)
    }
}

/// Checks and compiles rules, at most [`MAX_RULES`].
pub fn matchers(rules: &[AutoAssignRule], errors: &mut FieldErrors) -> Vec<Matcher> {
    if rules.len() > MAX_RULES {
        errors.invalid(
            "auto_assign",
            &format!("Ensure this field has no more than {MAX_RULES} elements."),
        );
        return Vec::new();
    }
    rules
        .iter()
        .filter_map(|rule| Matcher::new(rule, errors))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(project: &str, component: &str) -> AutoAssignRule {
        AutoAssignRule {
            project_match: project.into(),
            component_match: component.into(),
        }
    }

    #[test]
    fn rules_match_from_the_start_of_slugs() {
        let mut errors = FieldErrors::default();
        let found = matchers(
            &[rule("^.*$", "^weblate$"), rule("demo", "doc")],
            &mut errors,
        );
        assert!(errors.is_empty());
        assert!(found[0].matches("hello", "weblate"));
        assert!(!found[0].matches("hello", "weblate-docs"));
        assert!(found[1].matches("demo-two", "docs"));
        assert!(
            !found[1].matches("my-demo", "docs"),
            "re.match anchors at the start"
        );
    }

    #[test]
    fn bad_patterns_are_field_errors() {
        let mut errors = FieldErrors::default();
        assert!(matchers(&[rule("(", "x")], &mut errors).is_empty());
        assert!(errors.has("auto_assign"));
        let mut errors = FieldErrors::default();
        matchers(&[rule("a{1000}{1000}", "x")], &mut errors);
        assert!(errors.has("auto_assign"));
        let mut errors = FieldErrors::default();
        matchers(&vec![rule("a", "b"); MAX_RULES + 1], &mut errors);
        assert!(errors.has("auto_assign"));
    }
}
