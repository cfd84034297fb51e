//! Who may do what: permission codenames and the single access check
//! every use-case asks before it acts.
//!
//! The check knows superusers and the grants of the caller's teams (their
//! roles' permissions on their selection of projects, components and
//! languages, loaded once per request into [`Subject`]). Anonymous callers
//! have grants too: those of the teams of the account that stands for
//! them (`Guests` and `Viewers` on a new site, see [`crate::teams`]). Lists
//! are filtered in the database by [`ProjectVisibility`], the same rule as
//! [`Subject::can_view_project`].

/// A permission codename (§29.3), e.g. `project.edit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Permission(&'static str);

impl Permission {
    /// The permission asked instead on the strings of a glossary
    /// (`glossary`), as Weblate does: adding, editing and deleting terms
    /// and uploading files are the `glossary.*` permissions there.
    pub fn on_glossary(self, glossary: bool) -> Permission {
        if !glossary {
            return self;
        }
        match self {
            Permission::UNIT_ADD => Permission::GLOSSARY_ADD,
            Permission::UNIT_EDIT => Permission::GLOSSARY_EDIT,
            Permission::UNIT_DELETE => Permission::GLOSSARY_DELETE,
            Permission::UPLOAD_PERFORM => Permission::GLOSSARY_UPLOAD,
            other => other,
        }
    }
}

macro_rules! permissions {
    ($($name:ident = $code:literal),* $(,)?) => {
        impl Permission {
            $(
                #[doc = concat!("`", $code, "`")]
                pub const $name: Permission = Permission($code);
            )*
            /// Every permission, in Weblate's order (roles list theirs so).
            pub const ALL: &'static [Permission] = &[$(Permission::$name),*];
        }
    };
}

permissions! {
    CHANGE_DOWNLOAD = "change.download",
    COMMENT_ADD = "comment.add",
    COMMENT_DELETE = "comment.delete",
    COMMENT_RESOLVE = "comment.resolve",
    COMPONENT_EDIT = "component.edit",
    COMPONENT_LOCK = "component.lock",
    GLOSSARY_ADD = "glossary.add",
    GLOSSARY_TERMINOLOGY = "glossary.terminology",
    GLOSSARY_EDIT = "glossary.edit",
    GLOSSARY_DELETE = "glossary.delete",
    GLOSSARY_UPLOAD = "glossary.upload",
    MACHINERY_VIEW = "machinery.view",
    MEMORY_EDIT = "memory.edit",
    MEMORY_DELETE = "memory.delete",
    PROJECT_EDIT = "project.edit",
    PROJECT_PERMISSIONS = "project.permissions",
    REPORTS_VIEW = "reports.view",
    SCREENSHOT_ADD = "screenshot.add",
    SCREENSHOT_EDIT = "screenshot.edit",
    SCREENSHOT_DELETE = "screenshot.delete",
    SOURCE_EDIT = "source.edit",
    UNIT_ADD = "unit.add",
    UNIT_DELETE = "unit.delete",
    UNIT_CHECK = "unit.check",
    UNIT_EDIT = "unit.edit",
    UNIT_REVIEW = "unit.review",
    UNIT_BULK_EDIT = "unit.bulk_edit",
    UNIT_OVERRIDE = "unit.override",
    UNIT_TEMPLATE = "unit.template",
    SUGGESTION_ACCEPT = "suggestion.accept",
    SUGGESTION_ADD = "suggestion.add",
    SUGGESTION_DELETE = "suggestion.delete",
    SUGGESTION_VOTE = "suggestion.vote",
    TRANSLATION_ADD = "translation.add",
    TRANSLATION_AUTO = "translation.auto",
    TRANSLATION_DELETE = "translation.delete",
    TRANSLATION_DOWNLOAD = "translation.download",
    TRANSLATION_ADD_MORE = "translation.add_more",
    UPLOAD_AUTHORSHIP = "upload.authorship",
    UPLOAD_OVERWRITE = "upload.overwrite",
    UPLOAD_PERFORM = "upload.perform",
    VCS_ACCESS = "vcs.access",
    VCS_COMMIT = "vcs.commit",
    VCS_PUSH = "vcs.push",
    VCS_RESET = "vcs.reset",
    VCS_VIEW = "vcs.view",
    VCS_UPDATE = "vcs.update",
    ANNOUNCEMENT_ADD = "announcement.add",
    ANNOUNCEMENT_DELETE = "announcement.delete",
    WORKSPACE_EDIT = "workspace.edit",
    WORKSPACE_ADD_PROJECT = "workspace.add_project",
    WORKSPACE_EDIT_MEMBERS = "workspace.edit_members",
    MANAGEMENT_USE = "management.use",
    MANAGEMENT_CONFIGURE = "management.configure",
    PROJECT_ADD = "project.add",
    WORKSPACE_ADD = "workspace.add",
    LANGUAGE_ADD = "language.add",
    LANGUAGE_EDIT = "language.edit",
    GROUP_EDIT = "group.edit",
    GROUP_VIEW = "group.view",
    USER_EDIT = "user.edit",
    USER_VIEW = "user.view",
    ROLE_EDIT = "role.edit",
    ROLE_VIEW = "role.view",
    ANNOUNCEMENT_EDIT = "announcement.edit",
    MEMORY_MANAGE = "memory.manage",
    MACHINERY_EDIT = "machinery.edit",
    COMPONENTLIST_EDIT = "componentlist.edit",
    BILLING_MANAGE = "billing.manage",
    MANAGEMENT_ADDONS = "management.addons",
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

    /// Every level.
    pub const EVERY: [AccessControl; 4] = [
        AccessControl::Public,
        AccessControl::Protected,
        AccessControl::Private,
        AccessControl::Custom,
    ];
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

    /// These languages, limited to `limit` (a membership limited to
    /// some languages).
    pub fn limited_to(&self, limit: &[i64]) -> Languages {
        match self {
            Languages::All => Languages::Listed(limit.to_vec()),
            Languages::Listed(listed) => Languages::Listed(
                listed
                    .iter()
                    .copied()
                    .filter(|l| limit.contains(l))
                    .collect(),
            ),
        }
    }

    fn covers(&self, language: i64) -> bool {
        match self {
            Languages::Listed(ids) => ids.contains(&language),
            Languages::All => true,
        }
    }
}

/// A component listed on a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedComponent {
    /// The component's id.
    pub id: i64,
    /// Its project's id.
    pub project: i64,
}

/// What one team gives its members: its roles' permissions, on its
/// selection of projects, the components listed on it, and languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The permissions of the team's roles (none for a team that only
    /// shows its projects, as `Viewers`).
    pub permissions: Vec<Permission>,
    /// The projects they apply to.
    pub projects: Projects,
    /// Components listed on the team: the permissions apply to them, even
    /// when restricted, and their projects are visible.
    pub components: Vec<ListedComponent>,
    /// The languages they apply to, for translations and their strings.
    pub languages: Languages,
}

impl Grant {
    /// A grant of `permissions` on `projects`, for every language, listing
    /// no component.
    pub fn on(permissions: Vec<Permission>, projects: Projects) -> Grant {
        Grant {
            permissions,
            projects,
            components: Vec::new(),
            languages: Languages::All,
        }
    }

    /// True when the team lists the component.
    fn lists(&self, component: i64) -> bool {
        self.components.iter().any(|c| c.id == component)
    }

    /// True when the grant reaches the component: listed on the team, or
    /// in its projects unless restricted.
    fn reaches(&self, project: ProjectRef, component: i64, restricted: bool) -> bool {
        self.lists(component) || (!restricted && self.projects.covers(project))
    }

    /// True when this grant gives `permission` on `target`.
    fn gives(&self, permission: Permission, target: Target) -> bool {
        if !self.permissions.contains(&permission) {
            return false;
        }
        match target {
            Target::Site | Target::Language(_) => self.projects == Projects::All,
            Target::Project(project) => self.projects.covers(project),
            Target::Component {
                project,
                id,
                restricted,
            } => self.reaches(project, id, restricted),
            Target::Translation {
                project,
                component,
                restricted,
                language,
            } => self.reaches(project, component, restricted) && self.languages.covers(language),
        }
    }
}

/// The caller a use-case acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Nobody signed in.
    Anonymous {
        /// What the teams of the account standing for anonymous callers give.
        grants: Vec<Grant>,
    },
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
        /// The component's id.
        id: i64,
        /// Only teams naming it reach it.
        restricted: bool,
    },
    /// A translation (or one of its strings): a component in a language.
    Translation {
        /// The component's project.
        project: ProjectRef,
        /// The component's id.
        component: i64,
        /// Whether the component is restricted.
        restricted: bool,
        /// The translation's language id.
        language: i64,
    },
}

/// Which projects a caller may see, for filtering lists in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectVisibility {
    /// Every project.
    All,
    /// Projects with one of these access levels, and these projects; of
    /// their restricted components only these.
    Some {
        /// Access levels visible to everybody the filter is for.
        levels: Vec<AccessControl>,
        /// Projects visible beyond those levels (granted by teams).
        projects: Vec<i64>,
        /// Restricted components visible (listed on the caller's teams).
        components: Vec<i64>,
    },
}

impl ProjectVisibility {
    /// True when this project is visible.
    pub fn allows(&self, project: ProjectRef) -> bool {
        match self {
            ProjectVisibility::All => true,
            ProjectVisibility::Some {
                levels, projects, ..
            } => levels.contains(&project.access) || projects.contains(&project.id),
        }
    }

    /// True when this component of a visible project is visible.
    pub fn allows_component(&self, id: i64, restricted: bool) -> bool {
        match self {
            ProjectVisibility::All => true,
            ProjectVisibility::Some { components, .. } => !restricted || components.contains(&id),
        }
    }
}

impl Subject {
    /// A signed-in user whom no team grants anything.
    pub fn user(id: i64, superuser: bool) -> Subject {
        Subject::User {
            id,
            superuser,
            grants: Vec::new(),
        }
    }

    /// An anonymous caller with the grants of the anonymous account's teams.
    pub fn anonymous(grants: Vec<Grant>) -> Subject {
        Subject::Anonymous { grants }
    }

    /// True for a signed-in user.
    pub fn is_authenticated(&self) -> bool {
        !matches!(self, Subject::Anonymous { .. })
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
            Subject::Anonymous { .. } | Subject::System => None,
        }
    }

    /// What the caller's teams give.
    pub fn grants(&self) -> &[Grant] {
        match self {
            Subject::User { grants, .. } | Subject::Anonymous { grants } => grants,
            Subject::System => &[],
        }
    }

    /// The one access check: may this caller use `permission` on `target`?
    /// Superusers may do everything; otherwise one of the caller's teams
    /// must give it.
    pub fn can(&self, permission: Permission, target: Target) -> bool {
        self.is_superuser() || self.grants().iter().any(|g| g.gives(permission, target))
    }

    /// May this caller use `permission` on the component through a team
    /// that lists the component by name (superusers may)? A project-wide
    /// grant is not enough to change who may see a component.
    pub fn can_on_listed_component(&self, permission: Permission, component: i64) -> bool {
        self.is_superuser()
            || self
                .grants()
                .iter()
                .any(|g| g.lists(component) && g.permissions.contains(&permission))
    }

    /// Which projects and restricted components this caller may see:
    /// those a team of theirs covers or lists (a team without roles, as
    /// `Viewers`, shows its projects too).
    pub fn project_visibility(&self) -> ProjectVisibility {
        if self.is_superuser() {
            return ProjectVisibility::All;
        }
        let mut levels = Vec::new();
        let mut projects = Vec::new();
        let mut components = Vec::new();
        for grant in self.grants() {
            match &grant.projects {
                Projects::All => levels.extend(AccessControl::EVERY),
                Projects::AllWith(access) => levels.push(*access),
                Projects::Listed(ids) => projects.extend(ids),
            }
            for listed in &grant.components {
                projects.push(listed.project);
                components.push(listed.id);
            }
        }
        for list in [&mut projects, &mut components] {
            list.sort_unstable();
            list.dedup();
        }
        let mut unique = Vec::new();
        for level in levels {
            if !unique.contains(&level) {
                unique.push(level);
            }
        }
        ProjectVisibility::Some {
            levels: unique,
            projects,
            components,
        }
    }

    /// The projects on which this caller holds `permission` (restricted
    /// components aside), as a filter for lists.
    pub fn projects_with(&self, permission: Permission) -> ProjectVisibility {
        if self.is_superuser() {
            return ProjectVisibility::All;
        }
        let mut levels = Vec::new();
        let mut projects = Vec::new();
        for grant in self.grants() {
            if !grant.permissions.contains(&permission) {
                continue;
            }
            match &grant.projects {
                Projects::All => levels.extend(AccessControl::EVERY),
                Projects::AllWith(access) => levels.push(*access),
                Projects::Listed(ids) => projects.extend(ids),
            }
        }
        levels.sort_by_key(|l| l.code());
        levels.dedup();
        projects.sort_unstable();
        projects.dedup();
        ProjectVisibility::Some {
            levels,
            projects,
            components: Vec::new(),
        }
    }

    /// May this caller see this project?
    pub fn can_view_project(&self, project: ProjectRef) -> bool {
        self.project_visibility().allows(project)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::SELECTION_ALL_PUBLIC;

    fn user(grants: Vec<Grant>) -> Subject {
        Subject::User {
            id: 2,
            superuser: false,
            grants,
        }
    }

    fn admin() -> Subject {
        Subject::user(1, true)
    }

    fn project(id: i64, access: AccessControl) -> ProjectRef {
        ProjectRef { id, access }
    }

    /// What the built-in `Guests` and `Viewers` teams give.
    fn guest() -> Subject {
        Subject::anonymous(vec![
            Grant::on(
                vec![Permission::SUGGESTION_ADD, Permission::TRANSLATION_DOWNLOAD],
                Projects::from_selection(SELECTION_ALL_PUBLIC, vec![]),
            ),
            Grant::on(vec![], Projects::AllWith(AccessControl::Protected)),
        ])
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
        let public = Target::Project(project(1, AccessControl::Public));
        let publicly = user(vec![Grant::on(
            vec![Permission::LANGUAGE_EDIT, Permission::PROJECT_EDIT],
            Projects::AllWith(AccessControl::Public),
        )]);
        assert!(!publicly.can(Permission::LANGUAGE_EDIT, Target::Language(3)));
        assert!(publicly.can(Permission::PROJECT_EDIT, public));
        let managers = user(vec![Grant::on(
            vec![Permission::LANGUAGE_EDIT],
            Projects::All,
        )]);
        assert!(managers.can(Permission::LANGUAGE_EDIT, Target::Language(3)));
        assert!(!managers.can(Permission::USER_EDIT, Target::Site));
        assert!(!guest().can(Permission::USER_VIEW, Target::Site));
    }

    #[test]
    fn anonymous_callers_have_their_teams_grants() {
        let public = Target::Project(project(1, AccessControl::Public));
        assert!(guest().can(Permission::SUGGESTION_ADD, public));
        assert!(!guest().can(Permission::UNIT_EDIT, public));
        let protected = project(2, AccessControl::Protected);
        assert!(guest().can_view_project(protected));
        assert!(!guest().can(Permission::SUGGESTION_ADD, Target::Project(protected)));
        assert!(!guest().can_view_project(project(3, AccessControl::Private)));
        assert!(!Subject::anonymous(vec![]).can_view_project(project(1, AccessControl::Public)));
    }

    #[test]
    fn teams_grant_on_their_projects_components_and_languages() {
        let private = project(7, AccessControl::Private);
        let translator = user(vec![Grant {
            languages: Languages::Listed(vec![30]),
            ..Grant::on(vec![Permission::UNIT_EDIT], Projects::Listed(vec![7]))
        }]);
        let translation = |language| Target::Translation {
            project: private,
            component: 5,
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
            id: 5,
            restricted: true,
        };
        assert!(!translator.can(Permission::UNIT_EDIT, restricted));
        let listing = user(vec![Grant {
            components: vec![ListedComponent { id: 5, project: 7 }],
            ..Grant::on(vec![Permission::UNIT_EDIT], Projects::Listed(vec![]))
        }]);
        assert!(listing.can(Permission::UNIT_EDIT, restricted));
        assert!(
            listing.can_view_project(private),
            "a listed component shows its project"
        );
        assert_eq!(
            listing.project_visibility(),
            ProjectVisibility::Some {
                levels: vec![],
                projects: vec![7],
                components: vec![5]
            }
        );
        assert!(listing.project_visibility().allows_component(5, true));
        assert!(!listing.project_visibility().allows_component(6, true));
        assert!(listing.can_on_listed_component(Permission::UNIT_EDIT, 5));
        assert!(!listing.can_on_listed_component(Permission::PROJECT_EDIT, 5));
        assert!(
            !translator.can_on_listed_component(Permission::UNIT_EDIT, 5),
            "a project-wide grant names no component"
        );
        assert!(admin().can_on_listed_component(Permission::COMPONENT_EDIT, 5));
    }

    #[test]
    fn a_membership_limit_narrows_the_languages() {
        assert_eq!(
            Languages::All.limited_to(&[3, 4]),
            Languages::Listed(vec![3, 4])
        );
        assert_eq!(
            Languages::Listed(vec![1, 3]).limited_to(&[3, 4]),
            Languages::Listed(vec![3])
        );
        assert_eq!(
            Languages::Listed(vec![1]).limited_to(&[3]),
            Languages::Listed(vec![])
        );
    }

    #[test]
    fn visibility() {
        let private = project(1, AccessControl::Private);
        assert!(admin().can_view_project(private));
        assert_eq!(admin().project_visibility(), ProjectVisibility::All);
        let everywhere = user(vec![Grant::on(vec![], Projects::All)]);
        assert!(everywhere.can_view_project(private));
        assert!(
            !everywhere.project_visibility().allows_component(3, true),
            "restricted components need a team listing them"
        );
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

    #[test]
    fn a_glossarys_strings_ask_for_glossary_permissions() {
        for (asked, on_glossary) in [
            (Permission::UNIT_ADD, Permission::GLOSSARY_ADD),
            (Permission::UNIT_EDIT, Permission::GLOSSARY_EDIT),
            (Permission::UNIT_DELETE, Permission::GLOSSARY_DELETE),
            (Permission::UPLOAD_PERFORM, Permission::GLOSSARY_UPLOAD),
            (Permission::UNIT_REVIEW, Permission::UNIT_REVIEW),
        ] {
            assert_eq!(asked.on_glossary(true), on_glossary);
            assert_eq!(asked.on_glossary(false), asked);
        }
    }
}
