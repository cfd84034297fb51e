//! Finding components in a repository laid out as real projects lay out
//! their translations, with real files from the corpus.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod layout;

use std::collections::BTreeMap;

use layout::{corpus, repository};
use tolk_service::discovery::{Found, discover};

fn row(f: &Found) -> (String, &str, String, String, String, String) {
    (
        f.name.clone(),
        f.file_format,
        f.filemask.clone(),
        f.template.clone(),
        f.new_base.clone(),
        f.languages.join(","),
    )
}

#[test]
fn finds_each_layout_its_format_and_its_template() {
    let files = repository();
    let paths: Vec<String> = files.keys().cloned().collect();
    let mut reads = Vec::new();
    let discovery = discover(
        &paths,
        &mut |path| {
            reads.push(path.to_owned());
            files.get(path).cloned()
        },
        "en",
    );
    let found: Vec<_> = discovery.components.iter().map(row).collect();
    let s = String::from;
    assert_eq!(
        found,
        vec![
            (
                s("Resources"),
                "resx",
                s("Humanizer/Properties/Resources.*.resx"),
                s("Humanizer/Properties/Resources.resx"),
                s(""),
                s("ru,zh-Hans")
            ),
            (
                s("strings"),
                "aresource",
                s("app/src/main/res/values-*/strings.xml"),
                s("app/src/main/res/values/strings.xml"),
                s(""),
                s("ar,zh-rCN")
            ),
            (
                s("locales"),
                "ruby-yaml",
                s("config/locales/*.yml"),
                s("config/locales/en.yml"),
                s(""),
                s("de")
            ),
            (
                s("locale"),
                "po",
                s("docs/locale/*.po"),
                s(""),
                s("docs/locale/sphinx.pot"),
                s("ar,de")
            ),
            (
                s("messages"),
                "webextension",
                s("extension/_locales/*/messages.json"),
                s("extension/_locales/en/messages.json"),
                s(""),
                s("ja")
            ),
            (
                s("Localizable"),
                "strings",
                s("ios/*.lproj/Localizable.strings"),
                s("ios/Base.lproj/Localizable.strings"),
                s(""),
                s("ar,ja")
            ),
            (
                s("django"),
                "po",
                s("locale/*/LC_MESSAGES/django.po"),
                s(""),
                s(""),
                s("ar,de")
            ),
            (
                s("djangojs"),
                "po",
                s("locale/*/LC_MESSAGES/djangojs.po"),
                s(""),
                s(""),
                s("ar,ru,zh_Hans")
            ),
            (
                s("translation"),
                "i18nextv4",
                s("public/locales/*/translation.json"),
                s("public/locales/en/translation.json"),
                s(""),
                s("pl")
            ),
            (
                s("flameshot"),
                "ts",
                s("translations/flameshot_*.ts"),
                s(""),
                s(""),
                s("ar,de_DE")
            ),
            (
                s("ValidationMessages"),
                "properties",
                s("validator/ValidationMessages_*.properties"),
                s("validator/ValidationMessages.properties"),
                s(""),
                s("de,pt_BR")
            ),
            (
                s("countries"),
                "json-nested",
                s("web/countries/*.json"),
                s("web/countries/en.json"),
                s(""),
                s("ar,zh")
            ),
        ]
    );
    // Laravel's files need the source language's file as their template.
    assert_eq!(discovery.skipped.len(), 1, "{:?}", discovery.skipped);
    assert_eq!(discovery.skipped[0].filemask, "lang/*/validation.php");
    assert_eq!(
        discovery.skipped[0].reason,
        "laravel files need a template, and no file of the source language (en) or \
         without a language code was found"
    );
    // One file is looked at per group, not every file.
    assert_eq!(reads.len(), discovery.components.len() + 1, "{reads:?}");
}

#[test]
fn names_stay_unique_and_words_that_are_rare_codes_are_no_languages() {
    let strings = corpus("android/antennapod-values-strings.xml");
    let arabic = corpus("android/antennapod-values-ar-strings.xml");
    let catalogue = corpus("po/django-admin-de.po");
    let files: BTreeMap<String, Vec<u8>> = [
        ("app/res/values/strings.xml", &strings),
        ("app/res/values-ar/strings.xml", &arabic),
        ("core/res/values/strings.xml", &strings),
        ("core/res/values-ar/strings.xml", &arabic),
        // `src` and `bin` are codes of rare languages, not here.
        ("src/messages.po", &catalogue),
        ("bin/messages.po", &catalogue),
        // ... unless other codes make the group: Bini is a language.
        ("i18n/de.po", &catalogue),
        ("i18n/bin.po", &catalogue),
    ]
    .into_iter()
    .map(|(p, b)| (p.to_owned(), b.clone()))
    .collect();
    let paths: Vec<String> = files.keys().cloned().collect();
    let discovery = discover(&paths, &mut |p| files.get(p).cloned(), "en");
    let names: Vec<(&str, &str, &str)> = discovery
        .components
        .iter()
        .map(|f| (f.name.as_str(), f.slug.as_str(), f.filemask.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("app-strings", "app-strings", "app/res/values-*/strings.xml"),
            (
                "core-strings",
                "core-strings",
                "core/res/values-*/strings.xml"
            ),
            ("i18n", "i18n", "i18n/*.po"),
        ]
    );
    assert_eq!(discovery.components[2].languages, ["bin", "de"]);
}

#[test]
fn odd_paths_are_looked_at_without_harm() {
    let catalogue = corpus("po/django-admin-de.po");
    let odd = [
        "ü/é-ar.po",
        "ü/é-de.po",
        ".-_.po",
        "a..b/-_-/x.po",
        "po/-.po",
        "po/ar-.po",
        "po/.ar.po",
        "---/ar/---.po",
        "---/de/---.po",
        "x/ar",
        "x/de",
        "de.po/ar.po",
        "ar/de/ar.po",
        "ar/de/de.po",
        "_/__/___.json",
        "translations/zh-Hant-TW.po",
        "translations/sr@latin.po",
    ];
    let paths: Vec<String> = odd.iter().map(|p| (*p).to_owned()).collect();
    let discovery = discover(&paths, &mut |_| Some(catalogue.clone()), "en");
    let masks: Vec<&str> = discovery
        .components
        .iter()
        .map(|f| f.filemask.as_str())
        .collect();
    assert_eq!(
        masks,
        [
            "---/*/---.po",
            "ar/de/*.po",
            "translations/*.po",
            "ü/é-*.po"
        ]
    );
}
