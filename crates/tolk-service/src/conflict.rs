//! Races between requests that the database settles: a write that loses
//! to a concurrent one gets the answer the check before it would have
//! given, not a database error.

use tolk_domain::validation::FieldErrors;
use tolk_store::StoreError;

use crate::ServiceError;

/// A field that must be unique, with the words of its error message.
#[derive(Debug, Clone, Copy)]
pub struct Unique {
    /// The field, as named in requests and in the constraint or index.
    pub attr: &'static str,
    /// The kind of object, e.g. `Project`.
    pub model: &'static str,
    /// The field's label, e.g. `URL slug`.
    pub label: &'static str,
}

impl Unique {
    /// Reports the field as taken.
    pub fn report(&self, errors: &mut FieldErrors) {
        errors.unique(self.attr, self.model, self.label);
    }
}

/// Maps a unique violation on one of `fields` (found by the field's name in
/// the constraint's) to that field's 400; other errors pass through.
pub fn unique_violation(error: StoreError, fields: &[Unique]) -> ServiceError {
    let Some(constraint) = error.unique_constraint() else {
        return error.into();
    };
    match fields.iter().find(|f| constraint.contains(f.attr)) {
        Some(field) => {
            let mut errors = FieldErrors::default();
            field.report(&mut errors);
            ServiceError::Validation(errors)
        }
        None => error.into(),
    }
}
