//! Reads request fields (a JSON body, a form, a multipart form or a query
//! string) into the typed struct that also documents them, with the rules
//! and messages of Weblate's serializers (Django REST framework) and
//! filters (django-filter):
//!
//! * JSON values and form text convert as DRF converts them: `"7"` is an
//!   integer, `"on"` a boolean, a number a string;
//! * a field given several times in a form takes its last value, unless it
//!   is a list, which takes every value;
//! * a NUL character in text is refused (databases cannot store it);
//! * every bad field is reported, each with its (dotted) name, never with
//!   Rust's or serde's words.

use std::fmt;
use std::rc::Rc;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde_json::{Map, Value};
use tolk_domain::validation::FieldErrors;

/// Django's message for text holding a NUL character.
pub const NUL_MESSAGE: &str = "Null characters are not allowed.";

/// How Django's messages for values outside a fixed set begin.
const CHOICE_PREFIX: &str = "Select a valid choice.";

/// Whose words errors use: a body's serializer or a query's filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Request bodies (DRF serializers).
    Body,
    /// Query strings (django-filter).
    Query,
}

/// What the client gave for one field.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// Form or query text: every value given for the key, in order.
    Text(Vec<String>),
    /// A JSON value.
    Json(Value),
    /// Stands for a field already reported as bad (or missing), so that
    /// reading the rest goes on: it reads as any type's empty value.
    Placeholder,
}

/// The fields of a request, in the order given.
pub type Entries = Vec<(String, Given)>;

/// Form or query pairs as fields: every value of a repeated key is kept, in order.
pub fn text_entries(pairs: impl Iterator<Item = (String, String)>) -> Entries {
    let mut entries: Entries = Vec::new();
    for (key, value) in pairs {
        match entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, Given::Text(values))) => values.push(value),
            _ => entries.push((key, Given::Text(vec![value]))),
        }
    }
    entries
}

/// Why a field was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The field's name at each nesting depth it was seen at.
    path: Vec<(usize, String)>,
    code: &'static str,
    message: String,
}

/// The depth of names serde itself reports (missing or unknown fields):
/// below every field that passed the error on.
const LEAF: usize = usize::MAX;

impl Problem {
    /// An invalid value with a message for people.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            path: Vec::new(),
            code: "invalid",
            message: message.into(),
        }
    }

    /// A value outside a fixed set, worded as Django's choice fields.
    pub fn invalid_choice(value: &str) -> Self {
        Self {
            code: "invalid_choice",
            ..Self::invalid(format!(
                "{CHOICE_PREFIX} {value} is not one of the available choices."
            ))
        }
    }

    fn coded(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            ..Self::invalid(message)
        }
    }

    /// Names the field at `depth` (once: the steps that read one field
    /// all pass its errors on).
    fn at(mut self, depth: usize, attr: &str) -> Self {
        if !self.path.iter().any(|(d, _)| *d == depth) {
            self.path.push((depth, attr.to_owned()));
        }
        self
    }

    /// The dotted name of the field, outermost first; `None` for the whole input.
    fn attr(&self) -> Option<String> {
        let mut path = self.path.clone();
        path.sort_by_key(|(depth, _)| *depth);
        let names: Vec<String> = path
            .into_iter()
            .map(|(_, name)| name)
            .filter(|name| !name.is_empty())
            .collect();
        (!names.is_empty()).then(|| names.join("."))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

/// The message for values serde itself refuses: its own words name Rust types.
const INVALID_VALUE: &str = "Enter a valid value.";

impl de::Error for Problem {
    /// A message from a field type's own parser, meant for people.
    fn custom<M: fmt::Display>(message: M) -> Self {
        let message = message.to_string();
        if message.starts_with(CHOICE_PREFIX) {
            Problem::coded("invalid_choice", message)
        } else {
            Problem::invalid(message)
        }
    }

    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Problem::invalid(INVALID_VALUE)
    }

    fn invalid_value(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Problem::invalid(INVALID_VALUE)
    }

    fn invalid_length(_: usize, _: &dyn de::Expected) -> Self {
        Problem::invalid(INVALID_VALUE)
    }

    fn unknown_variant(variant: &str, _: &'static [&'static str]) -> Self {
        Problem::coded(
            "invalid_choice",
            format!("\"{variant}\" is not a valid choice."),
        )
    }

    fn unknown_field(field: &str, _: &'static [&'static str]) -> Self {
        Problem::invalid("Unknown field.").at(LEAF, field)
    }

    fn missing_field(field: &'static str) -> Self {
        Problem::coded("required", "This field is required.").at(LEAF, field)
    }

    fn duplicate_field(field: &'static str) -> Self {
        Problem::invalid(INVALID_VALUE).at(LEAF, field)
    }
}

/// Reads `entries` into `T`, reporting every bad field.
pub fn parse<T: DeserializeOwned>(entries: Entries, dialect: Dialect) -> Result<T, FieldErrors> {
    let mut errors = FieldErrors::default();
    // serde stops at the first bad (or missing) field: read again with a
    // placeholder in its place, so that every bad field is reported.
    let mut failed: Vec<String> = Vec::new();
    loop {
        let shared = Rc::new(failed.clone());
        let top = Field {
            attr: String::new(),
            path: String::new(),
            depth: 0,
            given: Given::Placeholder,
            dialect,
            in_option: false,
            failed: Rc::clone(&shared),
        };
        let mut fields: Vec<(String, Field)> = entries
            .iter()
            .map(|(key, given)| (key.clone(), top.member(key, given.clone())))
            .collect();
        fields.extend(top.missing_failed(|key| entries.iter().any(|(k, _)| k == key)));
        match T::deserialize(MapDeserializer::new(fields.into_iter())) {
            Ok(parsed) => {
                errors.into_result()?;
                return Ok(parsed);
            }
            Err(problem) => {
                let attr = problem.attr().unwrap_or_else(|| "non_field_errors".into());
                if failed.contains(&attr) {
                    // Its placeholder cannot stand in (an enum has no
                    // neutral value): the field is reported already.
                    return Err(errors);
                }
                errors.push(&attr, problem.code, problem.message);
                if attr == "non_field_errors" {
                    return Err(errors);
                }
                failed.push(attr);
            }
        }
    }
}

/// One field's value, as a serde deserializer with DRF's conversions.
struct Field {
    /// The field's own name (empty for list items).
    attr: String,
    /// Its dotted name from the top.
    path: String,
    /// How deep the field is nested (0 for the input's own fields).
    depth: usize,
    given: Given,
    dialect: Dialect,
    /// True inside an `Option`: a JSON null there is `None`.
    in_option: bool,
    /// Dotted names of the fields already reported, read as placeholders.
    failed: Rc<Vec<String>>,
}

/// The words a field may give for true (in any case).
pub const TRUE_WORDS: [&str; 6] = ["true", "1", "yes", "on", "y", "t"];
/// The words a field may give for false (in any case).
pub const FALSE_WORDS: [&str; 6] = ["false", "0", "no", "off", "n", "f"];

/// The name Python gives a JSON value's type, as DRF's messages use it.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

impl Field {
    /// The text of a form value, or of a JSON string or number.
    fn text(&self) -> Result<String, Problem> {
        let text = match &self.given {
            Given::Text(values) => values.last().cloned().unwrap_or_default(),
            Given::Json(Value::String(s)) => s.clone(),
            Given::Json(Value::Number(n)) => n.to_string(),
            Given::Json(Value::Null) => return Err(self.null()),
            Given::Json(_) => return Err(Problem::invalid("Not a valid string.")),
            Given::Placeholder => String::new(),
        };
        if text.contains('\0') {
            return Err(Problem::coded("null_characters_not_allowed", NUL_MESSAGE));
        }
        Ok(text)
    }

    fn null(&self) -> Problem {
        Problem::coded("null", "This field may not be null.")
    }

    /// A boolean: JSON `true` or `false`, or one of DRF's words in a JSON
    /// string or in text; a JSON number is not one (the request's schema
    /// says so, though DRF would read 0 and 1).
    fn boolean(&self) -> Result<bool, Problem> {
        let word = match &self.given {
            Given::Json(Value::Bool(b)) => return Ok(*b),
            Given::Placeholder => return Ok(false),
            Given::Json(Value::Null) => return Err(self.null()),
            Given::Json(Value::Number(_)) => {
                return Err(Problem::invalid("Must be a valid boolean."));
            }
            _ => self.text()?,
        };
        let lower = word.trim().to_ascii_lowercase();
        if TRUE_WORDS.contains(&lower.as_str()) {
            Ok(true)
        } else if FALSE_WORDS.contains(&lower.as_str()) {
            Ok(false)
        } else {
            Err(match self.dialect {
                Dialect::Body => Problem::invalid("Must be a valid boolean."),
                Dialect::Query => Problem::invalid_choice(&word),
            })
        }
    }

    fn number<T: std::str::FromStr>(&self) -> Result<T, Problem> {
        let wrong = || match self.dialect {
            Dialect::Body => Problem::invalid("A valid integer is required."),
            Dialect::Query => Problem::invalid("Enter a number."),
        };
        match self.given {
            Given::Json(Value::Bool(_)) => return Err(wrong()),
            Given::Placeholder => return "0".parse().map_err(|_| wrong()),
            _ => {}
        }
        self.text()
            .map_err(|e| if e.code == "invalid" { wrong() } else { e })?
            .trim()
            .parse()
            .map_err(|_| wrong())
    }

    /// Runs a visitor step, naming this field in its error.
    fn named<T>(&self, result: Result<T, Problem>) -> Result<T, Problem> {
        let (depth, attr) = (self.depth, &self.attr);
        result.map_err(|e| e.at(depth, attr))
    }

    /// An item of this list field (its errors are the list's).
    fn item(&self, given: Given) -> Field {
        Field {
            attr: String::new(),
            path: self.path.clone(),
            depth: self.depth + 1,
            given,
            dialect: self.dialect,
            in_option: false,
            failed: Rc::clone(&self.failed),
        }
    }

    /// The field `key` of this object (or of the input, at the top).
    fn member(&self, key: &str, given: Given) -> Field {
        let path = if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        };
        let given = if self.failed.contains(&path) {
            Given::Placeholder
        } else {
            given
        };
        let depth = if self.path.is_empty() && self.attr.is_empty() {
            0
        } else {
            self.depth + 1
        };
        Field {
            attr: key.to_owned(),
            path,
            depth,
            given,
            dialect: self.dialect,
            in_option: false,
            failed: Rc::clone(&self.failed),
        }
    }

    /// Placeholders for this object's reported fields that were never given.
    fn missing_failed(&self, given: impl Fn(&str) -> bool) -> Vec<(String, Field)> {
        let prefix = if self.path.is_empty() {
            String::new()
        } else {
            format!("{}.", self.path)
        };
        self.failed
            .iter()
            .filter_map(|path| path.strip_prefix(&prefix))
            .filter(|key| !key.contains('.') && !given(key))
            .map(|key| (key.to_owned(), self.member(key, Given::Placeholder)))
            .collect()
    }
}

impl<'de> IntoDeserializer<'de, Problem> for Field {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

macro_rules! numbers {
    ($($method:ident => $visit:ident: $ty:ty),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
                let number = self.number::<$ty>();
                self.named(number.and_then(|n| visitor.$visit(n)))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Field {
    type Error = Problem;

    /// Text, or a JSON integer as a number (untagged choices of an id or
    /// a name read it as either).
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        if let Given::Json(Value::Number(n)) = &self.given
            && let Some(n) = n.as_i64()
        {
            return self.named(visitor.visit_i64(n));
        }
        let text = self.text();
        self.named(text.and_then(|t| visitor.visit_string(t)))
    }

    /// Text: a JSON string, or form text; a JSON number is not a string
    /// (the request's schema says so, though DRF would convert it).
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        if let Given::Json(Value::Number(_)) = &self.given {
            return self.named(Err(Problem::invalid("Not a valid string.")));
        }
        let text = self.text();
        self.named(text.and_then(|t| visitor.visit_string(t)))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        self.deserialize_string(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        let truth = self.boolean();
        self.named(truth.and_then(|b| visitor.visit_bool(b)))
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

    /// The outer `Option` of a field means "given" (absent fields are
    /// `None` without reaching here); an inner one (a nullable field) is
    /// `None` for JSON null or an empty form value.
    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Problem> {
        if self.given == Given::Placeholder {
            return visitor.visit_none();
        }
        let empty = match &self.given {
            Given::Json(Value::Null) => true,
            Given::Placeholder => true,
            Given::Text(values) => values.last().is_none_or(String::is_empty),
            Given::Json(_) => false,
        };
        if self.in_option && empty {
            return visitor.visit_none();
        }
        self.in_option = true;
        let (depth, attr) = (self.depth, self.attr.clone());
        visitor.visit_some(self).map_err(|e| e.at(depth, &attr))
    }

    /// A newtype; [`tolk_domain::json::RAW_JSON`] takes the JSON value as
    /// given (form text must be JSON).
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Problem> {
        if name == tolk_domain::json::RAW_JSON {
            let value = match &self.given {
                Given::Json(value) => Ok(value.clone()),
                Given::Text(values) => {
                    let text = values.last().cloned().unwrap_or_default();
                    serde_json::from_str(&text)
                        .map_err(|_| Problem::invalid("Value must be valid JSON."))
                }
                Given::Placeholder => Ok(Value::Null),
            };
            return self.named(value.and_then(|v| visitor.visit_newtype_struct(AsGiven(v))));
        }
        let (depth, attr) = (self.depth, self.attr.clone());
        visitor
            .visit_newtype_struct(self)
            .map_err(|e| e.at(depth, &attr))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        let items: Vec<Field> = match &self.given {
            Given::Text(values) => values
                .iter()
                .map(|v| self.item(Given::Text(vec![v.clone()])))
                .collect(),
            Given::Json(Value::Array(items)) => items
                .iter()
                .map(|v| self.item(Given::Json(v.clone())))
                .collect(),
            Given::Placeholder => Vec::new(),
            Given::Json(Value::Null) => return self.named(Err(self.null())),
            Given::Json(other) => {
                let problem = Problem::coded(
                    "not_a_list",
                    format!(
                        "Expected a list of items but got type \"{}\".",
                        json_type(other)
                    ),
                );
                return self.named(Err(problem));
            }
        };
        let (depth, attr) = (self.depth, self.attr.clone());
        visitor
            .visit_seq(SeqDeserializer::new(items.into_iter()))
            .map_err(|e| e.at(depth, &attr))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        let map = match &self.given {
            Given::Json(Value::Object(map)) => map.clone(),
            Given::Placeholder => Map::new(),
            Given::Json(Value::Null) => return self.named(Err(self.null())),
            Given::Json(other) => {
                let problem = Problem::invalid(format!(
                    "Invalid data. Expected a dictionary, but got {}.",
                    json_type(other)
                ));
                return self.named(Err(problem));
            }
            Given::Text(_) => {
                let problem = Problem::invalid("Invalid data. Expected a dictionary, but got str.");
                return self.named(Err(problem));
            }
        };
        let mut fields: Vec<(String, Field)> = map
            .iter()
            .map(|(key, value)| (key.clone(), self.member(key, Given::Json(value.clone()))))
            .collect();
        fields.extend(self.missing_failed(|key| map.contains_key(key)));
        let (depth, attr) = (self.depth, self.attr.clone());
        visitor
            .visit_map(MapDeserializer::new(fields.into_iter()))
            .map_err(|e| e.at(depth, &attr))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        names: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Problem> {
        if self.given != Given::Placeholder {
            return self.deserialize_map(visitor);
        }
        // A reported object reads as one with every field a placeholder.
        let fields: Vec<(String, Field)> = names
            .iter()
            .map(|name| ((*name).to_owned(), self.member(name, Given::Placeholder)))
            .collect();
        visitor.visit_map(MapDeserializer::new(fields.into_iter()))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Problem> {
        let text = self.text();
        let result = text.and_then(|t| visitor.visit_enum(t.into_deserializer()));
        self.named(result)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple
        tuple_struct identifier ignored_any
    }
}

/// A JSON value read as it is, with the field's error type.
struct AsGiven(Value);

impl<'de> de::Deserializer<'de> for AsGiven {
    type Error = Problem;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        de::Deserializer::deserialize_any(self.0, visitor)
            .map_err(|e| Problem::invalid(e.to_string()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Body {
        name: Option<String>,
        count: Option<i64>,
        active: Option<bool>,
        tags: Option<Vec<String>>,
        parent: Option<Option<i64>>,
        nested: Option<Nested>,
    }

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Nested {
        flag: Option<bool>,
        note: Option<String>,
    }

    fn json(value: Value) -> Entries {
        match value {
            Value::Object(map) => map.into_iter().map(|(k, v)| (k, Given::Json(v))).collect(),
            _ => unreachable!(),
        }
    }

    fn form(pairs: &[(&str, &str)]) -> Entries {
        text_entries(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        )
    }

    fn problems(entries: Entries) -> Vec<(String, String)> {
        parse::<Body>(entries, Dialect::Body)
            .unwrap_err()
            .into_iter()
            .map(|e| (e.attr.unwrap(), e.code))
            .collect()
    }

    #[test]
    fn free_form_json_is_taken_as_given() {
        #[derive(Debug, Deserialize)]
        struct Free {
            settings: Option<tolk_domain::json::Json>,
        }
        let given = json!({"a": [1, true, {"b": null}]});
        let parsed: Free = parse(json(json!({"settings": given.clone()})), Dialect::Body).unwrap();
        assert_eq!(parsed.settings.map(|s| s.0), Some(given.clone()));
        let text = given.to_string();
        let parsed: Free = parse(form(&[("settings", &text)]), Dialect::Body).unwrap();
        assert_eq!(
            parsed.settings.map(|s| s.0),
            Some(given),
            "form text is JSON"
        );
        let refused = parse::<Free>(form(&[("settings", "{oops")]), Dialect::Body).unwrap_err();
        let refused: Vec<(Option<String>, String)> = refused
            .iter()
            .map(|e| (e.attr.clone(), e.detail.clone()))
            .collect();
        assert_eq!(
            refused,
            [(Some("settings".into()), "Value must be valid JSON.".into())]
        );
    }

    #[test]
    fn a_json_number_is_no_boolean() {
        assert_eq!(
            problems(json(json!({"active": 0, "nested": {"flag": 1}}))),
            [
                ("active".to_owned(), "invalid".to_owned()),
                ("nested.flag".to_owned(), "invalid".to_owned())
            ]
        );
    }

    #[test]
    fn json_values_convert_as_drf_converts_them() {
        let parsed: Body = parse(
            json(json!({
                "name": "5", "count": "7", "active": "on", "tags": ["x"],
                "parent": null, "nested": {"flag": "yes"}, "unknown": 1
            })),
            Dialect::Body,
        )
        .unwrap();
        assert_eq!(
            parsed,
            Body {
                name: Some("5".into()),
                count: Some(7),
                active: Some(true),
                tags: Some(vec!["x".into()]),
                parent: Some(None),
                nested: Some(Nested {
                    flag: Some(true),
                    note: None
                }),
            }
        );
        let absent: Body = parse(json(json!({})), Dialect::Body).unwrap();
        assert_eq!(absent, Body::default(), "absent is not null");
        assert_eq!(
            problems(json(json!({"name": 5}))),
            vec![("name".to_owned(), "invalid".to_owned())],
            "unlike DRF, a number is not a string: the schema says so"
        );
    }

    #[test]
    fn every_bad_field_is_reported_with_its_dotted_name() {
        let got = problems(json(json!({
            "name": null, "count": "x", "active": "maybe", "tags": "x", "parent": "p",
            "nested": {"flag": 2, "note": "a\u{0}"}
        })));
        let expected = [
            ("name", "null"),
            ("count", "invalid"),
            ("active", "invalid"),
            ("tags", "not_a_list"),
            ("parent", "invalid"),
            ("nested.flag", "invalid"),
            ("nested.note", "null_characters_not_allowed"),
        ];
        assert_eq!(got, expected.map(|(a, c)| (a.to_owned(), c.to_owned())));
        assert_eq!(
            problems(json(json!({"nested": [1]}))),
            [("nested".to_owned(), "invalid".to_owned())]
        );
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Required {
        name: String,
        count: i64,
        inner: Inner,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        a: String,
        b: Option<i32>,
        c: bool,
    }

    #[test]
    fn every_missing_field_is_reported_with_the_bad_ones() {
        let codes = |value: Value| -> Vec<(String, String)> {
            parse::<Required>(json(value), Dialect::Body)
                .unwrap_err()
                .into_iter()
                .map(|e| (e.attr.unwrap(), e.code))
                .collect()
        };
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, c)| ((*a).to_owned(), (*c).to_owned()))
                .collect()
        };
        assert_eq!(
            codes(json!({})),
            pairs(&[
                ("name", "required"),
                ("count", "required"),
                ("inner", "required")
            ])
        );
        assert_eq!(
            codes(json!({"name": "\u{0}", "count": 1, "inner": {"b": "x"}})),
            pairs(&[
                ("name", "null_characters_not_allowed"),
                ("inner.b", "invalid"),
                ("inner.a", "required"),
                ("inner.c", "required"),
            ]),
            "given fields first, then missing ones"
        );
    }

    #[test]
    fn form_values_are_text() {
        let parsed: Body = parse(
            form(&[
                ("name", "a"),
                ("name", "c"),
                ("active", "off"),
                ("tags", "a"),
                ("tags", "b"),
                ("parent", ""),
                ("count", " 3 "),
            ]),
            Dialect::Body,
        )
        .unwrap();
        assert_eq!(parsed.name.as_deref(), Some("c"), "the last value wins");
        assert_eq!(parsed.active, Some(false));
        assert_eq!(parsed.tags, Some(vec!["a".into(), "b".into()]));
        assert_eq!(
            parsed.parent,
            Some(None),
            "empty is null for nullable fields"
        );
        assert_eq!(parsed.count, Some(3));
        assert_eq!(
            problems(form(&[("name", "\u{0}"), ("count", "")])),
            [
                ("name".to_owned(), "null_characters_not_allowed".to_owned()),
                ("count".to_owned(), "invalid".to_owned()),
            ]
        );
    }
}
