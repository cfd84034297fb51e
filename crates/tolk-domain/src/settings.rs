//! The one place a resource's settings are listed.
//!
//! [`settings!`](crate::settings) takes each setting once (its doc, name,
//! type, whether a create must give it, and its default) and writes:
//!
//! * the settings struct itself (serde, with the defaults filling in
//!   settings a stored document lacks, so a new setting needs no data
//!   migration);
//! * its `Default`;
//! * the request bodies: a *create* body, where required settings must be
//!   given and the rest may be (POST and PUT), and a *patch* body where any
//!   may be (PATCH). Both are what handlers parse and, with the `openapi`
//!   feature, what the OpenAPI document shows. A nullable setting
//!   (`Option<T>`) is `Option<Option<T>>` in a body: absent, or given as
//!   null or a value (the API's field reader gives the outer `Option` that
//!   meaning; plain serde readers take null for absent);
//! * `apply` on both bodies, writing the given settings over current ones.
//!
//! Validation stays with each resource: its rules are not one per field.

/// Declares a settings struct with its default and request bodies; see the
/// [module documentation](crate::settings). Each field is written
/// `name: Type [required] = default` or `name: Type [] = default`.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            create: $create:ident,
            patch: $patch:ident,
            fields: {
                $(
                    $(#[$field_meta:meta])*
                    $field:ident : $ty:ty [$($flag:ident)?] = $default:expr
                ),* $(,)?
            }
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct $name {
            $(
                $(#[$field_meta])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    $($field: $default,)*
                }
            }
        }

        #[doc = concat!("A request body creating or replacing [`", stringify!($name), "`]: required settings must be given.")]
        #[derive(Debug, Clone, PartialEq, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $create {
            $(
                $(#[$field_meta])*
                pub $field: $crate::settings::settings!(@create_type [$($flag)?] $ty),
            )*
        }

        #[doc = concat!("A request body changing some of [`", stringify!($name), "`]: any setting may be left out.")]
        #[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $patch {
            $(
                $(#[$field_meta])*
                pub $field: Option<$ty>,
            )*
        }

        impl $create {
            /// Writes every given setting over `settings`.
            pub fn apply(self, settings: &mut $name) {
                $( $crate::settings::settings!(@apply_create [$($flag)?] self settings $field); )*
            }
        }

        impl $patch {
            /// Writes every given setting over `settings`.
            pub fn apply(self, settings: &mut $name) {
                $(
                    if let Some(value) = self.$field {
                        settings.$field = value;
                    }
                )*
            }
        }
    };
    (@create_type [required] $ty:ty) => { $ty };
    (@create_type [] $ty:ty) => { Option<$ty> };
    (@apply_create [required] $from:ident $to:ident $field:ident) => {
        $to.$field = $from.$field;
    };
    (@apply_create [] $from:ident $to:ident $field:ident) => {
        if let Some(value) = $from.$field {
            $to.$field = value;
        }
    };
}

pub(crate) use settings;

#[cfg(test)]
mod tests {
    settings! {
        /// What a widget can be told.
        pub struct WidgetSettings {
            create: WidgetCreate,
            patch: WidgetPatch,
            fields: {
                /// Its name.
                name: String [required] = "unnamed".into(),
                /// How many.
                count: i32 [] = 3,
                /// Its parent, if any.
                parent: Option<i64> [] = Some(1),
            }
        }
    }

    #[test]
    fn defaults_fill_what_a_stored_document_lacks() {
        let stored: WidgetSettings = serde_json::from_str(r#"{"count": 5}"#).unwrap();
        assert_eq!(
            stored,
            WidgetSettings {
                name: "unnamed".into(),
                count: 5,
                parent: Some(1),
            }
        );
    }

    #[test]
    fn bodies_apply_what_they_give() {
        let mut settings = WidgetSettings::default();
        let create: WidgetCreate = serde_json::from_str(r#"{"name": "w"}"#).unwrap();
        create.apply(&mut settings);
        assert_eq!((settings.name.as_str(), settings.count), ("w", 3));
        assert!(serde_json::from_str::<WidgetCreate>(r#"{"count": 1}"#).is_err());
        let patch: WidgetPatch = serde_json::from_str(r#"{"count": 7, "parent": 2}"#).unwrap();
        patch.apply(&mut settings);
        assert_eq!((settings.count, settings.parent), (7, Some(2)));
        let nothing: WidgetPatch = serde_json::from_str("{}").unwrap();
        assert_eq!(nothing, WidgetPatch::default());
    }
}
