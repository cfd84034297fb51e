//! The stored column of each text field a unit search names: what both
//! the SQL conditions ([`crate::unit_search`]) and the regular-expression
//! matching ([`crate::regex_search`]) read.

use diesel::prelude::*;
use tolk_domain::query::TextField;

use crate::MultiBackend;
use crate::schema::units;

/// The column of a text field (flags: the file's and the added ones).
pub(crate) fn text_column(
    field: TextField,
) -> Box<dyn BoxableExpression<units::table, MultiBackend, SqlType = diesel::sql_types::Text>> {
    match field {
        TextField::Source => Box::new(units::source),
        TextField::Target => Box::new(units::target),
        TextField::Context => Box::new(units::context),
        TextField::Note => Box::new(units::note),
        TextField::Location => Box::new(units::location),
        TextField::Explanation => Box::new(units::explanation),
        TextField::Flags => Box::new(units::flags.concat(units::extra_flags)),
    }
}
