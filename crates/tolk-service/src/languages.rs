//! Languages: listing, editing and statistics.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::language::LanguageFields;
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::plural::PluralType;
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::languages::{self, Language, LanguageScope};
use tolk_store::stats::{self, Summary};
use tolk_store::{DbConnection, Page, PageRequest, time};

use crate::access::{page, require};
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "Can not manage languages";

/// The language field no two languages share.
const CODE: Unique = Unique {
    attr: "code",
    model: "Language",
    label: "Language code",
};

/// Language managers see every language; everybody else only those in use.
fn scope(subject: &Subject) -> LanguageScope {
    if subject.can(Permission::LANGUAGE_EDIT, Target::Site) {
        LanguageScope::All
    } else {
        LanguageScope::InUse
    }
}

/// The language with this code if the caller may see it, else not found.
fn visible_language(
    conn: &mut DbConnection,
    subject: &Subject,
    code: &str,
) -> ServiceResult<Language> {
    languages::get_by_code(conn, code, scope(subject))?.ok_or(ServiceError::NotFound)
}

/// The editable fields of a stored language.
fn fields_of(language: &Language) -> LanguageFields {
    LanguageFields {
        code: language.row.code.clone(),
        name: language.row.name.clone(),
        direction: language.row.direction.clone(),
        population: language.row.population,
        plural_number: language.plural.number,
        plural_formula: language.plural.formula.clone(),
        plural_source: language.plural.source,
    }
}

/// Validates the fields and checks the code is free; returns the plural type.
fn validated(
    conn: &mut DbConnection,
    fields: &LanguageFields,
    except: Option<i64>,
) -> ServiceResult<PluralType> {
    let kind = fields.validate();
    let mut errors = kind.clone().err().unwrap_or_default();
    if !errors.has("code") && languages::code_exists(conn, &fields.code, except)? {
        CODE.report(&mut errors);
    }
    errors.into_result()?;
    kind.map_err(ServiceError::Validation)
}

/// Records a change of `language`; a removed language is named, not linked.
fn record(
    conn: &mut DbConnection,
    subject: &Subject,
    language: &Language,
    operation: &str,
) -> ServiceResult<()> {
    let change = NewChange {
        language_id: (operation != "deleted").then_some(language.row.id),
        target: language.row.code.clone(),
        details: json!({"language": language.row.code, "operation": operation}),
        ..NewChange::new(Action::UPDATE, subject.user_id())
    };
    changes::record(conn, &change, time::now())?;
    Ok(())
}

crate::service::area!(
    /// The use-cases of languages: listing, reading, managing, their statistics.
    Languages,
    languages
);

impl Languages<'_> {
    /// Lists languages by id.
    pub fn list(&self, subject: &Subject, request: PageRequest) -> ServiceResult<Page<Language>> {
        page(
            self.store
                .read(|conn| languages::list(conn, scope(subject), request)),
        )
    }

    /// One language by code.
    pub fn get(&self, subject: &Subject, code: &str) -> ServiceResult<Language> {
        self.store
            .read(|conn| visible_language(conn, subject, code))
    }

    /// Defines a new language.
    pub fn create(
        &self,
        subject: &Subject,
        fields: Result<LanguageFields, FieldErrors>,
    ) -> ServiceResult<Language> {
        require(subject, Permission::LANGUAGE_EDIT, Target::Site, DENIED)?;
        let fields = fields?;
        self.store.write(|conn| {
            let kind = validated(conn, &fields, None)?;
            let language =
                languages::insert(conn, &fields, kind).map_err(|e| unique_violation(e, &[CODE]))?;
            record(conn, subject, &language, "created")?;
            Ok(language)
        })
    }

    /// Changes a language: `edit` turns its current fields into the new ones.
    pub fn update(
        &self,
        subject: &Subject,
        code: &str,
        edit: impl FnOnce(LanguageFields) -> Result<LanguageFields, FieldErrors>,
    ) -> ServiceResult<Language> {
        self.store.write(|conn| {
            let current = visible_language(conn, subject, code)?;
            let target = Target::Language(current.row.id);
            require(subject, Permission::LANGUAGE_EDIT, target, DENIED)?;
            let fields = edit(fields_of(&current))?;
            let kind = validated(conn, &fields, Some(current.row.id))?;
            let language =
                languages::update(conn, current.row.id, current.plural.id, &fields, kind)
                    .map_err(|e| unique_violation(e, &[CODE]))?
                    .ok_or(ServiceError::NotFound)?;
            record(conn, subject, &language, "updated")?;
            Ok(language)
        })
    }

    /// Removes a language that no translation uses.
    pub fn delete(&self, subject: &Subject, code: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let current = visible_language(conn, subject, code)?;
            let target = Target::Language(current.row.id);
            require(subject, Permission::LANGUAGE_EDIT, target, DENIED)?;
            let used = languages::translation_count(conn, current.row.id)?;
            if used > 0 {
                return Err(ServiceError::invalid(
                    "code",
                    &format!("The language is used by {used} translation(s); remove them first."),
                ));
            }
            if !languages::delete(conn, current.row.id)? {
                // Another request deleted it first.
                return Err(ServiceError::NotFound);
            }
            record(conn, subject, &current, "deleted")?;
            Ok(())
        })
    }

    /// Statistics of a language over the projects the caller may see.
    pub fn statistics(&self, subject: &Subject, code: &str) -> ServiceResult<(Language, Summary)> {
        self.store.read(|conn| {
            let language = visible_language(conn, subject, code)?;
            let summary = stats::language(conn, language.row.id, &subject.project_visibility())?;
            Ok((language, summary))
        })
    }
}
