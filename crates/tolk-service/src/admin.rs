//! Administration from the command line.

use tolk_domain::password::NewPassword;
use tolk_domain::permission::Subject;
use tolk_domain::user::{ANONYMOUS_USERNAME, UserFields};
use tolk_domain::validation::FieldErrors;
use tolk_store::users;

use crate::{ServiceError, ServiceResult};

impl crate::auth::Auth<'_> {
    /// Creates a superuser (or, with `update`, promotes an existing
    /// account), sets its password for the web pages when one is given,
    /// and returns a new personal API token for it.
    pub fn create_admin(
        &self,
        username: &str,
        email: &str,
        update: bool,
        password: Option<&str>,
    ) -> ServiceResult<String> {
        let fields = UserFields {
            username: username.to_owned(),
            full_name: username.to_owned(),
            email: email.to_owned(),
            is_superuser: true,
            is_active: true,
            is_bot: false,
            date_expires: None,
        };
        let mut errors = fields.validate();
        if let Some(password) = password {
            let rules = NewPassword {
                password,
                repeated: password,
                username,
                email,
            };
            for error in rules.check().iter() {
                errors.push("password", &error.code, error.detail.clone());
            }
        }
        errors.into_result()?;
        let existing = self
            .store
            .read(|conn| users::get_by_username(conn, username))?;
        let user_id = match existing {
            Some(row) if update => {
                let settings = row.settings()?;
                let fields = UserFields {
                    full_name: row.full_name.clone(),
                    ..fields
                };
                self.store
                    .write(|conn| users::update(conn, row.id, &row.username, &fields, &settings))?
                    .ok_or(ServiceError::NotFound)?
                    .id
            }
            Some(_) => {
                let mut errors = FieldErrors::default();
                errors.unique("username", "User", "Username");
                return Err(ServiceError::Validation(errors));
            }
            None => {
                self.users().create(&Subject::System, Ok(fields))?;
                self.store
                    .read(|conn| users::id_of(conn, username))?
                    .ok_or(ServiceError::NotFound)?
            }
        };
        if let Some(password) = password {
            self.accounts().set_password(user_id, password)?;
        }
        self.auth().issue_user_token(user_id)
    }

    /// Mints a new personal API token for the active account `username`,
    /// whatever its permissions, and returns it.
    pub fn issue_token_for(&self, username: &str) -> ServiceResult<String> {
        let row = self
            .store
            .read(|conn| users::get_by_username(conn, username))?
            .filter(|row| row.is_active && row.username != ANONYMOUS_USERNAME)
            .ok_or_else(|| {
                ServiceError::invalid("username", "No active account has this username.")
            })?;
        self.auth().issue_user_token(row.id)
    }
}
