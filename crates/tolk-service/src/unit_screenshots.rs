//! A unit's screenshots (`/api/units/{id}/screenshots/`): those showing
//! its string, linked and unlinked from the unit's side. A screenshot
//! shows strings of its own translation, so a translated unit is linked
//! through its source string, as the screenshot's side links it.

use tolk_domain::permission::Subject;
use tolk_store::{Page, PageRequest, screenshots, units};

use crate::access::page_in_memory;
use crate::screenshots::{ScreenshotView, Screenshots, views, visible};
use crate::{ServiceError, ServiceResult};

impl Screenshots<'_> {
    /// The screenshots showing the string of unit `unit_id`, by id, if
    /// the caller sees the unit (those the caller sees).
    pub fn of_unit(
        &self,
        subject: &Subject,
        unit_id: i64,
        request: PageRequest,
    ) -> ServiceResult<Page<ScreenshotView>> {
        self.store.read(|conn| {
            let unit = self.units().visible_unit(conn, subject, unit_id)?;
            let rows = screenshots::of_unit(conn, unit.source_id())?;
            page_in_memory(request, views(conn, subject, rows)?)
        })
    }

    /// The unit a link between screenshot `screenshot_id` and the visible
    /// unit `unit_id` names: the unit itself when it belongs to the
    /// screenshot's translation, else its source string. An unknown or
    /// hidden screenshot is a bad `screenshot_id`.
    fn linked_unit(
        &self,
        subject: &Subject,
        unit_id: i64,
        screenshot_id: i64,
    ) -> ServiceResult<(i64, i64)> {
        self.store.read(|conn| {
            let unit = self.units().visible_unit(conn, subject, unit_id)?;
            let id = screenshot_id;
            let (screenshot, _) = visible(conn, subject, id).map_err(|e| match e {
                ServiceError::NotFound => {
                    ServiceError::invalid("screenshot_id", "Screenshot not found.")
                }
                other => other,
            })?;
            let shown = screenshot.screenshot.translation_id;
            if unit.unit.translation_id == shown {
                return Ok((id, unit.unit.id));
            }
            let source = unit.source_id();
            match units::get(conn, source)? {
                Some(row) if row.translation_id == shown => Ok((id, source)),
                _ => Err(ServiceError::invalid(
                    "screenshot_id",
                    "The screenshot shows another translation than the unit's string.",
                )),
            }
        })
    }

    /// Shows the string of unit `unit_id` on a screenshot (needs
    /// `screenshot.edit` on the screenshot's translation).
    pub fn link_unit(
        &self,
        subject: &Subject,
        unit_id: i64,
        screenshot_id: i64,
    ) -> ServiceResult<ScreenshotView> {
        let (id, linked) = self.linked_unit(subject, unit_id, screenshot_id)?;
        self.add_unit(subject, id, Some(linked))
    }

    /// Takes the string of unit `unit_id` off a screenshot (needs
    /// `screenshot.edit`); not found when it is not on it.
    pub fn unlink_unit(
        &self,
        subject: &Subject,
        unit_id: i64,
        screenshot_id: i64,
    ) -> ServiceResult<()> {
        let (id, linked) =
            self.linked_unit(subject, unit_id, screenshot_id)
                .map_err(|e| match e {
                    ServiceError::Validation(_) => ServiceError::NotFound,
                    other => other,
                })?;
        self.remove_unit(subject, id, linked)
    }
}
