//! Translations: one language of a component.

use std::collections::HashMap;

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::workflow::Workflow;
use tolk_store::languages::{self, Language};
use tolk_store::stats::{self, Summary};
use tolk_store::translations::{self, Translation};
use tolk_store::{DbConnection, Page, PageRequest};
use tolk_store::{changes, components};

use crate::access::page;
use crate::cache::Generation;
use crate::component_view::{ComponentView, views};
use crate::components::visible_component;
use crate::{Service, ServiceError, ServiceResult};

/// A translation with what its representation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationView {
    /// The stored translation.
    pub translation: Translation,
    /// Its language.
    pub language: Language,
    /// Its component.
    pub component: ComponentView,
    /// Display name of the author of its latest content change.
    pub last_author: Option<String>,
}

impl TranslationView {
    /// The view of a translation from its component's view and its language.
    pub(crate) fn assemble(
        translation: Translation,
        components: &HashMap<i64, ComponentView>,
        languages: &HashMap<i64, Language>,
        last_author: Option<String>,
    ) -> ServiceResult<Self> {
        Ok(TranslationView {
            component: components
                .get(&translation.component_id)
                .cloned()
                .ok_or(ServiceError::NotFound)?,
            language: languages
                .get(&translation.language_id)
                .cloned()
                .ok_or(ServiceError::NotFound)?,
            last_author,
            translation,
        })
    }

    /// The name of its downloads without extension, as Weblate gives it:
    /// `{project}-[{categories}-]{component}-{language}`.
    pub fn file_stem(&self) -> String {
        let component = self.component.full_slug().replace('/', "-");
        format!("{component}-{}", self.language.row.code)
    }

    /// `permission` as asked on this translation's strings: a glossary's
    /// have their own (see [`Permission::on_glossary`]).
    pub fn on_strings(&self, permission: Permission) -> Permission {
        permission.on_glossary(self.component.component.settings.is_glossary)
    }

    /// The translation as the access check sees it.
    pub fn target(&self) -> Target {
        Target::Translation {
            project: self.component.project.as_ref(),
            component: self.component.component.id,
            restricted: self.component.component.settings.restricted,
            language: self.language.row.id,
        }
    }

    /// Where its strings are checked, in a project and component of these
    /// `names` ([`ComponentView::check_names`]).
    pub(crate) fn check_context<'a>(&'a self, names: &'a str) -> tolk_domain::checks::Context<'a> {
        tolk_domain::checks::Context::of(
            &self.language.row.code,
            &self.component.source_language.row.code,
            &self.language.plural.formula,
        )
        .named(names)
    }

    /// The workflow of its strings: its language's settings in the
    /// project, else the project's review and the component's
    /// suggestion settings.
    pub fn workflow(&self) -> Workflow {
        let component = &self.component;
        component.project.workflows.of(
            &self.language.row.code,
            &component.project.settings,
            &component.component.settings,
        )
    }

    /// True for the source language's translation.
    pub fn is_source(&self) -> bool {
        self.language.row.id == self.component.component.source_language_id
    }

    /// True for the template of a monolingual component (the source
    /// language's translation, read from the template file): editing its
    /// strings changes the source strings.
    pub fn is_template(&self) -> bool {
        let template = &self.component.component.settings.template;
        !template.is_empty() && *template == self.translation.filename
    }
}

/// Builds views of translations with a fixed number of statements.
pub(crate) fn translation_views(
    conn: &mut DbConnection,
    items: Vec<Translation>,
) -> ServiceResult<Vec<TranslationView>> {
    let mut component_ids: Vec<i64> = items.iter().map(|t| t.component_id).collect();
    component_ids.sort_unstable();
    component_ids.dedup();
    let found = components::get_by_ids(conn, &component_ids)?;
    let components: HashMap<i64, ComponentView> = views(conn, found)?
        .into_iter()
        .map(|v| (v.component.id, v))
        .collect();
    with_components(conn, items, &components)
}

/// Views of translations whose components are at hand: their languages
/// and last authors are read (three statements).
fn with_components(
    conn: &mut DbConnection,
    items: Vec<Translation>,
    components: &HashMap<i64, ComponentView>,
) -> ServiceResult<Vec<TranslationView>> {
    let language_ids: Vec<i64> = items.iter().map(|t| t.language_id).collect();
    let languages: HashMap<i64, Language> = languages::get_full_by_ids(conn, &language_ids)?
        .into_iter()
        .map(|l| (l.row.id, l))
        .collect();
    let ids: Vec<i64> = items.iter().map(|t| t.id).collect();
    let mut authors = changes::last_authors(conn, &ids)?;
    items
        .into_iter()
        .map(|translation| {
            let author = authors.remove(&translation.id);
            TranslationView::assemble(translation, components, &languages, author)
        })
        .collect()
}

/// The translation `project/component/language` if the caller may see it.
pub(crate) fn visible_translation(
    conn: &mut DbConnection,
    subject: &Subject,
    path: (&str, &str, &str),
) -> ServiceResult<TranslationView> {
    let component = visible_component(conn, subject, path.0, path.1)?;
    let translation = translations::get_by_code(conn, component.component.id, path.2)?
        .ok_or(ServiceError::NotFound)?;
    let components = HashMap::from([(component.component.id, component)]);
    with_components(conn, vec![translation], &components)?
        .pop()
        .ok_or(ServiceError::NotFound)
}

crate::service::area!(
    /// The use-cases of translations: listing, reading, adding and
    /// deleting a language of a component, their statistics, automatic
    /// translation.
    Translations,
    translations
);

impl Translations<'_> {
    /// Lists the translations the caller may see (of one component, when
    /// given as project and component slug), by id.
    pub fn list(
        &self,
        subject: &Subject,
        component: Option<(&str, &str)>,
        request: PageRequest,
    ) -> ServiceResult<Page<TranslationView>> {
        self.store.read(|conn| {
            let known = match component {
                Some((p, c)) => Some(visible_component(conn, subject, p, c)?),
                None => None,
            };
            let found = page(translations::list(
                conn,
                &subject.project_visibility(),
                known.as_ref().map(|v| v.component.id),
                request,
            ))?;
            match known {
                // The component is read already: its translations need only theirs.
                Some(view) => {
                    let components = HashMap::from([(view.component.id, view)]);
                    found.try_map_items(|items| with_components(conn, items, &components))
                }
                None => found.try_map_items(|items| translation_views(conn, items)),
            }
        })
    }

    /// One translation, if the caller may see it.
    pub fn get(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
    ) -> ServiceResult<TranslationView> {
        self.store
            .read(|conn| visible_translation(conn, subject, path))
    }

    /// One translation, if the caller may see it, without its last
    /// author: one statement while the cache of components and languages
    /// is current (a page about it).
    pub fn brief(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
    ) -> ServiceResult<TranslationView> {
        self.store
            .read(|conn| self.translation_of_units(conn, subject, path))
    }

    /// Every translation of a component, by id (its statistics).
    pub fn of_component(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
    ) -> ServiceResult<Vec<TranslationView>> {
        self.store.read(|conn| {
            let component = visible_component(conn, subject, project_slug, slug)?;
            let items = translations::of_component(conn, component.component.id)?;
            translation_views(conn, items)
        })
    }

    /// Statistics of one translation.
    pub fn statistics(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
    ) -> ServiceResult<(TranslationView, Summary)> {
        self.store.read(|conn| {
            let view = visible_translation(conn, subject, path)?;
            let summary = summaries(conn, std::slice::from_ref(&view))?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            Ok((view, summary))
        })
    }

    /// Statistics of each translation of a component, by id, a page at a time.
    pub fn component_statistics(
        &self,
        subject: &Subject,
        component: (&str, &str),
        request: PageRequest,
    ) -> ServiceResult<Page<(TranslationView, Summary)>> {
        let found = self
            .translations()
            .list(subject, Some(component), request)?;
        self.store.read(|conn| {
            found.try_map_items(|items| {
                let summaries = summaries(conn, &items)?;
                Ok(items.into_iter().zip(summaries).collect())
            })
        })
    }
}

impl Service {
    /// The translation at `path` (project, component, language code) if
    /// the caller may see it, without its last author, for requests about
    /// its units (which show none): one statement, with its component and
    /// languages from the cache.
    pub(crate) fn translation_of_units(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        path: (&str, &str, &str),
    ) -> ServiceResult<TranslationView> {
        let (translation, generation) =
            translations::get_by_path(conn, path)?.ok_or(ServiceError::NotFound)?;
        let generation = self.cache.observe(generation);
        let (components, languages) =
            self.cached_parts(conn, generation, std::iter::once(&translation))?;
        let view = TranslationView::assemble(translation, &components, &languages, None)?;
        if view.component.visible_to(subject) {
            Ok(view)
        } else {
            Err(ServiceError::NotFound)
        }
    }

    /// What [`TranslationView::assemble`] needs for `translations`, from
    /// the cache of `generation`: their components, and their languages
    /// with their components' source languages.
    pub(crate) fn cached_parts<'a>(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        translations: impl Iterator<Item = &'a Translation> + Clone,
    ) -> ServiceResult<(HashMap<i64, ComponentView>, HashMap<i64, Language>)> {
        let component_ids: Vec<i64> = translations.clone().map(|t| t.component_id).collect();
        let components = self.cache.components(generation, conn, &component_ids)?;
        let mut language_ids: Vec<i64> = translations.map(|t| t.language_id).collect();
        language_ids.extend(components.values().map(|c| c.source_language.row.id));
        let languages = self.cache.languages(generation, conn, &language_ids)?;
        Ok((components, languages))
    }
}

/// The statistics of translations, in their order.
fn summaries(conn: &mut DbConnection, views: &[TranslationView]) -> ServiceResult<Vec<Summary>> {
    let items: Vec<_> = views
        .iter()
        .map(|v| {
            let t = &v.translation;
            (t.id, t.counters, t.last_change)
        })
        .collect();
    Ok(stats::of_translations(conn, &items)?)
}
