//! User accounts in the three shapes Weblate uses (§3.1).

use serde::Serialize;
use tolk_service::users::UserView;
use utoipa::ToSchema;

use crate::links::{Links, timestamp};

/// What callers who do not manage users see of an account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct BasicUserDto {
    /// Id.
    pub id: i64,
    /// Display name.
    pub full_name: String,
    /// Login name.
    pub username: String,
}

/// Profile preferences and counters (§3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ProfileDto {
    /// Interface language code.
    pub language: String,
    /// Translated languages (API links).
    pub languages: Vec<String>,
    /// Secondary languages (API links).
    pub secondary_languages: Vec<String>,
    /// Suggestions made.
    pub suggested: i64,
    /// Strings translated.
    pub translated: i64,
    /// Files uploaded.
    pub uploaded: i64,
    /// Comments posted.
    pub commented: i64,
    /// `auto`, `light` or `dark`.
    pub theme: String,
    /// Hide completed translations.
    pub hide_completed: bool,
    /// Show secondary translations in zen mode.
    pub secondary_in_zen: bool,
    /// Hide the source if a secondary translation exists.
    pub hide_source_secondary: bool,
    /// Use the full width for tables.
    pub wide_tables: bool,
    /// Columns shown in listings.
    pub listing_columns: Vec<String>,
    /// Editor link template.
    pub editor_link: String,
    /// 0 full editor, 1 zen.
    pub translate_mode: i64,
    /// 0 vertical, 1 horizontal.
    pub zen_mode: i64,
    /// Extra editor characters.
    pub special_chars: String,
    /// Nearby strings shown.
    pub nearby_strings: i64,
    /// Watch projects contributed to.
    pub auto_watch: bool,
    /// Contribute to the personal translation memory.
    pub contribute_personal_tm: bool,
    /// Dashboard view.
    pub dashboard_view: i64,
    /// Component list shown on the dashboard (API link), or null.
    pub dashboard_component_list: Option<String>,
    /// Watched projects the viewer may see (API links).
    pub watched: Vec<String>,
    /// Website.
    pub website: String,
    /// Contact.
    pub contact: String,
    /// Liberapay username.
    pub liberapay: String,
    /// Fediverse address.
    pub fediverse: String,
    /// Code site.
    pub codesite: String,
    /// GitHub username.
    pub github: String,
    /// Twitter username.
    pub twitter: String,
    /// LinkedIn profile.
    pub linkedin: String,
    /// Location.
    pub location: String,
    /// Company.
    pub company: String,
    /// Public e-mail.
    pub public_email: String,
    /// E-mail used in commits.
    pub commit_email: String,
    /// Name used in commits: 0 default, 1 public, 2 private.
    pub commit_name: i64,
    /// Last two-factor sign-in method; Tolk has none.
    pub last_2fa: String,
}

/// What user managers see of an account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FullUserDto {
    /// Id.
    pub id: i64,
    /// Primary e-mail.
    pub email: String,
    /// Display name.
    pub full_name: String,
    /// Login name.
    pub username: String,
    /// Teams (API links).
    pub groups: Vec<String>,
    /// Profile.
    pub profile: ProfileDto,
    /// Notification subscriptions.
    pub notifications: String,
    /// Passes every permission check.
    pub is_superuser: bool,
    /// May sign in.
    pub is_active: bool,
    /// A bot account.
    pub is_bot: bool,
    /// When the account was created.
    #[schema(format = DateTime)]
    pub date_joined: String,
    /// When the account expires, or null.
    #[schema(format = DateTime)]
    pub date_expires: Option<String>,
    /// Last sign-in, or null.
    #[schema(format = DateTime)]
    pub last_login: Option<String>,
    /// API link.
    pub url: String,
    /// Statistics.
    pub statistics_url: String,
    /// The translations the user changed.
    pub contributions_url: String,
}

/// What users see after editing their own account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct OwnUserDto {
    /// Id.
    pub id: i64,
    /// Primary e-mail.
    pub email: String,
    /// Display name.
    pub full_name: String,
    /// Login name.
    pub username: String,
    /// Profile.
    pub profile: ProfileDto,
}

/// An account in the shape the caller may see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum UserDto {
    /// For user managers.
    Full(Box<FullUserDto>),
    /// For users editing themselves.
    Own(Box<OwnUserDto>),
    /// For everybody else.
    Basic(BasicUserDto),
}

fn profile(view: &UserView, links: &Links) -> ProfileDto {
    let s = &view.settings;
    let language_links =
        |codes: &[String]| codes.iter().map(|c| links.api(&["languages", c])).collect();
    ProfileDto {
        language: s.language.clone(),
        languages: language_links(&view.links.languages),
        secondary_languages: language_links(&view.links.secondary_languages),
        suggested: view.row.suggested,
        translated: view.row.translated,
        uploaded: view.row.uploaded,
        commented: view.row.commented,
        theme: s.theme.clone(),
        hide_completed: s.hide_completed,
        secondary_in_zen: s.secondary_in_zen,
        hide_source_secondary: s.hide_source_secondary,
        wide_tables: s.wide_tables,
        listing_columns: s.listing_columns.clone(),
        editor_link: s.editor_link.clone(),
        translate_mode: s.translate_mode,
        zen_mode: s.zen_mode,
        special_chars: s.special_chars.clone(),
        nearby_strings: s.nearby_strings,
        auto_watch: s.auto_watch,
        contribute_personal_tm: s.contribute_personal_tm,
        dashboard_view: s.dashboard_view,
        dashboard_component_list: None,
        watched: view
            .links
            .watched
            .iter()
            .map(|(slug, _)| links.api(&["projects", slug]))
            .collect(),
        website: s.website.clone(),
        contact: s.contact.clone(),
        liberapay: s.liberapay.clone(),
        fediverse: s.fediverse.clone(),
        codesite: s.codesite.clone(),
        github: s.github.clone(),
        twitter: s.twitter.clone(),
        linkedin: s.linkedin.clone(),
        location: s.location.clone(),
        company: s.company.clone(),
        public_email: s.public_email.clone(),
        commit_email: s.commit_email.clone(),
        commit_name: s.commit_name,
        last_2fa: String::new(),
    }
}

impl UserDto {
    /// The basic shape.
    pub fn basic(view: &UserView) -> Self {
        UserDto::Basic(BasicUserDto {
            id: view.row.id,
            full_name: view.row.full_name.clone(),
            username: view.row.username.clone(),
        })
    }

    /// The shape for users editing their own account.
    pub fn own(view: &UserView, links: &Links) -> Self {
        UserDto::Own(Box::new(OwnUserDto {
            id: view.row.id,
            email: view.row.email.clone(),
            full_name: view.row.full_name.clone(),
            username: view.row.username.clone(),
            profile: profile(view, links),
        }))
    }

    /// The full shape.
    pub fn full(view: &UserView, links: &Links) -> Self {
        let r = &view.row;
        let sub = |name: &str| links.api(&["users", &r.username, name]);
        UserDto::Full(Box::new(FullUserDto {
            id: r.id,
            email: r.email.clone(),
            full_name: r.full_name.clone(),
            username: r.username.clone(),
            groups: view
                .teams
                .iter()
                .map(|team| links.api(&["groups", &team.to_string()]))
                .collect(),
            profile: profile(view, links),
            notifications: sub("notifications"),
            is_superuser: r.is_superuser,
            is_active: r.is_active,
            is_bot: r.is_bot,
            date_joined: timestamp(r.date_joined),
            date_expires: r.date_expires.map(timestamp),
            last_login: r.last_login.map(timestamp),
            url: links.api(&["users", &r.username]),
            statistics_url: sub("statistics"),
            contributions_url: sub("contributions"),
        }))
    }
}
