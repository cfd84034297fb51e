//! Who may do what: permission codenames, built-in roles and the single
//! access check every use-case asks before it acts.
//!
//! The check knows superusers, the grants of a user's teams (their roles'
//! permissions on their selection of projects and languages, loaded once
//! per request into [`Subject`]) and what Weblate's built-in site-wide
//! teams grant everybody: anonymous callers are `Guests` (suggest and
//! access the repository of public projects), signed-in users are `Users`
//! (Power user on public projects), and both are `Viewers` (read protected
//! projects). Lists are filtered in the database by [`ProjectVisibility`],
//! the same rule as [`Subject::can_view_project`].

/// A permission codename (§29.3), e.g. `project.edit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Permission(&'static str);

macro_rules! permissions {
    ($($name:ident = $code:literal),* $(,)?) => {
        impl Permission {
            $(
                #[doc = concat!("`", $code, "`")]
                pub const $name: Permission = Permission($code);
            )*
            /// Every permission.
            pub const ALL: &'static [Permission] = &[$(Permission::$name),*];
        }
    };
}

permissions! {
    ANNOUNCEMENT_ADD = "announcement.add",
    ANNOUNCEMENT_DELETE = "announcement.delete",
    ANNOUNCEMENT_EDIT = "announcement.edit",
    BILLING_MANAGE = "billing.manage",
    CHANGE_DOWNLOAD = "change.download",
    COMMENT_ADD = "comment.add",
    COMMENT_DELETE = "comment.delete",
    COMMENT_RESOLVE = "comment.resolve",
    COMPONENT_EDIT = "component.edit",
    COMPONENT_LOCK = "component.lock",
    COMPONENTLIST_EDIT = "componentlist.edit",
    GLOSSARY_ADD = "glossary.add",
    GLOSSARY_DELETE = "glossary.delete",
    GLOSSARY_EDIT = "glossary.edit",
    GLOSSARY_TERMINOLOGY = "glossary.terminology",
    GLOSSARY_UPLOAD = "glossary.upload",
    GROUP_EDIT = "group.edit",
    GROUP_VIEW = "group.view",
    LANGUAGE_ADD = "language.add",
    LANGUAGE_EDIT = "language.edit",
    MACHINERY_EDIT = "machinery.edit",
    MACHINERY_VIEW = "machinery.view",
    MANAGEMENT_ADDONS = "management.addons",
    MANAGEMENT_CONFIGURE = "management.configure",
    MANAGEMENT_USE = "management.use",
    MEMORY_DELETE = "memory.delete",
    MEMORY_EDIT = "memory.edit",
    MEMORY_MANAGE = "memory.manage",
    PROJECT_ADD = "project.add",
    PROJECT_EDIT = "project.edit",
    PROJECT_PERMISSIONS = "project.permissions",
    REPORTS_VIEW = "reports.view",
    ROLE_EDIT = "role.edit",
    ROLE_VIEW = "role.view",
    SCREENSHOT_ADD = "screenshot.add",
    SCREENSHOT_DELETE = "screenshot.delete",
    SCREENSHOT_EDIT = "screenshot.edit",
    SOURCE_EDIT = "source.edit",
    SUGGESTION_ACCEPT = "suggestion.accept",
    SUGGESTION_ADD = "suggestion.add",
    SUGGESTION_DELETE = "suggestion.delete",
    SUGGESTION_VOTE = "suggestion.vote",
    TRANSLATION_ADD = "translation.add",
    TRANSLATION_ADD_MORE = "translation.add_more",
    TRANSLATION_AUTO = "translation.auto",
    TRANSLATION_DELETE = "translation.delete",
    TRANSLATION_DOWNLOAD = "translation.download",
    UNIT_ADD = "unit.add",
    UNIT_BULK_EDIT = "unit.bulk_edit",
    UNIT_CHECK = "unit.check",
    UNIT_DELETE = "unit.delete",
    UNIT_EDIT = "unit.edit",
    UNIT_OVERRIDE = "unit.override",
    UNIT_REVIEW = "unit.review",
    UNIT_TEMPLATE = "unit.template",
    UPLOAD_AUTHORSHIP = "upload.authorship",
    UPLOAD_OVERWRITE = "upload.overwrite",
    UPLOAD_PERFORM = "upload.perform",
    USER_EDIT = "user.edit",
    USER_VIEW = "user.view",
    VCS_ACCESS = "vcs.access",
    VCS_COMMIT = "vcs.commit",
    VCS_PUSH = "vcs.push",
    VCS_RESET = "vcs.reset",
    VCS_UPDATE = "vcs.update",
    VCS_VIEW = "vcs.view",
    WORKSPACE_ADD = "workspace.add",
    WORKSPACE_ADD_PROJECT = "workspace.add_project",
    WORKSPACE_EDIT = "workspace.edit",
    WORKSPACE_EDIT_MEMBERS = "workspace.edit_members",
}

/// Site-wide permissions: granted only by teams selecting all projects, or to superusers.
const GLOBAL: &[Permission] = &[
    Permission::MANAGEMENT_USE,
    Permission::MANAGEMENT_CONFIGURE,
    Permission::PROJECT_ADD,
    Permission::WORKSPACE_ADD,
    Permission::LANGUAGE_ADD,
    Permission::LANGUAGE_EDIT,
    Permission::GROUP_EDIT,
    Permission::GROUP_VIEW,
    Permission::USER_EDIT,
    Permission::USER_VIEW,
    Permission::ROLE_EDIT,
    Permission::ROLE_VIEW,
    Permission::ANNOUNCEMENT_EDIT,
    Permission::MEMORY_MANAGE,
    Permission::MACHINERY_EDIT,
    Permission::COMPONENTLIST_EDIT,
    Permission::BILLING_MANAGE,
    Permission::MANAGEMENT_ADDONS,
];

impl Permission {
    /// The codename, e.g. `project.edit`.
    pub fn codename(self) -> &'static str {
        self.0
    }

    /// Looks up a codename.
    pub fn from_codename(codename: &str) -> Option<Permission> {
        Self::ALL.iter().copied().find(|p| p.0 == codename)
    }

    /// True for site-wide permissions.
    pub fn is_global(self) -> bool {
        GLOBAL.contains(&self)
    }
}

/// The permissions every translating role shares (§29.4).
const TRANSLATE: &[Permission] = &[
    Permission::COMMENT_ADD,
    Permission::SUGGESTION_ACCEPT,
    Permission::SUGGESTION_ADD,
    Permission::SUGGESTION_VOTE,
    Permission::UNIT_CHECK,
    Permission::UNIT_EDIT,
    Permission::TRANSLATION_DOWNLOAD,
    Permission::UPLOAD_OVERWRITE,
    Permission::UPLOAD_PERFORM,
    Permission::MACHINERY_VIEW,
];

/// The built-in `Power user` role, granted to signed-in users on public projects.
fn power_user(permission: Permission) -> bool {
    TRANSLATE.contains(&permission)
        || [
            Permission::TRANSLATION_ADD,
            Permission::UNIT_TEMPLATE,
            Permission::SUGGESTION_DELETE,
            Permission::VCS_ACCESS,
            Permission::VCS_VIEW,
            Permission::GLOSSARY_ADD,
            Permission::GLOSSARY_EDIT,
            Permission::GLOSSARY_DELETE,
            Permission::GLOSSARY_UPLOAD,
        ]
        .contains(&permission)
}

/// The built-in `Add suggestion` and `Access repository` roles of the `Guests` team.
fn guest(permission: Permission) -> bool {
    [
        Permission::SUGGESTION_ADD,
        Permission::TRANSLATION_DOWNLOAD,
        Permission::VCS_ACCESS,
        Permission::VCS_VIEW,
    ]
    .contains(&permission)
}

/// Project access control levels (`access_control`, §29.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessControl {
    /// Visible and translatable by everybody.
    Public,
    /// Visible to everybody, translatable by members.
    Protected,
    /// Visible only to members.
    Private,
    /// Access managed entirely by custom teams.
    Custom,
}

impl AccessControl {
    /// The stored numeric code.
    pub fn code(self) -> i32 {
        match self {
            AccessControl::Public => 0,
            AccessControl::Protected => 1,
            AccessControl::Private => 100,
            AccessControl::Custom => 200,
        }
    }

    /// Parses a stored code.
    pub fn from_code(code: i32) -> Option<AccessControl> {
        [
            AccessControl::Public,
            AccessControl::Protected,
            AccessControl::Private,
            AccessControl::Custom,
        ]
        .into_iter()
        .find(|a| a.code() == code)
    }

    /// Levels visible to callers who are not members of the project.
    pub const OPEN: [AccessControl; 2] = [AccessControl::Public, AccessControl::Protected];
}

/// A project as the access check sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProjectRef {
    /// The project's id.
    pub id: i64,
    /// Its access level.
    pub access: AccessControl,
}

/// Which projects a team's grant covers (`project_selection`, §29.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projects {
    /// The projects listed on the team (manual selection).
    Listed(Vec<i64>),
    /// Every project.
    All,
    /// Every project with this access level (all public, all protected).
    AllWith(AccessControl),
}

impl Projects {
    /// Reads a team's selection code with the projects listed on it; the
    /// component-list selection grants no whole project.
    pub fn from_selection(code: i32, listed: Vec<i64>) -> Projects {
        match code {
            1 => Projects::All,
            3 => Projects::AllWith(AccessControl::Public),
            4 => Projects::AllWith(AccessControl::Protected),
            2 => Projects::Listed(Vec::new()),
            _ => Projects::Listed(listed),
        }
    }

    fn covers(&self, project: ProjectRef) -> bool {
        match self {
            Projects::Listed(ids) => ids.contains(&project.id),
            Projects::All => true,
            Projects::AllWith(access) => *access == project.access,
        }
    }
}

/// Which languages a team's grant covers (`language_selection`, §29.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Languages {
    /// The languages listed on the team.
    Listed(Vec<i64>),
    /// Every language.
    All,
}

impl Languages {
    /// Reads a team's selection code with the languages listed on it.
    pub fn from_selection(code: i32, listed: Vec<i64>) -> Languages {
        match code {
            1 => Languages::All,
            _ => Languages::Listed(listed),
        }
    }

    fn covers(&self, language: i64) -> bool {
        match self {
            Languages::Listed(ids) => ids.contains(&language),
            Languages::All => true,
        }
    }
}

/// What one team gives its members: its roles' permissions, on its
/// selection of projects and languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The permissions of the team's roles.
    pub permissions: Vec<Permission>,
    /// The projects they apply to.
    pub projects: Projects,
    /// The languages they apply to, for translations and their strings.
    pub languages: Languages,
}

impl Grant {
    /// True when this grant gives `permission` on `target`.
    fn gives(&self, permission: Permission, target: Target) -> bool {
        if !self.permissions.contains(&permission) {
            return false;
        }
        match target {
            Target::Site | Target::Language(_) => self.projects == Projects::All,
            Target::Project(project) => self.projects.covers(project),
            // Restricted components are reached only through teams that
            // name them; those selections come with teams (issue 10).
            Target::Component {
                project,
                restricted,
            } => !restricted && self.projects.covers(project),
            Target::Translation {
                project,
                restricted,
                language,
            } => !restricted && self.projects.covers(project) && self.languages.covers(language),
        }
    }
}

/// The caller a use-case acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Nobody signed in.
    Anonymous,
    /// Tolk itself, acting for the command line or a background task:
    /// passes every check and is recorded as nobody.
    System,
    /// A signed-in user.
    User {
        /// The user's id.
        id: i64,
        /// Superusers pass every check.
        superuser: bool,
        /// What the user's teams give, loaded once per request.
        grants: Vec<Grant>,
    },
}

/// The object a permission is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The whole site (global permissions: accounts, teams, languages...).
    Site,
    /// A language's own definition.
    Language(i64),
    /// A project.
    Project(ProjectRef),
    /// A component of a project.
    Component {
        /// Its project.
        project: ProjectRef,
        /// Only teams naming it reach it.
        restricted: bool,
    },
    /// A translation (or one of its strings): a component in a language.
    Translation {
        /// The component's project.
        project: ProjectRef,
        /// Whether the component is restricted.
        restricted: bool,
        /// The translation's language id.
        language: i64,
    },
}

impl Target {
    /// The project the target belongs to, if any.
    fn project(self) -> Option<ProjectRef> {
        match self {
            Target::Site | Target::Language(_) => None,
            Target::Project(project)
            | Target::Component { project, .. }
            | Target::Translation { project, .. } => Some(project),
        }
    }
}

/// Which projects a caller may see, for filtering lists in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectVisibility {
    /// Every project.
    All,
    /// Projects with one of these access levels, and these projects.
    Some {
        /// Access levels visible to everybody the filter is for.
        levels: Vec<AccessControl>,
        /// Projects visible beyond those levels (granted by teams).
        projects: Vec<i64>,
    },
}

impl ProjectVisibility {
    /// True when this project is visible.
    pub fn allows(&self, project: ProjectRef) -> bool {
        match self {
            ProjectVisibility::All => true,
            ProjectVisibility::Some { levels, projects } => {
                levels.contains(&project.access) || projects.contains(&project.id)
            }
        }
    }
}

impl Subject {
    /// A signed-in user whom no team grants anything yet.
    pub fn user(id: i64, superuser: bool) -> Subject {
        Subject::User {
            id,
            superuser,
            grants: Vec::new(),
        }
    }

    /// True for a signed-in user.
    pub fn is_authenticated(&self) -> bool {
        !matches!(self, Subject::Anonymous)
    }

    /// True for a superuser.
    pub fn is_superuser(&self) -> bool {
        matches!(
            self,
            Subject::System
                | Subject::User {
                    superuser: true,
                    ..
                }
        )
    }

    /// The signed-in user's id.
    pub fn user_id(&self) -> Option<i64> {
        match self {
            Subject::User { id, .. } => Some(*id),
            Subject::Anonymous | Subject::System => None,
        }
    }

    fn grants(&self) -> &[Grant] {
        match self {
            Subject::User { grants, .. } => grants,
            Subject::Anonymous | Subject::System => &[],
        }
    }

    /// The one access check: may this caller use `permission` on `target`?
    /// Superusers may do everything; otherwise the caller's teams decide,
    /// and the built-in teams everybody is in: on public projects signed-in
    /// users are `Users` (Power user) and anonymous callers `Guests`.
    pub fn can(&self, permission: Permission, target: Target) -> bool {
        if self.is_superuser() || self.grants().iter().any(|g| g.gives(permission, target)) {
            return true;
        }
        match target.project() {
            Some(project) if project.access == AccessControl::Public && !permission.is_global() => {
                if self.is_authenticated() {
                    power_user(permission)
                } else {
                    guest(permission)
                }
            }
            _ => false,
        }
    }

    /// Which projects this caller may see: public and protected ones, and
    /// those a team of theirs covers.
    pub fn project_visibility(&self) -> ProjectVisibility {
        if self.is_superuser() || self.grants().iter().any(|g| g.projects == Projects::All) {
            return ProjectVisibility::All;
        }
        let mut projects: Vec<i64> = self
            .grants()
            .iter()
            .flat_map(|g| match &g.projects {
                Projects::Listed(ids) => ids.clone(),
                Projects::All | Projects::AllWith(_) => Vec::new(),
            })
            .collect();
        projects.sort_unstable();
        projects.dedup();
        let mut levels = AccessControl::OPEN.to_vec();
        for grant in self.grants() {
            if let Projects::AllWith(access) = grant.projects
                && !levels.contains(&access)
            {
                levels.push(access);
            }
        }
        ProjectVisibility::Some { levels, projects }
    }

    /// May this caller see this project?
    pub fn can_view_project(&self, project: ProjectRef) -> bool {
        self.project_visibility().allows(project)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANON: Subject = Subject::Anonymous;

    fn user() -> Subject {
        Subject::user(2, false)
    }

    fn admin() -> Subject {
        Subject::user(1, true)
    }

    fn project(id: i64, access: AccessControl) -> ProjectRef {
        ProjectRef { id, access }
    }

    #[test]
    fn superuser_passes_every_check() {
        assert!(Subject::System.can(Permission::USER_EDIT, Target::Site));
        assert_eq!(Subject::System.user_id(), None);
        for p in Permission::ALL {
            assert!(admin().can(*p, Target::Site));
            assert!(admin().can(*p, Target::Project(project(1, AccessControl::Private))));
        }
    }

    #[test]
    fn global_permissions_need_a_superuser_or_a_site_wide_team() {
        assert!(!user().can(Permission::PROJECT_ADD, Target::Site));
        assert!(!user().can(Permission::LANGUAGE_EDIT, Target::Language(3)));
        assert!(!ANON.can(Permission::USER_VIEW, Target::Site));
        let public = Target::Project(project(1, AccessControl::Public));
        assert!(!user().can(Permission::USER_EDIT, public));
        let managers = Subject::User {
            id: 2,
            superuser: false,
            grants: vec![Grant {
                permissions: vec![Permission::LANGUAGE_EDIT],
                projects: Projects::All,
                languages: Languages::All,
            }],
        };
        assert!(managers.can(Permission::LANGUAGE_EDIT, Target::Language(3)));
        assert!(!managers.can(Permission::USER_EDIT, Target::Site));
    }

    #[test]
    fn default_teams_on_public_projects() {
        let public = Target::Project(project(1, AccessControl::Public));
        assert!(user().can(Permission::UNIT_EDIT, public));
        assert!(!user().can(Permission::PROJECT_EDIT, public));
        assert!(!user().can(Permission::UNIT_REVIEW, public));
        assert!(ANON.can(Permission::SUGGESTION_ADD, public));
        assert!(!ANON.can(Permission::UNIT_EDIT, public));
        let protected = Target::Project(project(2, AccessControl::Protected));
        assert!(!user().can(Permission::UNIT_EDIT, protected));
    }

    #[test]
    fn teams_grant_on_their_projects_and_languages() {
        let private = project(7, AccessControl::Private);
        let translator = Subject::User {
            id: 2,
            superuser: false,
            grants: vec![Grant {
                permissions: vec![Permission::UNIT_EDIT],
                projects: Projects::Listed(vec![7]),
                languages: Languages::Listed(vec![30]),
            }],
        };
        let translation = |language| Target::Translation {
            project: private,
            restricted: false,
            language,
        };
        assert!(translator.can(Permission::UNIT_EDIT, translation(30)));
        assert!(!translator.can(Permission::UNIT_EDIT, translation(31)));
        assert!(!translator.can(Permission::PROJECT_EDIT, Target::Project(private)));
        assert!(translator.can_view_project(private));
        assert!(!translator.can_view_project(project(8, AccessControl::Private)));
        let restricted = Target::Component {
            project: private,
            restricted: true,
        };
        assert!(!translator.can(Permission::UNIT_EDIT, restricted));
        assert_eq!(
            translator.project_visibility(),
            ProjectVisibility::Some {
                levels: AccessControl::OPEN.to_vec(),
                projects: vec![7]
            }
        );
    }

    #[test]
    fn visibility() {
        let private = project(1, AccessControl::Private);
        assert!(ANON.can_view_project(project(1, AccessControl::Protected)));
        assert!(!ANON.can_view_project(private));
        assert!(!user().can_view_project(project(1, AccessControl::Custom)));
        assert!(admin().can_view_project(private));
        assert_eq!(admin().project_visibility(), ProjectVisibility::All);
    }

    #[test]
    fn selections_read_weblate_codes() {
        assert_eq!(Projects::from_selection(1, vec![4]), Projects::All);
        assert_eq!(
            Projects::from_selection(0, vec![4]),
            Projects::Listed(vec![4])
        );
        assert_eq!(
            Projects::from_selection(4, vec![]),
            Projects::AllWith(AccessControl::Protected)
        );
    }

    #[test]
    fn codenames_round_trip() {
        assert_eq!(Permission::ALL.len(), 70);
        for p in Permission::ALL {
            assert_eq!(Permission::from_codename(p.codename()), Some(*p));
        }
        assert_eq!(AccessControl::from_code(100), Some(AccessControl::Private));
        assert_eq!(AccessControl::from_code(5), None);
    }
}
