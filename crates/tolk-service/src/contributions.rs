//! A user's contributions (`GET /api/users/{username}/contributions/`):
//! the translations, among those the caller sees, in which the user
//! changed content (the actions of §29.1's content set).

use tolk_domain::change::Action;
use tolk_domain::permission::Subject;
use tolk_store::{Page, PageRequest, translations};

use crate::ServiceResult;
use crate::access::page;
use crate::translations::{TranslationView, translation_views};
use crate::users::{Users, visible_user};

impl Users<'_> {
    /// The translations the user `username` changed content in, that the
    /// caller sees, by id; the user must be visible to the caller.
    pub fn contributions(
        &self,
        subject: &Subject,
        username: &str,
        request: PageRequest,
    ) -> ServiceResult<Page<TranslationView>> {
        let content: Vec<i32> = Action::all()
            .filter(|a| a.is_content())
            .map(|a| a.0)
            .collect();
        self.store.read(|conn| {
            let (user, _) = visible_user(conn, subject, username)?;
            let found = page(translations::contributed(
                conn,
                &subject.project_visibility(),
                user.row.id,
                &content,
                request,
            ))?;
            found.try_map_items(|items| translation_views(conn, items))
        })
    }
}
