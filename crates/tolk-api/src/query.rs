//! Query strings read as Weblate's filters (django-filter) read them, into
//! the typed struct that also documents them (`IntoParams`):
//!
//! * a key given with an empty value is not given (`?action=` filters nothing);
//! * a key given several times takes its last value, unless the field is a
//!   list, which takes every value;
//! * booleans are `true`/`false` in any case, or `1`/`0`;
//! * a NUL character, or a value that does not parse, is a 400 naming the
//!   parameter, in words meant for people (never a Rust type or serde's).

use std::fmt;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use tolk_domain::validation::FieldErrors;

use crate::error::ApiError;
use crate::input::NUL_MESSAGE;

/// Parses a query string into `T`; every bad parameter is reported.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let mut errors = FieldErrors::default();
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        if value.is_empty() {
            continue;
        }
        if value.contains('\0') || key.contains('\0') {
            if !errors.has(&key) {
                errors.push(&key, "null_characters_not_allowed", NUL_MESSAGE);
            }
            continue;
        }
        match entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, values)) => values.push(value.into_owned()),
            None => entries.push((key.into_owned(), vec![value.into_owned()])),
        }
    }
    // serde stops at the first bad value: drop it and read again, so that
    // every bad parameter is reported (at most once per key).
    loop {
        let map = MapDeserializer::new(entries.iter().map(|(attr, values)| {
            let values = Values {
                attr: attr.clone(),
                values: values.clone(),
            };
            (attr.clone(), values)
        }));
        match T::deserialize(map) {
            Ok(parsed) => {
                errors.into_result()?;
                return Ok(parsed);
            }
            Err(QueryError {
                attr,
                code,
                message,
            }) => {
                let attr = attr.unwrap_or_else(|| "non_field_errors".into());
                errors.push(&attr, code, message);
                let before = entries.len();
                entries.retain(|(key, _)| *key != attr);
                if entries.len() == before {
                    return Err(errors.into());
                }
            }
        }
    }
}

/// How Django's messages for values outside a fixed set begin.
const CHOICE_PREFIX: &str = "Select a valid choice.";

/// Why a parameter was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    attr: Option<String>,
    code: &'static str,
    message: String,
}

impl QueryError {
    /// An invalid value with a message for people.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            attr: None,
            code: "invalid",
            message: message.into(),
        }
    }

    /// A value outside a fixed set, worded as Django's choice fields.
    pub fn invalid_choice(value: &str) -> Self {
        Self {
            attr: None,
            code: "invalid_choice",
            message: format!("{CHOICE_PREFIX} {value} is not one of the available choices."),
        }
    }

    fn at(mut self, attr: &str) -> Self {
        self.attr.get_or_insert_with(|| attr.to_owned());
        self
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for QueryError {}

/// The message for values serde itself refuses: its own words name Rust types.
const INVALID_VALUE: &str = "Enter a valid value.";

impl de::Error for QueryError {
    /// A message from a parameter type's own parser (meant for people).
    fn custom<M: fmt::Display>(message: M) -> Self {
        let message = message.to_string();
        if message.starts_with(CHOICE_PREFIX) {
            QueryError {
                code: "invalid_choice",
                ..QueryError::invalid(message)
            }
        } else {
            QueryError::invalid(message)
        }
    }

    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        QueryError::invalid(INVALID_VALUE)
    }

    fn invalid_value(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        QueryError::invalid(INVALID_VALUE)
    }

    fn invalid_length(_: usize, _: &dyn de::Expected) -> Self {
        QueryError::invalid(INVALID_VALUE)
    }

    fn unknown_variant(variant: &str, _: &'static [&'static str]) -> Self {
        QueryError::invalid_choice(variant)
    }

    fn unknown_field(field: &str, _: &'static [&'static str]) -> Self {
        QueryError::invalid("Unknown parameter.").at(field)
    }

    fn missing_field(field: &'static str) -> Self {
        QueryError {
            code: "required",
            ..QueryError::invalid("This field is required.")
        }
        .at(field)
    }

    fn duplicate_field(field: &'static str) -> Self {
        QueryError::invalid(INVALID_VALUE).at(field)
    }
}

/// The values given for one key.
struct Values {
    attr: String,
    values: Vec<String>,
}

impl Values {
    fn last(&self) -> &str {
        self.values.last().map_or("", String::as_str)
    }

    /// Runs a visitor step, naming this parameter in its error.
    fn named<T>(&self, result: Result<T, QueryError>) -> Result<T, QueryError> {
        result.map_err(|e| e.at(&self.attr))
    }

    fn number<T: std::str::FromStr>(&self) -> Result<T, QueryError> {
        self.named(
            self.last()
                .trim()
                .parse()
                .map_err(|_| QueryError::invalid("Enter a number.")),
        )
    }
}

impl<'de> IntoDeserializer<'de, QueryError> for Values {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

macro_rules! numbers {
    ($($method:ident => $visit:ident: $ty:ty),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
                let number: $ty = self.number()?;
                self.named(visitor.$visit(number))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Values {
    type Error = QueryError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        let text = self.last().to_owned();
        self.named(visitor.visit_string(text))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        let truth = match self.last().to_ascii_lowercase().as_str() {
            "true" | "1" => true,
            "false" | "0" => false,
            other => return self.named(Err(QueryError::invalid_choice(other))),
        };
        self.named(visitor.visit_bool(truth))
    }

    numbers! {
        deserialize_i8 => visit_i8: i8,
        deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32,
        deserialize_i64 => visit_i64: i64,
        deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64,
        deserialize_f32 => visit_f32: f32,
        deserialize_f64 => visit_f64: f64,
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        let attr = self.attr.clone();
        visitor.visit_some(self).map_err(|e| e.at(&attr))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, QueryError> {
        let attr = self.attr.clone();
        visitor.visit_newtype_struct(self).map_err(|e| e.at(&attr))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        let attr = self.attr.clone();
        let items = self.values.into_iter().map(|value| Values {
            attr: attr.clone(),
            values: vec![value],
        });
        visitor
            .visit_seq(SeqDeserializer::new(items))
            .map_err(|e| e.at(&attr))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, QueryError> {
        let text = self.last().to_owned();
        let result = visitor.visit_enum(text.clone().into_deserializer());
        self.named(result.map_err(|_: QueryError| QueryError::invalid_choice(&text)))
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct tuple
        tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Filters {
        user: Option<String>,
        active: Option<bool>,
        id: Option<i64>,
        action: Option<Vec<i32>>,
    }

    fn errors(query: &str) -> Vec<(String, String, String)> {
        match parse::<Filters>(query).unwrap_err() {
            ApiError::Validation(errors) => errors
                .into_iter()
                .map(|e| (e.attr.unwrap_or_default(), e.code, e.detail))
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn empty_values_are_no_filter_and_the_last_value_wins() {
        assert_eq!(
            parse::<Filters>("user=&active=&id=&action=").unwrap(),
            Filters::default()
        );
        let parsed: Filters = parse("user=a&user=b&id=1&id=2&action=5&action=&action=7").unwrap();
        assert_eq!(
            parsed,
            Filters {
                user: Some("b".into()),
                active: None,
                id: Some(2),
                action: Some(vec![5, 7]),
            }
        );
    }

    #[test]
    fn booleans_as_django_filter_reads_them() {
        for (text, truth) in [
            ("True", true),
            ("true", true),
            ("1", true),
            ("False", false),
            ("false", false),
            ("0", false),
        ] {
            let parsed: Filters = parse(&format!("active={text}")).unwrap();
            assert_eq!(parsed.active, Some(truth), "{text}");
        }
        assert_eq!(
            errors("active=maybe"),
            [(
                "active".to_owned(),
                "invalid_choice".to_owned(),
                "Select a valid choice. maybe is not one of the available choices.".to_owned()
            )]
        );
    }

    #[test]
    fn bad_values_name_their_parameter_in_plain_words() {
        assert_eq!(
            errors("id=x"),
            [(
                "id".to_owned(),
                "invalid".to_owned(),
                "Enter a number.".to_owned()
            )]
        );
        assert_eq!(errors("action=1&action=z")[0].0, "action");
        let nul = errors("user=%00&id=%00");
        assert_eq!(
            nul.iter()
                .map(|e| (e.0.as_str(), e.1.as_str()))
                .collect::<Vec<_>>(),
            [
                ("user", "null_characters_not_allowed"),
                ("id", "null_characters_not_allowed")
            ]
        );
    }
}
