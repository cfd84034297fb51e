"""What the browser scripts check on every page: accessibility with
axe-core, use at 320 px wide, and a failure that names its reason."""

import json
import sys


def fail(message):
    """Stops the script with the reason."""
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    """Stops the script with `message` unless `condition` holds."""
    if not condition:
        fail(message)


def accessible(page, name, axe):
    """No critical or serious axe-core violation on the page as it is
    (axe-core's script at the path `axe`, injected: the page's context
    must bypass its Content-Security-Policy)."""
    page.add_script_tag(path=axe)
    result = page.evaluate(
        "async () => await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'best-practice']})"
    )
    bad = [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["html"] for n in v["nodes"]][:3]}
        for v in result["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    check(not bad, f"{name}: axe-core found {json.dumps(bad, indent=1)}")
    print(f"{name}: axe-core found no critical or serious violation "
          f"({len(result['passes'])} rules passed)")


def narrow(page, name):
    """Usable at 320 px: nothing wider than the screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    check(width <= 320, f"{name}: {width} px wide at a 320 px screen")
