"""The pages in a real Chromium, driven by Playwright.

Usage: pages.py SITE_URL PASSWORD LINK AXE_JS

As the superuser `root` (password PASSWORD): signs in with the keyboard
alone, renews the API token and uses it on the API, signs out; opens the
one-time LINK of `ada`; sees the front page list the project `demo`
(private: not before signing in). Every page kind is checked with axe-core (no
critical or serious violation) and at 320 px wide (no sideways scrolling);
the pages' own Content-Security-Policy must not refuse anything of theirs.
Exits non-zero with the reason on the first failure.
"""

import sys

from playwright.sync_api import sync_playwright

from checks import accessible, check, narrow

SITE, PASSWORD, LINK, AXE = sys.argv[1:5]


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium", args=["--no-sandbox"]
    )
    # The flow, under the pages' own policy: anything it refuses is a fault.
    context = browser.new_context(viewport={"width": 320, "height": 640})
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)

    page.goto(f"{SITE}/")
    check(page.get_by_role("link", name="Demo").count() == 0, "a private project shown to a visitor")
    check("Sign in" in page.inner_text("header"), "no way to sign in from the front page")
    narrow(page, "empty front page")
    page.goto(f"{SITE}/accounts/login/?next=/accounts/profile/")
    check(page.title().startswith("Sign in"), f"title {page.title()!r}")
    narrow(page, "sign-in")
    # The stylesheet came (same origin, allowed by the policy).
    check(page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") == "768px",
          "the style sheet did not apply")
    # Keyboard only: the username field has the focus.
    check(page.evaluate("document.activeElement.id") == "id_username", "focus not on the username")
    page.keyboard.type("root")
    page.keyboard.press("Tab")
    page.keyboard.type("not the password")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    check("Please enter a correct username and password" in page.inner_text("main"),
          "a wrong password was not said")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{SITE}/accounts/profile/")
    check("(root)" in page.inner_text("h1"), f"profile heading {page.inner_text('h1')!r}")
    cookies = {c["name"]: c for c in context.cookies()}
    session = cookies.get("tolk_session")
    check(session and session["httpOnly"] and session["sameSite"] == "Lax",
          f"session cookie {session}")
    check(page.evaluate("document.cookie") == "", "a cookie is readable by scripts")
    narrow(page, "profile")

    # A new token, shown once, works on the API.
    page.get_by_role("button", name="Make a new API token").press("Enter")
    page.wait_for_selector("#id_token")
    token = page.input_value("#id_token")
    check(token.startswith("wlu_") and len(token) == 40, f"token {token!r}")
    answer = page.request.get(f"{SITE}/api/users/root/",
                              headers={"Authorization": f"Token {token}"})
    check(answer.status == 200 and answer.json()["username"] == "root",
          f"the new token on the API: {answer.status}")
    narrow(page, "profile with a token")

    # The front page lists the private project to root.
    page.goto(f"{SITE}/")
    check(page.get_by_role("link", name="Demo").count() == 1, "the front page does not list Demo")
    narrow(page, "front page")
    page.get_by_role("link", name="Demo").press("Enter")
    page.wait_for_url(f"{SITE}/projects/demo/")
    check(page.inner_text("h1") == "Demo", f"project heading {page.inner_text('h1')!r}")
    narrow(page, "project")

    # Sign out: the profile asks to sign in again.
    page.get_by_role("button", name="Sign out").press("Enter")
    page.wait_for_url(f"{SITE}/accounts/login/")
    page.goto(f"{SITE}/accounts/profile/")
    check(page.url.startswith(f"{SITE}/accounts/login/"), f"after signing out: {page.url}")

    # The one-time link.
    page.goto(LINK)
    check("ada" in page.inner_text("main"), "the link's page does not name ada")
    narrow(page, "password link")
    check(not refused, f"the policy refused: {refused}")
    context.close()

    # axe-core, injected past the policy, on every page kind.
    audit = browser.new_context(bypass_csp=True)
    page = audit.new_page()
    page.goto(f"{SITE}/accounts/login/")
    accessible(page, "sign-in", AXE)
    page.fill("#id_username", "root")
    page.fill("#id_password", "wrong wrong wrong")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    accessible(page, "sign-in with an error", AXE)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{SITE}/accounts/profile/")
    accessible(page, "profile", AXE)
    page.fill("#id_old_password", "not it")
    page.fill("#id_new_password1", "short")
    page.fill("#id_new_password2", "other")
    page.click("text=Change the password")
    page.wait_for_load_state()
    accessible(page, "profile with errors", AXE)
    page.goto(LINK)
    accessible(page, "password link", AXE)
    page.goto(f"{SITE}/accounts/password/set/no-such-link/")
    accessible(page, "spent link", AXE)
    page.goto(f"{SITE}/")
    accessible(page, "front page", AXE)
    page.goto(f"{SITE}/projects/demo/")
    accessible(page, "project", AXE)
    audit.close()
    browser.close()
print("browser: all checks passed")
