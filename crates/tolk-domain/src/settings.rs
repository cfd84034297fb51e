//! The one place a resource's settings are listed.
//!
//! `settings!` takes each setting once (its doc, name, type, whether a
//! create must give it, and its default) and writes:
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
//! * `apply` on both bodies, writing the given settings over current ones,
//!   and the patch a create body amounts to (`From`);
//! * optionally, `extra` fields that bodies carry beside the settings (such
//!   as references kept in other tables): both bodies have them, `apply`
//!   leaves them to the caller.
//!
//! Validation stays with each resource: its rules are not one per field.

/// Declares a settings struct with its default and request bodies; see the
/// [module documentation](crate::settings). Settings a create must give
/// are listed under `required`, the others under `optional`, each as
/// `name: Type = default`.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            create: $create:ident,
            patch: $patch:ident,
            required: {
                $(
                    $(#[$req_meta:meta])*
                    $req:ident : $req_ty:ty = $req_default:expr
                ),* $(,)?
            },
            optional: {
                $(
                    $(#[$opt_meta:meta])*
                    $opt:ident : $opt_ty:ty = $opt_default:expr
                ),* $(,)?
            }
            $(, extra: {
                $(
                    $(#[$extra_meta:meta])*
                    $extra:ident : $extra_ty:ty
                ),* $(,)?
            })? $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(default)]
        pub struct $name {
            $(
                $(#[$req_meta])*
                pub $req: $req_ty,
            )*
            $(
                $(#[$opt_meta])*
                pub $opt: $opt_ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    $($req: $req_default,)*
                    $($opt: $opt_default,)*
                }
            }
        }

        #[doc = concat!("A request body creating or replacing [`", stringify!($name), "`]: required settings must be given.")]
        #[derive(Debug, Clone, PartialEq, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $create {
            $(
                $(#[$req_meta])*
                pub $req: $req_ty,
            )*
            $(
                $(#[$opt_meta])*
                pub $opt: Option<$opt_ty>,
            )*
            $($(
                $(#[$extra_meta])*
                pub $extra: Option<$extra_ty>,
            )*)?
        }

        #[doc = concat!("A request body changing some of [`", stringify!($name), "`]: any setting may be left out.")]
        #[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct $patch {
            $(
                $(#[$req_meta])*
                pub $req: Option<$req_ty>,
            )*
            $(
                $(#[$opt_meta])*
                pub $opt: Option<$opt_ty>,
            )*
            $($(
                $(#[$extra_meta])*
                pub $extra: Option<$extra_ty>,
            )*)?
        }

        impl From<$create> for $patch {
            fn from(create: $create) -> Self {
                Self {
                    $($req: Some(create.$req),)*
                    $($opt: create.$opt,)*
                    $($($extra: create.$extra,)*)?
                }
            }
        }

        impl $create {
            /// Writes every given setting over `settings`.
            pub fn apply(self, settings: &mut $name) {
                $patch::from(self).apply(settings);
            }
        }

        impl $patch {
            /// Writes every given setting over `settings`.
            pub fn apply(self, settings: &mut $name) {
                $(
                    if let Some(value) = self.$req {
                        settings.$req = value;
                    }
                )*
                $(
                    if let Some(value) = self.$opt {
                        settings.$opt = value;
                    }
                )*
            }
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
            required: {
                /// Its name.
                name: String = "unnamed".into(),
            },
            optional: {
                /// How many.
                count: i32 = 3,
                /// Its parent, if any.
                parent: Option<i64> = Some(1),
            },
            extra: {
                /// Kept elsewhere.
                tags: Vec<String>,
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
        let create: WidgetCreate = serde_json::from_str(r#"{"name": "v", "tags": ["a"]}"#).unwrap();
        let patch = WidgetPatch::from(create);
        assert_eq!(patch.name.as_deref(), Some("v"));
        assert_eq!(
            (patch.count, patch.tags),
            (None, Some(vec!["a".to_owned()]))
        );
    }
}
