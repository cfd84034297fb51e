//! A repository laid out as real projects lay out their translations,
//! with real files from the corpus.

use std::collections::BTreeMap;
use std::path::Path;

/// A file of the corpus.
pub fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tolk-formats/tests/corpus")
            .join(name),
    )
    .unwrap()
}

/// A repository of many projects' layouts: (path in the repository, corpus file).
pub const LAYOUT: &[(&str, &str)] = &[
    ("locale/ar/LC_MESSAGES/django.po", "po/django-admin-ar.po"),
    ("locale/de/LC_MESSAGES/django.po", "po/django-admin-de.po"),
    (
        "locale/ar/LC_MESSAGES/djangojs.po",
        "po/django-admin-ar-djangojs.po",
    ),
    (
        "locale/ru/LC_MESSAGES/djangojs.po",
        "po/django-admin-ru-djangojs.po",
    ),
    (
        "locale/zh_Hans/LC_MESSAGES/djangojs.po",
        "po/django-admin-zh_Hans-djangojs.po",
    ),
    ("docs/locale/sphinx.pot", "pot/sphinx.pot"),
    ("docs/locale/ar.po", "po/sphinx-ar.po"),
    ("docs/locale/de.po", "po/sphinx-de.po"),
    (
        "app/src/main/res/values/strings.xml",
        "android/antennapod-values-strings.xml",
    ),
    (
        "app/src/main/res/values-ar/strings.xml",
        "android/antennapod-values-ar-strings.xml",
    ),
    (
        "app/src/main/res/values-zh-rCN/strings.xml",
        "android/antennapod-values-zh-rCN-strings.xml",
    ),
    (
        "validator/ValidationMessages.properties",
        "properties/hibernate-validator-ValidationMessages.properties",
    ),
    (
        "validator/ValidationMessages_de.properties",
        "properties/hibernate-validator-ValidationMessages_de.properties",
    ),
    (
        "validator/ValidationMessages_pt_BR.properties",
        "properties/hibernate-validator-ValidationMessages_pt_BR.properties",
    ),
    (
        "Humanizer/Properties/Resources.resx",
        "resx/humanizer-Resources.resx",
    ),
    (
        "Humanizer/Properties/Resources.ru.resx",
        "resx/humanizer-Resources.ru.resx",
    ),
    (
        "Humanizer/Properties/Resources.zh-Hans.resx",
        "resx/humanizer-Resources.zh-Hans.resx",
    ),
    (
        "web/countries/en.json",
        "json-nested/i18n-iso-countries-en.json",
    ),
    (
        "web/countries/ar.json",
        "json-nested/i18n-iso-countries-ar.json",
    ),
    (
        "web/countries/zh.json",
        "json-nested/i18n-iso-countries-zh.json",
    ),
    (
        "public/locales/en/translation.json",
        "i18next/actual-en.json",
    ),
    (
        "public/locales/pl/translation.json",
        "i18next/actual-pl.json",
    ),
    (
        "ios/Base.lproj/Localizable.strings",
        "strings/mastodon-ios-Base-Localizable.strings",
    ),
    (
        "ios/ar.lproj/Localizable.strings",
        "strings/mastodon-ios-ar-Localizable.strings",
    ),
    (
        "ios/ja.lproj/Localizable.strings",
        "strings/mastodon-ios-ja-Localizable.strings",
    ),
    (
        "lang/de/validation.php",
        "php/laravel-lang-de-validation.php",
    ),
    (
        "lang/ar/validation.php",
        "php/laravel-lang-ar-validation.php",
    ),
    ("config/locales/en.yml", "yaml/rails-i18n-en.yml"),
    ("config/locales/de.yml", "yaml/rails-i18n-de.yml"),
    (
        "extension/_locales/en/messages.json",
        "webextension/ublock-en-messages.json",
    ),
    (
        "extension/_locales/ja/messages.json",
        "webextension/ublock-ja-messages.json",
    ),
    ("translations/flameshot_ar.ts", "ts/flameshot-ar.ts"),
    ("translations/flameshot_de_DE.ts", "ts/flameshot-de_DE.ts"),
    // Not translations, or not the project's own.
    (
        "node_modules/lib/locales/de.json",
        "json/laravel-lang-de.json",
    ),
    (
        "node_modules/lib/locales/ja.json",
        "json/laravel-lang-ja.json",
    ),
    ("src/de.rs", "po/django-admin-de.po"),
    ("docs/en/index.md", "po/django-admin-de.po"),
    ("docs/de/index.md", "po/django-admin-de.po"),
    // A lone catalogue with nothing to start others from.
    ("misc/fr.po", "po/django-admin-de.po"),
];

/// The layout's files, by path.
pub fn repository() -> BTreeMap<String, Vec<u8>> {
    LAYOUT
        .iter()
        .map(|(path, source)| ((*path).to_owned(), corpus(source)))
        .collect()
}
