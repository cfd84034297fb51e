//! What a category's contents inherit: the project's settings under those
//! of the category's ancestors and its own.

use std::collections::HashMap;

use tolk_domain::category::MAX_DEPTH;
use tolk_domain::project::ProjectSettings;
use tolk_store::categories::Category;

/// The ancestors of `id` among `all`, outermost first.
pub(crate) fn ancestors(all: &HashMap<i64, Category>, id: i64) -> Vec<&Category> {
    let mut chain = Vec::new();
    let mut next = all.get(&id).and_then(|c| c.parent_id);
    while let Some(parent) = next.and_then(|p| all.get(&p)) {
        if chain.len() > MAX_DEPTH {
            break;
        }
        chain.push(parent);
        next = parent.parent_id;
    }
    chain.reverse();
    chain
}

/// What the contents of category `id` inherit: `project` under the
/// category's ancestors' settings and its own.
pub(crate) fn inherited_by_contents(
    all: &HashMap<i64, Category>,
    id: i64,
    project: &ProjectSettings,
) -> ProjectSettings {
    ancestors(all, id)
        .into_iter()
        .chain(all.get(&id))
        .fold(project.clone(), |settings, category| {
            category.settings.over(&settings)
        })
}
