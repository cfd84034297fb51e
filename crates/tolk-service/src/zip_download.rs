//! ZIP downloads of a component's or a project's translations (§8.5): the
//! plan of the archive (its entries and where each one's bytes come from)
//! is made at once, the bytes of each entry only when the archive is
//! written, so that a writer streaming the archive holds one file at a time.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_store::languages::{self, LanguageScope};
use tolk_store::units;

use crate::access::require;
use crate::component_view::{ComponentView, views};
use crate::components::visible_component;
use crate::conversion::{Converter, converter};
use crate::projects::visible_project;
use crate::translations::{TranslationView, translation_views};
use crate::{ServiceError, ServiceResult};

/// Where the bytes of an archive entry come from.
#[derive(Debug, Clone)]
enum Source {
    /// A file of the component's work tree, by its path there.
    File(Arc<ComponentView>, String),
    /// A translation converted by a converter.
    Converted(Arc<TranslationView>, &'static Converter),
    /// A note saying why a translation is not in the archive.
    Note(String),
}

/// One entry of a ZIP download.
#[derive(Debug, Clone)]
pub struct ArchiveEntry {
    /// Its path inside the archive.
    pub path: String,
    source: Source,
}

/// What a ZIP download holds.
#[derive(Debug, Clone)]
pub struct ArchivePlan {
    /// The file name offered for the archive.
    pub name: String,
    /// Its entries, in order.
    pub entries: Vec<ArchiveEntry>,
}

/// The entries of a project's archive, with the project's slug and the
/// code of the language asked for when it is known.
struct ProjectPlan {
    slug: String,
    language: Option<String>,
    entries: Vec<ArchiveEntry>,
}

/// What a ZIP download asks for: `format` (`zip`, or `zip:CONVERTER`), the
/// language and the components to keep.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArchiveRequest<'a> {
    /// `zip` or absent for the repository's files, `zip:ID` to convert.
    pub format: Option<&'a str>,
    /// Only translations of this language code.
    pub language: Option<&'a str>,
    /// Only components whose slug holds this text, in any case.
    pub component: Option<&'a str>,
}

impl ArchiveRequest<'_> {
    /// The converter asked for; `Ok(None)` for the repository's files and
    /// not found for an unknown converter (as Weblate answers).
    fn converter(&self) -> ServiceResult<Option<&'static Converter>> {
        match self.format.and_then(|f| f.strip_prefix("zip:")) {
            None => Ok(None),
            Some(id) => converter(id).map(Some).ok_or(ServiceError::NotFound),
        }
    }
}

impl crate::files::Files<'_> {
    /// The plan of a component's ZIP download (needs `translation.download`):
    /// its translations' files as the repository holds them after pending
    /// edits are committed, with the template, new-translation base and
    /// intermediate file, or each translation converted.
    pub fn component_archive(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        request: ArchiveRequest<'_>,
    ) -> ServiceResult<ArchivePlan> {
        let convert = request.converter()?;
        let (component, translations) = self.store.read(|conn| {
            let component = visible_component(conn, subject, project_slug, slug)?;
            let items = tolk_store::translations::of_component(conn, component.component.id)?;
            Ok::<_, ServiceError>((component, translation_views(conn, items)?))
        })?;
        require(
            subject,
            Permission::TRANSLATION_DOWNLOAD,
            component.target(),
            DENIED,
        )?;
        let name = format!("{}.zip", component.full_slug().replace('/', "-"));
        let entries = self.plan_component(component, translations, (convert, request.language))?;
        Ok(ArchivePlan { name, entries })
    }

    /// The plan of a project's ZIP download: every component the caller
    /// may see and download, as [`Files::component_archive`](crate::files::Files::component_archive) plans each.
    pub fn project_archive(
        &self,
        subject: &Subject,
        project_slug: &str,
        request: ArchiveRequest<'_>,
    ) -> ServiceResult<ArchivePlan> {
        let planned = self.plan_project(subject, project_slug, request)?;
        Ok(ArchivePlan {
            name: format!("{}.zip", planned.slug),
            entries: planned.entries,
        })
    }

    /// The plan of a project's ZIP download for one language (§8.5): as
    /// [`Files::project_archive`](crate::files::Files::project_archive) with `language_code`, named after the
    /// project and the language. An unknown language is not found; one the
    /// project does not have, or a component filter nothing matches, gives
    /// an empty archive, as Weblate answers.
    pub fn project_language_archive(
        &self,
        subject: &Subject,
        project_slug: &str,
        code: &str,
        request: ArchiveRequest<'_>,
    ) -> ServiceResult<ArchivePlan> {
        let request = ArchiveRequest {
            language: Some(code),
            ..request
        };
        let planned = self.plan_project(subject, project_slug, request)?;
        let code = planned.language.ok_or(ServiceError::NotFound)?;
        Ok(ArchivePlan {
            name: format!("{}-{code}.zip", planned.slug),
            entries: planned.entries,
        })
    }

    /// The entries of a project's archive. A language asked for is looked
    /// up first: only its translations are read further, and an unknown
    /// one leaves the archive empty.
    fn plan_project(
        &self,
        subject: &Subject,
        project_slug: &str,
        request: ArchiveRequest<'_>,
    ) -> ServiceResult<ProjectPlan> {
        let convert = request.converter()?;
        // A fixed number of statements, whatever the number of components.
        let (project, language, components, translations) = self.store.read(|conn| {
            let project = visible_project(conn, subject, project_slug)?;
            let language = match request.language {
                Some(code) => Some(languages::get_by_code(conn, code, LanguageScope::All)?),
                None => None,
            };
            let all = tolk_store::components::of_project(conn, project.id)?;
            let components: Vec<ComponentView> = views(conn, all)?
                .into_iter()
                .filter(|view| view.visible_to(subject))
                .collect();
            let ids: Vec<i64> = components.iter().map(|c| c.component.id).collect();
            let mut items = tolk_store::translations::of_components(conn, &ids)?;
            if let Some(found) = &language {
                let id = found.as_ref().map(|l| l.row.id);
                items.retain(|t| Some(t.language_id) == id);
            }
            let translations = translation_views(conn, items)?;
            Ok::<_, ServiceError>((project, language.flatten(), components, translations))
        })?;
        let mut by_component: HashMap<i64, Vec<TranslationView>> = HashMap::new();
        for translation in translations {
            let id = translation.component.component.id;
            by_component.entry(id).or_default().push(translation);
        }
        require(
            subject,
            Permission::TRANSLATION_DOWNLOAD,
            Target::Project(project.as_ref()),
            DENIED,
        )?;
        let wanted = request.component.map(str::to_lowercase);
        let mut entries = Vec::new();
        for component in components {
            let translations = by_component
                .remove(&component.component.id)
                .unwrap_or_default();
            let slug = &component.component.settings.slug;
            if wanted
                .as_deref()
                .is_some_and(|text| !slug.to_lowercase().contains(text))
            {
                continue;
            }
            // A team may give the right on some components only.
            if subject.can(Permission::TRANSLATION_DOWNLOAD, component.target()) {
                entries.extend(self.plan_component(
                    component,
                    translations,
                    (convert, request.language),
                )?);
            }
        }
        Ok(ProjectPlan {
            slug: project.settings.slug.clone(),
            language: language.map(|l| l.row.code),
            entries,
        })
    }

    /// The entries of one component: its translations (of one language
    /// when given) as files, or converted when a converter is given.
    fn plan_component(
        &self,
        component: ComponentView,
        translations: Vec<TranslationView>,
        (convert, language): (Option<&'static Converter>, Option<&str>),
    ) -> ServiceResult<Vec<ArchiveEntry>> {
        let mut entries = Vec::new();
        let translations: Vec<TranslationView> = translations
            .into_iter()
            .filter(|t| language.is_none_or(|code| t.language.row.code == code))
            .collect();
        // The component's own files come with its translations only.
        if translations.is_empty() {
            return Ok(entries);
        }
        let (project, slug) = (
            component.project.settings.slug.clone(),
            component.component.path.clone(),
        );
        if let Some(converter) = convert {
            for translation in translations {
                let name = format!("{}.{}", translation.file_stem(), converter.extension);
                entries.push(if converter.fits(&translation) {
                    ArchiveEntry {
                        path: name,
                        source: Source::Converted(Arc::new(translation), converter),
                    }
                } else {
                    ArchiveEntry {
                        path: format!("{name}.skipped"),
                        source: Source::Note(format!("{}\n", crate::conversion::INCOMPATIBLE)),
                    }
                });
            }
            return Ok(entries);
        }
        // The files hold the pending edits once they are committed.
        self.commit_component(&component, false)?;
        let settings = &component.component.settings;
        let mut paths: Vec<String> = translations
            .iter()
            .map(|t| t.translation.filename.clone())
            .chain([
                settings.template.clone(),
                settings.new_base.clone(),
                settings.intermediate.clone(),
            ])
            .filter(|p| !p.is_empty())
            .collect();
        paths.sort();
        paths.dedup();
        let component = Arc::new(component);
        for path in paths {
            entries.push(ArchiveEntry {
                path: format!("{project}/{slug}/{path}"),
                source: Source::File(Arc::clone(&component), path),
            });
        }
        Ok(entries)
    }

    /// The bytes of one entry of a planned archive, read or converted now.
    fn archive_entry(&self, entry: &ArchiveEntry) -> ServiceResult<Vec<u8>> {
        match &entry.source {
            Source::File(component, path) => self.read_file(component, path),
            Source::Converted(translation, converter) => {
                let filter = units::UnitFilter {
                    translation_id: Some(translation.translation.id),
                    ..units::UnitFilter::default()
                };
                let rows = self.store.read(|conn| units::for_export(conn, &filter))?;
                converter
                    .write(translation, &entry.path, rows)
                    .map_err(ServiceError::Unconvertible)
            }
            Source::Note(text) => Ok(text.clone().into_bytes()),
        }
    }
}

impl crate::files::Files<'_> {
    /// Writes the archive `plan` describes into `out` as a ZIP stream (no
    /// seeking back: sizes follow each entry), reading one entry at a time.
    /// An error ends the archive where it happened.
    pub fn write_archive(&self, plan: &ArchivePlan, out: impl Write) -> ServiceResult<()> {
        let failed = |e: std::io::Error| ServiceError::Archive(e.into());
        let mut zip = zip::ZipWriter::new_stream(out);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for entry in &plan.entries {
            let bytes = self.archive_entry(entry)?;
            zip.start_file(entry.path.as_str(), options)?;
            zip.write_all(&bytes).map_err(failed)?;
        }
        zip.finish()?.into_inner().flush().map_err(failed)
    }
}

const DENIED: &str = "You do not have permission to perform this action.";
