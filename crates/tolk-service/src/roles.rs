//! Roles (§5): who sees which, and managing them (`role.edit`).

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::teams::{ROLE_NAME_MAX, RolePatch, read_permissions};
use tolk_domain::validation::{FieldErrors, check_text};
use tolk_store::roles::{self, Role, RolesOf};
use tolk_store::{DbConnection, Page, PageRequest};

use crate::access::{page, require};
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "Can not manage roles";

const NAME: Unique = Unique {
    attr: "name",
    model: "Role",
    label: "Name",
};

/// Whose roles the caller sees: every role with `role.view` or
/// `role.edit`, else those of the caller's teams.
fn seen_by(conn: &mut DbConnection, subject: &Subject) -> ServiceResult<RolesOf> {
    if subject.can(Permission::ROLE_VIEW, Target::Site)
        || subject.can(Permission::ROLE_EDIT, Target::Site)
    {
        return Ok(RolesOf::Everybody);
    }
    Ok(RolesOf::User(crate::access::account(conn, subject)?))
}

crate::service::area!(
    /// The use-cases of roles.
    Roles,
    roles
);

impl Roles<'_> {
    /// Lists the roles the caller sees, by id.
    pub fn list(&self, subject: &Subject, request: PageRequest) -> ServiceResult<Page<Role>> {
        self.store.read(|conn| {
            let whose = seen_by(conn, subject)?;
            page(roles::list(conn, whose, request))
        })
    }

    /// One role, if the caller sees it.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<Role> {
        self.store.read(|conn| {
            let whose = seen_by(conn, subject)?;
            roles::get(conn, whose, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Creates a role (needs `role.edit`).
    pub fn create(
        &self,
        subject: &Subject,
        body: Result<RolePatch, FieldErrors>,
    ) -> ServiceResult<Role> {
        require(subject, Permission::ROLE_EDIT, Target::Site, DENIED)?;
        let body = body?;
        self.store.write(|conn| {
            let name = body.name.clone().unwrap_or_default();
            let permissions = validated(conn, &name, body.permissions.as_deref(), None)?;
            let id = roles::insert(conn, &name, &permissions)
                .map_err(|e| unique_violation(e, &[NAME]))?;
            roles::get_by_ids(conn, &[id])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })
    }

    /// Changes a role (needs `role.edit`): `replace` (PUT) makes the
    /// permissions given its only ones, else (PATCH) they are added.
    pub fn update(
        &self,
        subject: &Subject,
        id: i64,
        body: Result<RolePatch, FieldErrors>,
        replace: bool,
    ) -> ServiceResult<Role> {
        self.store.write(|conn| {
            let current = self.visible_role(conn, subject, id)?;
            require(subject, Permission::ROLE_EDIT, Target::Site, DENIED)?;
            let body = body?;
            let name = body.name.unwrap_or(current.name);
            let permissions = validated(conn, &name, body.permissions.as_deref(), Some(id))?;
            let replace = replace && body.permissions.is_some();
            if !roles::update(conn, id, &name, &permissions, replace)
                .map_err(|e| unique_violation(e, &[NAME]))?
            {
                return Err(ServiceError::NotFound);
            }
            roles::get_by_ids(conn, &[id])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })
    }

    /// Removes a role (needs `role.edit`); the teams that had it lose it.
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            self.visible_role(conn, subject, id)?;
            require(subject, Permission::ROLE_EDIT, Target::Site, DENIED)?;
            if roles::delete(conn, id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }

    fn visible_role(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        id: i64,
    ) -> ServiceResult<Role> {
        let whose = seen_by(conn, subject)?;
        roles::get(conn, whose, id)?.ok_or(ServiceError::NotFound)
    }
}

/// Checks a role's name (free, not blank) and permissions; the permissions.
fn validated(
    conn: &mut DbConnection,
    name: &str,
    permissions: Option<&[String]>,
    except: Option<i64>,
) -> ServiceResult<Vec<Permission>> {
    let mut errors = FieldErrors::default();
    check_text(name, "name", ROLE_NAME_MAX, &mut errors);
    if !errors.has("name") && roles::name_taken(conn, name, except)? {
        NAME.report(&mut errors);
    }
    let permissions = read_permissions(permissions.unwrap_or_default(), &mut errors);
    errors.into_result()?;
    Ok(permissions)
}
