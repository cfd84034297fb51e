//! Change actions: what happened to an object, as Weblate's numeric codes (§29.1).

/// Flag: the action changes translated content.
const CONTENT: u8 = 1;
/// Flag: the action is a repository operation.
const REPOSITORY: u8 = 2;
/// Flag: the change can be reverted.
const REVERTABLE: u8 = 4;

/// A change action code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action(pub i32);

impl Action {
    /// Resource updated
    pub const UPDATE: Action = Action(0);
    /// Translation completed
    pub const COMPLETE: Action = Action(1);
    /// Translation changed
    pub const CHANGE: Action = Action(2);
    /// Comment added
    pub const COMMENT: Action = Action(3);
    /// Suggestion added
    pub const SUGGESTION: Action = Action(4);
    /// Translation added
    pub const NEW: Action = Action(5);
    /// Automatically translated
    pub const AUTO: Action = Action(6);
    /// Suggestion accepted
    pub const ACCEPT: Action = Action(7);
    /// Translation reverted
    pub const REVERT: Action = Action(8);
    /// Translation uploaded
    pub const UPLOAD: Action = Action(9);
    /// Source string added
    pub const NEW_SOURCE: Action = Action(13);
    /// Component locked
    pub const LOCK: Action = Action(14);
    /// Component unlocked
    pub const UNLOCK: Action = Action(15);
    /// Changes committed
    pub const COMMIT: Action = Action(17);
    /// Changes pushed
    pub const PUSH: Action = Action(18);
    /// Repository reset
    pub const RESET: Action = Action(19);
    /// Repository merged
    pub const MERGE: Action = Action(20);
    /// Repository rebased
    pub const REBASE: Action = Action(21);
    /// Repository merge failed
    pub const FAILED_MERGE: Action = Action(22);
    /// Repository rebase failed
    pub const FAILED_REBASE: Action = Action(23);
    /// Parsing failed
    pub const PARSE_ERROR: Action = Action(24);
    /// Translation removed
    pub const REMOVE_TRANSLATION: Action = Action(25);
    /// Suggestion removed
    pub const SUGGESTION_DELETE: Action = Action(26);
    /// Translation replaced
    pub const REPLACE: Action = Action(27);
    /// Repository push failed
    pub const FAILED_PUSH: Action = Action(28);
    /// Suggestion removed during cleanup
    pub const SUGGESTION_CLEANUP: Action = Action(29);
    /// Source string changed
    pub const SOURCE_CHANGE: Action = Action(30);
    /// String added
    pub const NEW_UNIT: Action = Action(31);
    /// Bulk status changed
    pub const BULK_EDIT: Action = Action(32);
    /// Visibility changed
    pub const ACCESS_EDIT: Action = Action(33);
    /// User added
    pub const ADD_USER: Action = Action(34);
    /// User removed
    pub const REMOVE_USER: Action = Action(35);
    /// Translation approved
    pub const APPROVE: Action = Action(36);
    /// Marked for edit
    pub const MARKED_EDIT: Action = Action(37);
    /// Component removed
    pub const REMOVE_COMPONENT: Action = Action(38);
    /// Project removed
    pub const REMOVE_PROJECT: Action = Action(39);
    /// Project renamed
    pub const RENAME_PROJECT: Action = Action(41);
    /// Component renamed
    pub const RENAME_COMPONENT: Action = Action(42);
    /// Moved component
    pub const MOVE_COMPONENT: Action = Action(43);
    /// Contributor joined
    pub const NEW_CONTRIBUTOR: Action = Action(45);
    /// Announcement posted
    pub const ANNOUNCEMENT: Action = Action(46);
    /// Alert triggered
    pub const ALERT: Action = Action(47);
    /// Language added
    pub const ADDED_LANGUAGE: Action = Action(48);
    /// Language requested
    pub const REQUESTED_LANGUAGE: Action = Action(49);
    /// Project created
    pub const CREATE_PROJECT: Action = Action(50);
    /// Component created
    pub const CREATE_COMPONENT: Action = Action(51);
    /// User invited
    pub const INVITE_USER: Action = Action(52);
    /// Repository notification received
    pub const HOOK: Action = Action(53);
    /// Translation replaced file by upload
    pub const REPLACE_UPLOAD: Action = Action(54);
    /// License changed
    pub const LICENSE_CHANGE: Action = Action(55);
    /// Contributor license agreement changed
    pub const AGREEMENT_CHANGE: Action = Action(56);
    /// Screenshot added
    pub const SCREENSHOT_ADDED: Action = Action(57);
    /// Screenshot uploaded
    pub const SCREENSHOT_UPLOADED: Action = Action(58);
    /// String updated in the repository
    pub const STRING_REPO_UPDATE: Action = Action(59);
    /// Add-on installed
    pub const ADDON_CREATE: Action = Action(60);
    /// Add-on configuration changed
    pub const ADDON_CHANGE: Action = Action(61);
    /// Add-on uninstalled
    pub const ADDON_REMOVE: Action = Action(62);
    /// String removed
    pub const STRING_REMOVE: Action = Action(63);
    /// Comment removed
    pub const COMMENT_DELETE: Action = Action(64);
    /// Comment resolved
    pub const COMMENT_RESOLVE: Action = Action(65);
    /// Explanation updated
    pub const EXPLANATION: Action = Action(66);
    /// Category removed
    pub const REMOVE_CATEGORY: Action = Action(67);
    /// Category renamed
    pub const RENAME_CATEGORY: Action = Action(68);
    /// Category moved
    pub const MOVE_CATEGORY: Action = Action(69);
    /// Saving string failed
    pub const SAVE_FAILED: Action = Action(70);
    /// String added in the repository
    pub const NEW_UNIT_REPO: Action = Action(71);
    /// String updated in the upload
    pub const STRING_UPLOAD_UPDATE: Action = Action(72);
    /// String added in the upload
    pub const NEW_UNIT_UPLOAD: Action = Action(73);
    /// Translation updated by source upload
    pub const SOURCE_UPLOAD: Action = Action(74);
    /// Component translation completed
    pub const COMPLETED_COMPONENT: Action = Action(75);
    /// Applied enforced check
    pub const ENFORCED_CHECK: Action = Action(76);
    /// Propagated change
    pub const PROPAGATED_EDIT: Action = Action(77);
    /// File uploaded
    pub const FILE_UPLOAD: Action = Action(78);
    /// Extra flags updated
    pub const EXTRA_FLAGS: Action = Action(79);
    /// Font uploaded
    pub const FONT_CREATE: Action = Action(80);
    /// Font changed
    pub const FONT_CHANGE: Action = Action(81);
    /// Font removed
    pub const FONT_REMOVE: Action = Action(82);
    /// Forced synchronization of translations
    pub const FORCE_SYNC: Action = Action(83);
    /// Forced rescan of translations
    pub const FORCE_SCAN: Action = Action(84);
    /// Screenshot removed
    pub const SCREENSHOT_REMOVED: Action = Action(85);
    /// Label added
    pub const LABEL_ADD: Action = Action(86);
    /// Label removed
    pub const LABEL_REMOVE: Action = Action(87);
    /// Repository cleanup
    pub const REPO_CLEANUP: Action = Action(88);
    /// Source string added in the upload
    pub const NEW_SOURCE_UPLOAD: Action = Action(89);
    /// Source string added in the repository
    pub const NEW_SOURCE_REPO: Action = Action(90);
    /// Project backed up
    pub const PROJECT_BACKUP: Action = Action(91);
    /// Project restored
    pub const PROJECT_RESTORE: Action = Action(92);
    /// Component restored
    pub const COMPONENT_RESTORE: Action = Action(93);
    /// User edit reverted
    pub const USER_REVERT: Action = Action(94);
    /// Project setting changed
    pub const PROJECT_SETTING_CHANGE: Action = Action(95);
    /// Component setting changed
    pub const COMPONENT_SETTING_CHANGE: Action = Action(96);
    /// User access changed
    pub const USER_ACCESS_CHANGE: Action = Action(97);
    /// Workspace created
    pub const CREATE_WORKSPACE: Action = Action(98);
    /// Workspace setting changed
    pub const WORKSPACE_SETTING_CHANGE: Action = Action(99);
    /// Project moved
    pub const MOVE_PROJECT: Action = Action(100);
    /// Remote repository updated
    pub const REMOTE_UPDATE: Action = Action(101);
    /// Remote repository update failed
    pub const FAILED_REMOTE_UPDATE: Action = Action(102);
    /// Alert dismissed
    pub const ALERT_DISMISSED: Action = Action(103);
    /// Alert reopened
    pub const ALERT_REOPENED: Action = Action(104);
}

/// Every action: code, English label, flags.
const ACTIONS: &[(i32, &str, u8)] = &[
    (0, "Resource updated", 0),
    (1, "Translation completed", 0),
    (2, "Translation changed", CONTENT | REVERTABLE),
    (3, "Comment added", 0),
    (4, "Suggestion added", 0),
    (5, "Translation added", CONTENT | REVERTABLE),
    (6, "Automatically translated", CONTENT | REVERTABLE),
    (7, "Suggestion accepted", CONTENT | REVERTABLE),
    (8, "Translation reverted", CONTENT | REVERTABLE),
    (9, "Translation uploaded", CONTENT | REVERTABLE),
    (13, "Source string added", 0),
    (14, "Component locked", REPOSITORY),
    (15, "Component unlocked", REPOSITORY),
    (17, "Changes committed", REPOSITORY),
    (18, "Changes pushed", REPOSITORY),
    (19, "Repository reset", REPOSITORY),
    (20, "Repository merged", REPOSITORY),
    (21, "Repository rebased", REPOSITORY),
    (22, "Repository merge failed", REPOSITORY),
    (23, "Repository rebase failed", REPOSITORY),
    (24, "Parsing failed", 0),
    (25, "Translation removed", 0),
    (26, "Suggestion removed", 0),
    (27, "Translation replaced", CONTENT | REVERTABLE),
    (28, "Repository push failed", REPOSITORY),
    (29, "Suggestion removed during cleanup", 0),
    (30, "Source string changed", CONTENT),
    (31, "String added", CONTENT),
    (32, "Bulk status changed", CONTENT),
    (33, "Visibility changed", 0),
    (34, "User added", 0),
    (35, "User removed", 0),
    (36, "Translation approved", CONTENT | REVERTABLE),
    (37, "Marked for edit", CONTENT | REVERTABLE),
    (38, "Component removed", 0),
    (39, "Project removed", 0),
    (41, "Project renamed", 0),
    (42, "Component renamed", 0),
    (43, "Moved component", 0),
    (45, "Contributor joined", 0),
    (46, "Announcement posted", 0),
    (47, "Alert triggered", 0),
    (48, "Language added", 0),
    (49, "Language requested", 0),
    (50, "Project created", 0),
    (51, "Component created", 0),
    (52, "User invited", 0),
    (53, "Repository notification received", REPOSITORY),
    (54, "Translation replaced file by upload", 0),
    (55, "License changed", 0),
    (56, "Contributor license agreement changed", 0),
    (57, "Screenshot added", 0),
    (58, "Screenshot uploaded", 0),
    (59, "String updated in the repository", REVERTABLE),
    (60, "Add-on installed", 0),
    (61, "Add-on configuration changed", 0),
    (62, "Add-on uninstalled", 0),
    (63, "String removed", 0),
    (64, "Comment removed", 0),
    (65, "Comment resolved", 0),
    (66, "Explanation updated", CONTENT),
    (67, "Category removed", 0),
    (68, "Category renamed", 0),
    (69, "Category moved", 0),
    (70, "Saving string failed", 0),
    (71, "String added in the repository", 0),
    (72, "String updated in the upload", REVERTABLE),
    (73, "String added in the upload", 0),
    (74, "Translation updated by source upload", 0),
    (75, "Component translation completed", 0),
    (76, "Applied enforced check", CONTENT),
    (77, "Propagated change", CONTENT | REVERTABLE),
    (78, "File uploaded", REPOSITORY),
    (79, "Extra flags updated", CONTENT),
    (80, "Font uploaded", 0),
    (81, "Font changed", 0),
    (82, "Font removed", 0),
    (83, "Forced synchronization of translations", REPOSITORY),
    (84, "Forced rescan of translations", REPOSITORY),
    (85, "Screenshot removed", 0),
    (86, "Label added", 0),
    (87, "Label removed", 0),
    (88, "Repository cleanup", REPOSITORY),
    (89, "Source string added in the upload", 0),
    (90, "Source string added in the repository", 0),
    (91, "Project backed up", 0),
    (92, "Project restored", 0),
    (93, "Component restored", 0),
    (94, "User edit reverted", CONTENT | REVERTABLE),
    (95, "Project setting changed", 0),
    (96, "Component setting changed", 0),
    (97, "User access changed", 0),
    (98, "Workspace created", 0),
    (99, "Workspace setting changed", 0),
    (100, "Project moved", 0),
    (101, "Remote repository updated", REPOSITORY),
    (102, "Remote repository update failed", REPOSITORY),
    (103, "Alert dismissed", 0),
    (104, "Alert reopened", 0),
];

impl Action {
    /// Looks up a code; retired and unknown codes give `None`.
    pub fn from_code(code: i32) -> Option<Action> {
        ACTIONS
            .iter()
            .any(|(c, _, _)| *c == code)
            .then_some(Action(code))
    }

    /// Every known action in code order.
    pub fn all() -> impl Iterator<Item = Action> {
        ACTIONS.iter().map(|(c, _, _)| Action(*c))
    }

    fn flags(self) -> u8 {
        ACTIONS
            .iter()
            .find(|(c, _, _)| *c == self.0)
            .map_or(0, |(_, _, f)| *f)
    }

    /// The English label shown as `action_name`.
    pub fn label(self) -> &'static str {
        ACTIONS
            .iter()
            .find(|(c, _, _)| *c == self.0)
            .map_or("Unknown action", |(_, l, _)| l)
    }

    /// True for actions that change translated content (§29.1 column C).
    pub fn is_content(self) -> bool {
        self.flags() & CONTENT != 0
    }

    /// True for repository operations (§29.1 column R).
    pub fn is_repository(self) -> bool {
        self.flags() & REPOSITORY != 0
    }

    /// True for changes that can be reverted (§29.1 column V).
    pub fn is_revertable(self) -> bool {
        self.flags() & REVERTABLE != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_labelled() {
        let codes: Vec<i32> = Action::all().map(|a| a.0).collect();
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(codes, sorted);
        assert_eq!(codes.len(), 99);
        for retired in [10, 11, 12, 16, 40, 44] {
            assert_eq!(Action::from_code(retired), None);
        }
    }

    #[test]
    fn labels_and_flags() {
        assert_eq!(Action::CREATE_PROJECT.label(), "Project created");
        assert_eq!(Action::from_code(50), Some(Action::CREATE_PROJECT));
        assert!(Action::CHANGE.is_content());
        assert!(Action::CHANGE.is_revertable());
        assert!(!Action::COMMIT.is_content());
        assert!(Action::COMMIT.is_repository());
        assert_eq!(Action(999).label(), "Unknown action");
    }
}
