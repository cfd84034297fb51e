"""The editor in a real Chromium, driven by Playwright, keyboard only.

Usage: editor.py SITE_URL PASSWORD TOKEN AXE_JS

As the superuser `root` (password PASSWORD; TOKEN is an API token of
theirs, for checking what the pages did through the API): signs in, opens
the third Japanese string of `demo/app` from its `web_url`, and
translates ten strings with the keyboard alone (Ctrl+Enter each), timing
each key press until the next string is shown; then every other shortcut:
Ctrl+Shift+Enter (needs editing), Alt+Enter (suggestion), Ctrl+M then 1
(copy a suggestion), Ctrl+Down and Ctrl+Up (move without saving), `?`
(the list of shortcuts); accepts the suggestion, sees checks run as it
types, dismisses one with Ctrl+I then 1, approves as a reviewer,
comments and searches; commits from the component's page and adds a
person on the People page, whose one-time link opens the password form. Downloads the file from the translation's
page and uploads it back with a change; sees a locked component's and,
as a visitor, the public project's editor without a save. Checks the
component, translation and editor pages with axe-core and at 320 px
wide. Prints the checksums and texts of
the ten strings as JSON on its last line, for the caller to find them in
the next commit. Also: the list view (Ctrl+Enter saves in place, more
strings as one scrolls). Exits non-zero with the reason on the first failure.
"""

import json
import statistics
import sys

from playwright.sync_api import sync_playwright

from checks import accessible, check, fail, narrow

SITE, PASSWORD, TOKEN, AXE = sys.argv[1:5]
API = {"Authorization": f"Token {TOKEN}"}
UNITS = f"{SITE}/api/translations/demo/app/ja/units/"


def unit(page, checksum):
    """The unit of Japanese with this checksum, as the API shows it."""
    found = page.request.get(f"{UNITS}?page_size=1000", headers=API).json()["results"]
    for item in found:
        if item["web_url"].endswith(f"checksum={checksum}"):
            return item
    fail(f"no unit with checksum {checksum}")


def shown(page):
    """The checksum of the string the editor shows."""
    return page.input_value("#editor input[name=checksum]")


def moved_from(page, checksum):
    """Waits until the editor shows another string than `checksum`."""
    page.wait_for_function(
        "old => { const c = document.querySelector('#editor input[name=checksum]');"
        " return c && c.value !== old; }", arg=checksum)


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium", args=["--no-sandbox"]
    )
    context = browser.new_context(viewport={"width": 320, "height": 800})
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))

    page.goto(f"{SITE}/accounts/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{SITE}/accounts/profile/")

    # A string's web_url, as the API hands it out: the third string.
    listed = page.request.get(f"{UNITS}?page_size=20", headers=API).json()
    first = listed["results"][2]
    page.goto(first["web_url"])
    check(page.inner_text("#position") == f"String 3 of {listed['count']}",
          f"position {page.inner_text('#position')!r}")
    check(page.inner_text(".source .text") == first["source"][0], "another source shown")
    narrow(page, "editor")

    # Ten strings, keyboard alone: the field has the focus, Ctrl+Enter
    # saves and shows the next string.
    saved, waits = [], []
    for n in range(10):
        check(page.evaluate("document.activeElement.id") == "id_target_0",
              f"string {n}: focus on {page.evaluate('document.activeElement.id')!r}")
        checksum = shown(page)
        text = f"訳文 {n} <b>&amp;</b>"
        page.keyboard.press("Control+a")
        page.keyboard.type(text)
        # The browser's clock: the key press, then the next page's
        # content ready (its navigation's DOMContentLoaded end).
        started = page.evaluate("performance.timeOrigin + performance.now()")
        page.keyboard.press("Control+Enter")
        moved_from(page, checksum)
        waits.append(page.evaluate(
            "performance.timeOrigin"
            " + performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") - started)
        saved.append({"checksum": checksum, "text": text})
    print(f"key press to next string: median {statistics.median(waits):.1f} ms, "
          f"max {max(waits):.1f} ms over {len(waits)}")
    for item in saved:
        stored = unit(page, item["checksum"])
        check(stored["target"][0] == item["text"] and stored["state"] == 20,
              f"{item['checksum']}: the API shows {stored['target']} in state {stored['state']}")

    # Ctrl+Shift+Enter: saved as needing editing.
    checksum = shown(page)
    page.keyboard.press("Control+a")
    page.keyboard.type("要確認")
    page.keyboard.press("Control+Shift+Enter")
    moved_from(page, checksum)
    stored = unit(page, checksum)
    check(stored["state"] == 10 and stored["target"][0] == "要確認",
          f"Ctrl+Shift+Enter stored {stored['target']} in state {stored['state']}")

    # Alt+Enter: a suggestion, the string itself unchanged.
    checksum = shown(page)
    before = unit(page, checksum)
    page.keyboard.press("Control+a")
    page.keyboard.type("提案")
    page.keyboard.press("Alt+Enter")
    moved_from(page, checksum)
    stored = unit(page, checksum)
    check((stored["target"], stored["state"]) == (before["target"], before["state"]),
          f"Alt+Enter changed the string: {stored['target']} {stored['state']}")
    suggestions = page.request.get(f"{SITE}/api/units/{stored['id']}/suggestions/",
                                   headers=API).json()
    check([s["target"] for s in suggestions["results"]] == [["提案"]],
          f"Alt+Enter made {suggestions}")

    # Ctrl+Up and Ctrl+Down move without saving.
    here = shown(page)
    kept = unit(page, here)["target"]
    page.keyboard.type("捨てる")
    page.keyboard.press("Control+ArrowUp")
    moved_from(page, here)
    check(shown(page) == checksum, "Ctrl+Up did not go back to the suggested string")
    check(unit(page, here)["target"] == kept, "Ctrl+Up saved what was typed")
    page.keyboard.press("Control+ArrowDown")
    moved_from(page, checksum)
    check(shown(page) == here, "Ctrl+Down did not come back")
    page.keyboard.press("Control+ArrowUp")
    moved_from(page, here)

    # Ctrl+M then 1 copies the first suggestion into the field.
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.press("Control+m")
    page.keyboard.press("1")
    check(page.input_value("#id_target_0") == "提案",
          f"Ctrl+M 1 gave {page.input_value('#id_target_0')!r}")
    narrow(page, "editor with a suggestion")

    # `?` lists the shortcuts (outside the field).
    page.locator("#position").click()
    page.keyboard.press("?")
    check(page.evaluate("document.getElementById('shortcuts').open"), "? did not list the shortcuts")
    page.keyboard.press("Escape")

    # The suggestion's Accept button stores it as the translation.
    with page.expect_navigation():
        page.get_by_role("button", name="Accept", exact=True).click()
    check(unit(page, checksum)["target"] == ["提案"], "accepting did not store the suggestion")

    # Checks run as one types, with the server's rules; Ctrl+I then 1
    # dismisses the first failing check of a saved string.
    page.locator("#id_target_0").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("二重  空白")
    try:
        page.wait_for_function(
            "() => document.getElementById('typed-checks').textContent.includes('double_space')",
            timeout=10000)
    except Exception:
        fail(f"checks as typed: {page.inner_text('#typed-checks')!r}")
    page.keyboard.press("Control+Enter")
    moved_from(page, checksum)
    after = shown(page)
    page.keyboard.press("Control+ArrowUp")
    moved_from(page, after)
    failing = page.locator("#failing code").all_inner_texts()
    check("double_space" in failing, f"failing checks shown: {failing}")
    with page.expect_navigation():
        page.keyboard.press("Control+i")
        page.keyboard.press("1")
    dismissed = page.locator("#dismissed code").all_inner_texts()
    check(dismissed == failing[:1], f"Ctrl+I 1 dismissed {dismissed} of {failing}")
    check(page.locator("#failing code").all_inner_texts() == failing[1:],
          "the dismissed check is still failing")

    # A reviewer approves: the project reviews, the box is there.
    answer = page.request.patch(f"{SITE}/api/projects/demo/",
                                data={"translation_review": True}, headers=API)
    check(answer.status == 200, f"review on: {answer.status}")
    page.reload()
    checksum = shown(page)
    page.keyboard.press("Control+a")
    page.keyboard.type("承認済み")
    page.check("#id_approved")
    page.keyboard.press("Control+Enter")
    moved_from(page, checksum)
    stored = unit(page, checksum)
    check((stored["target"], stored["state"]) == (["承認済み"], 30),
          f"approving stored {stored['target']} in state {stored['state']}")
    answer = page.request.patch(f"{SITE}/api/projects/demo/",
                                data={"translation_review": False}, headers=API)
    check(answer.status == 200, f"review off: {answer.status}")

    # A comment, through its form.
    page.fill("#id_comment", "<i>確認</i> please")
    with page.expect_navigation():
        page.get_by_role("button", name="Comment", exact=True).click()
    comments = page.locator(".comments .text").all_inner_texts()
    check(comments == ["<i>確認</i> please"], f"comments shown: {comments}")

    # A search in the box: the string saved as needing editing.
    page.fill("#id_q", "state:needs-editing")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    check(page.inner_text("#position") == "String 1 of 1", f"search: {page.inner_text('#position')!r}")
    check(page.input_value("#id_target_0") == "要確認", "the search found another string")

    # The list view: Ctrl+Enter saves a string in place and goes to the
    # next field; the next page comes as one scrolls.
    page.goto(f"{SITE}/zen/demo/app/ja/")
    narrow(page, "list view")
    forms = page.locator(".zen-form")
    count = forms.count()
    check(count == 25, f"{count} strings on the list's first page")
    zen_checksum = forms.nth(20).locator("input[name=checksum]").input_value()
    forms.nth(20).locator("textarea").first.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("一覧で")
    page.keyboard.press("Control+Enter")
    saved_note = page.locator(".zen-form .saved").nth(20)
    try:
        page.wait_for_function(
            "() => document.querySelectorAll('.zen-form .saved')[20].textContent.startsWith('Saved')"
            " || document.querySelectorAll('.zen-form .saved')[20].textContent.startsWith('Not')",
            timeout=10000)
    except Exception:
        fail(f"the list's save said {saved_note.inner_text()!r}")
    check(saved_note.inner_text() == "Saved", f"the list's save said {saved_note.inner_text()!r}")
    check(page.evaluate("document.activeElement.id").startswith("t"),
          "the focus did not move to the next field")
    check(page.evaluate("document.activeElement.closest('.zen-form')"
                        ".querySelector('input[name=checksum]').value") != zen_checksum,
          "the focus stayed on the saved string")
    check(unit(page, zen_checksum)["target"] == ["一覧で"], "the list's save was not stored")
    # Alt+Enter in the list suggests, the string itself unchanged; `?`
    # lists the shortcuts there too.
    field = page.locator(".zen-form").nth(22)
    zen_suggested = field.locator("input[name=checksum]").input_value()
    before = unit(page, zen_suggested)
    field.locator("textarea").first.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("一覧の提案")
    page.keyboard.press("Alt+Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('.zen-form .saved')[22].textContent !== ''"
        " && !document.querySelectorAll('.zen-form .saved')[22].textContent.startsWith('Saving')")
    note = field.locator(".saved").inner_text()
    check(note == "Suggested", f"the list's suggestion said {note!r}")
    after_suggestion = unit(page, zen_suggested)
    check(after_suggestion["target"] == before["target"], "Alt+Enter in the list changed the string")
    suggestions = page.request.get(f"{SITE}/api/units/{after_suggestion['id']}/suggestions/",
                                   headers=API).json()
    check([s["target"] for s in suggestions["results"]] == [["一覧の提案"]],
          f"Alt+Enter in the list made {suggestions}")
    page.locator("h1").click()
    page.keyboard.press("?")
    check(page.evaluate("document.getElementById('shortcuts').open"), "? did not list the shortcuts in the list")
    page.keyboard.press("Escape")
    page.locator("#more").scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelectorAll('#zen > li').length > 25")
    check(not refused, f"the policy refused or a script failed: {refused}")

    # The file from the translation's page, and back with a change.
    page.goto(f"{SITE}/projects/demo/app/ja/")
    narrow(page, "translation")
    with page.expect_download() as info:
        page.get_by_role("link", name="As stored").click()
    download = info.value
    check(download.suggested_filename == "demo-app-ja.po", download.suggested_filename)
    with open(download.path(), encoding="utf-8") as stored_file:
        content = stored_file.read()
    for item in saved:
        check(f'msgstr "{item["text"]}"' in content, f"{item['text']} not in the download")
    changed = content.replace(f'msgstr "{saved[0]["text"]}"', 'msgstr "アップロード"')
    page.set_input_files("#id_file", files=[
        {"name": "ja.po", "mimeType": "text/x-po", "buffer": changed.encode("utf-8")}])
    page.select_option("#id_conflicts", "replace-translated")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_selector("#notice")
    check(page.inner_text("#notice").startswith("The file was uploaded: 1 strings taken"),
          f"upload notice {page.inner_text('#notice')!r}")
    check(unit(page, saved[0]["checksum"])["target"] == ["アップロード"], "the upload was not taken")
    saved[0]["text"] = "アップロード"

    # A locked component: the same page, no field to save.
    answer = page.request.post(f"{SITE}/api/components/demo/app/lock/",
                               data={"lock": True}, headers=API)
    check(answer.status == 200, f"lock: {answer.status}")
    page.goto(first["web_url"])
    check(page.locator("#save").count() == 0, "a locked component offers a save")
    check("locked" in page.inner_text("#refusal"), f"refusal {page.inner_text('#refusal')!r}")
    answer = page.request.post(f"{SITE}/api/components/demo/app/lock/",
                               data={"lock": False}, headers=API)
    check(answer.status == 200, f"unlock: {answer.status}")
    check(not refused, f"the policy refused or a script failed: {refused}")
    context.close()

    # An anonymous visitor reads the public project: no field to save.
    visitor = browser.new_context(viewport={"width": 320, "height": 800})
    page = visitor.new_page()
    page.goto(first["web_url"])
    check(page.locator("#save").count() == 0, "a visitor is offered a save")
    check(page.inner_text("#refusal") == "Sign in to translate.",
          f"refusal {page.inner_text('#refusal')!r}")
    narrow(page, "editor for a visitor")
    visitor.close()

    # Those who look after the component commit from its page; an
    # administrator adds a person on the People page and gets their link.
    page = browser.new_page()
    page.goto(f"{SITE}/accounts/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{SITE}/accounts/profile/")
    page.goto(f"{SITE}/projects/demo/app/")
    with page.expect_navigation():
        page.get_by_role("button", name="Commit", exact=True).click()
    check(page.inner_text("#notice") == "The pending changes were committed.",
          f"commit notice {page.inner_text('#notice')!r}")
    check(page.inner_text("#pending") == "Nothing waits to be committed.",
          f"after the commit: {page.inner_text('#pending')!r}")
    page.get_by_role("link", name="People").click()
    page.wait_for_url(f"{SITE}/manage/users/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_full_name", "New Comer")
    page.fill("#id_email", "newcomer@example.com")
    with page.expect_navigation():
        page.get_by_role("button", name="Add and make a password link").click()
    link = page.input_value("#id_link")
    check(link.startswith(f"{SITE}/accounts/password/set/"), f"password link {link!r}")
    newcomer = browser.new_context().new_page()
    newcomer.goto(link)
    check(newcomer.locator("#id_new_password1").count() == 1, "the link offers no password field")
    newcomer.close()
    page.close()

    # axe-core on the new page kinds, signed in.
    audit = browser.new_context(bypass_csp=True)
    page = audit.new_page()
    page.goto(f"{SITE}/accounts/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{SITE}/accounts/profile/")
    for address, name in [
        ("/projects/demo/app/", "component"),
        ("/projects/demo/app/ja/", "translation"),
        (first["web_url"].removeprefix(SITE), "editor"),
        ("/translate/demo/app/ja/?q=has:suggestion", "editor with a suggestion"),
        ("/zen/demo/app/ja/", "list view"),
        ("/projects/demo/-/ja/", "project language"),
        ("/engage/demo/", "engage"),
        ("/projects/demo/nothing/", "not found"),
        ("/manage/users/", "people"),
    ]:
        page.goto(f"{SITE}{address}")
        accessible(page, name, AXE)
    audit.close()
    browser.close()
print(json.dumps(saved))
