//! Project tokens (`wlp_…`): each acts as a bot account that is a member
//! of one team of one project, so it reaches that project only. Project
//! managers (`project.permissions`) make and revoke them; the key is shown
//! once and only its hash is kept. Users rotate and revoke their own
//! personal tokens here too.

use chrono::NaiveDateTime;
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::user::UserFields;
use tolk_domain::validation::{FieldErrors, check_text};
use tolk_store::projects::Project;
use tolk_store::teams;
use tolk_store::tokens::{self, ProjectToken};
use tolk_store::{DbConnection, time, users};

use crate::access::require;
use crate::auth::{PROJECT_TOKEN_PREFIX, generate_token, hash_token, new_user_token};
use crate::projects::visible_project;
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "Can not manage project access";

/// What a new project token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProjectToken {
    /// Its name (the bot's full name).
    pub name: String,
    /// The project team its bot joins (default: `Administration`).
    pub team_id: Option<i64>,
    /// When it stops working.
    pub expires: Option<NaiveDateTime>,
}

/// The project `slug`, if the caller may manage its access.
fn managed(conn: &mut DbConnection, subject: &Subject, slug: &str) -> ServiceResult<Project> {
    let project = visible_project(conn, subject, slug)?;
    require(
        subject,
        Permission::PROJECT_PERMISSIONS,
        Target::Project(project.as_ref()),
        DENIED,
    )?;
    Ok(project)
}

/// A name for a bot account of `project` that no account has.
fn bot_username(conn: &mut DbConnection, project: &str) -> ServiceResult<String> {
    loop {
        let suffix = generate_token("")[..8].to_ascii_lowercase();
        let name = format!("bot-{project}-{suffix}");
        if users::get_by_username(conn, &name)?.is_none() {
            return Ok(name);
        }
    }
}

crate::service::area!(
    /// The use-cases of API tokens: a project's tokens, and rotating or revoking a person's.
    Tokens,
    tokens
);

impl Tokens<'_> {
    /// The tokens of a project (needs `project.permissions` there).
    pub fn list(&self, subject: &Subject, slug: &str) -> ServiceResult<Vec<ProjectToken>> {
        self.store.read(|conn| {
            let project = managed(conn, subject, slug)?;
            Ok(tokens::of_project(conn, project.id)?)
        })
    }

    /// Makes a project token: a bot account in one of the project's
    /// teams. The token and its key, which is shown only now.
    pub fn create(
        &self,
        subject: &Subject,
        slug: &str,
        new: NewProjectToken,
    ) -> ServiceResult<(ProjectToken, String)> {
        self.store.write(|conn| {
            let project = managed(conn, subject, slug)?;
            let mut errors = FieldErrors::default();
            check_text(&new.name, "name", 150, &mut errors);
            let project_teams = teams::of_project(conn, project.id)?;
            let team = match new.team_id {
                Some(id) => project_teams.iter().find(|(team, _)| *team == id),
                None => project_teams
                    .iter()
                    .find(|(_, name)| name == "Administration"),
            };
            let Some(team) = team else {
                errors.invalid("team_id", "Choose a team of this project.");
                return Err(errors.into());
            };
            errors.into_result()?;
            let username = bot_username(conn, &project.settings.slug)?;
            let bot = users::insert(
                conn,
                &UserFields {
                    email: format!("{username}@bots.tolk.invalid"),
                    username,
                    full_name: new.name.clone(),
                    is_bot: true,
                    ..UserFields::default()
                },
                time::now(),
            )?;
            teams::set_member(conn, team.0, bot.id, true)?;
            let key = generate_token(PROJECT_TOKEN_PREFIX);
            let created = time::now();
            let id = tokens::insert(
                conn,
                &tokens::NewToken {
                    user_id: bot.id,
                    project_id: Some(project.id),
                    key_hash: &hash_token(&key),
                    created,
                    expires: new.expires,
                },
            )?;
            let made = ProjectToken {
                id,
                user: bot,
                created,
                expires: new.expires,
            };
            Ok((made, key))
        })
    }

    /// Revokes a project token: the key stops working and its bot is
    /// deactivated.
    pub fn revoke(&self, subject: &Subject, slug: &str, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let project = managed(conn, subject, slug)?;
            let bot =
                tokens::delete_of_project(conn, project.id, id)?.ok_or(ServiceError::NotFound)?;
            if let Some(row) = users::get(conn, bot)? {
                users::deactivate(conn, row.id, &row.username)?;
            }
            Ok(())
        })
    }

    /// Replaces a user's personal tokens with a new one (oneself, or with
    /// `user.edit`); the new key.
    pub fn rotate_user_token(&self, subject: &Subject, username: &str) -> ServiceResult<String> {
        self.store.write(|conn| {
            let id = own_account(conn, subject, username)?;
            tokens::delete_for_user(conn, id)?;
            new_user_token(conn, id)
        })
    }

    /// Revokes a user's personal tokens (oneself, or with `user.edit`).
    pub fn revoke_user_tokens(&self, subject: &Subject, username: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let id = own_account(conn, subject, username)?;
            Ok(tokens::delete_for_user(conn, id)?)
        })
    }

    /// Makes a project token for the command line (`tolk token --project`).
    pub fn issue(&self, project: &str, name: &str) -> ServiceResult<String> {
        let new = NewProjectToken {
            name: name.to_owned(),
            team_id: None,
            expires: None,
        };
        Ok(self.tokens().create(&Subject::System, project, new)?.1)
    }
}

/// The id of the account `username`, if it is the caller's own or the
/// caller manages users; bots' tokens are their project's to manage.
fn own_account(conn: &mut DbConnection, subject: &Subject, username: &str) -> ServiceResult<i64> {
    let (view, _) = crate::users::editable_user(conn, subject, username, true)?;
    if view.row.is_bot {
        return Err(ServiceError::PermissionDenied(
            "A project token is managed by its project.".into(),
        ));
    }
    Ok(view.row.id)
}
