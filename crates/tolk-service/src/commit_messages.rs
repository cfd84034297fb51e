//! The messages of the commits Tolk makes, from the component's templates
//! and the values they may use.

use tolk_domain::message::render;
use tolk_domain::stats::percent;
use tolk_store::translations::Translation;

use crate::component_view::ComponentView;

/// The values a commit message template may use.
pub(crate) fn message_values(
    view: &ComponentView,
    translation: Option<(&Translation, &str)>,
    site: &crate::ServiceConfig,
) -> Vec<(&'static str, String)> {
    let site_url = site.site_url.as_str();
    let p = &view.project.settings;
    let c = &view.component.settings;
    let mut values = vec![
        ("project_name", p.name.clone()),
        ("project_slug", p.slug.clone()),
        ("component_name", c.name.clone()),
        ("component_slug", c.slug.clone()),
        ("component_remote_branch", c.branch.clone()),
        ("site_title", site.site_title.clone()),
        ("site_url", site_url.to_owned()),
    ];
    match translation {
        Some((t, language_name)) => {
            let counters = t.counters;
            values.extend([
                ("language_code", t.language_code.clone()),
                ("language_name", language_name.to_owned()),
                ("stats.all", counters.total.strings.to_string()),
                ("stats.translated", counters.translated.strings.to_string()),
                (
                    "stats.translated_percent",
                    percent(counters.translated.strings, counters.total.strings, true).to_string(),
                ),
                (
                    "url",
                    format!(
                        "{site_url}/projects/{}/{}/{}/",
                        p.slug, c.slug, t.language_code
                    ),
                ),
            ]);
        }
        None => values.push(("url", format!("{site_url}/projects/{}/{}/", p.slug, c.slug))),
    }
    values
}

/// The message of a commit an add-on (or Tolk on its behalf) makes: the
/// component's add-on message naming `addon_name`.
pub(crate) fn addon_message(
    view: &ComponentView,
    addon_name: &str,
    site: &crate::ServiceConfig,
) -> String {
    let mut values = message_values(view, None, site);
    values.push(("addon_name", addon_name.to_owned()));
    render(&view.effective().addon_message, &values)
}

/// The message of a translation's commit made with `template`.
pub(crate) fn commit_message(
    template: &str,
    view: &ComponentView,
    translation: &Translation,
    language_name: &str,
    site: &crate::ServiceConfig,
) -> String {
    render(
        template,
        &message_values(view, Some((translation, language_name)), site),
    )
}
