"""The generated Python client's scenario against a live Tolk: a project
and a component from a Git repository, its task polled to the end,
translations and units listed, a search, a unit edited, a file uploaded
and downloaded, a commit pushed. Each step checks what the server said.
Usage: python3 scenario.py BASE_URL TOKEN UPSTREAM_REPOSITORY (with the
generated package `tolk_client` importable)."""

import io
import subprocess
import sys
import time

from tolk_client import AuthenticatedClient
from tolk_client.api.components import components_component_operation, components_translations
from tolk_client.api.projects import projects_components_create, projects_create
from tolk_client.api.tasks import tasks_detail
from tolk_client.api.translations import translations_file, translations_file_upload, translations_units
from tolk_client.api.units import units_list, units_partial_update
from tolk_client.models import (
    ComponentCreate,
    OperationBody,
    OperationName,
    ProjectCreate,
    TranslationUpload,
    UnitPatch,
    UploadMethod,
)
from tolk_client.types import File

base, token, upstream = sys.argv[1:4]
client = AuthenticatedClient(base_url=base, token=token, prefix="Token", raise_on_unexpected_status=True)


def expect(response, status):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.parsed


expect(projects_create.sync_detailed(client=client, body=ProjectCreate(
    name="Clients", slug="clients", web="https://clients.example/")), 201)
component = expect(projects_components_create.sync_detailed("clients", client=client, body=ComponentCreate(
    name="App", slug="app", repo=upstream, push=upstream, filemask="po/*.po", file_format="po")), 201)
task_id = component.task_url.rstrip("/").rsplit("/", 1)[1]
for _ in range(300):
    task = expect(tasks_detail.sync_detailed(task_id, client=client), 200)
    if task.completed:
        break
    time.sleep(0.1)
else:
    sys.exit("the component's task did not finish")
assert "failed" not in str(task.result).lower(), task.result

page = expect(components_translations.sync_detailed("clients", "app", client=client), 200)
codes = sorted(t.language_code for t in page.results)
assert codes == ["ar", "en", "ja"], codes

units = expect(translations_units.sync_detailed("clients", "app", "ja", client=client, q="state:translated"), 200)
assert units.count > 0, "the Japanese file has translated strings"
unit = units.results[0]
source = unit.source[0]

found = expect(units_list.sync_detailed(client=client, q=f'source:"{source}" language:ja'), 200)
assert any(u.id == unit.id for u in found.results), [u.id for u in found.results]

edited = expect(units_partial_update.sync_detailed(unit.id, client=client, body=UnitPatch(
    target=["クライアントの訳"], state=20)), 200)
assert edited.target == ["クライアントの訳"] and edited.state == 20, edited

upload = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    f'msgid "{source}"\nmsgstr "アップロードの訳"\n'
).encode()
report = expect(translations_file_upload.sync_detailed("clients", "app", "ja", client=client, body=TranslationUpload(
    file=File(payload=io.BytesIO(upload), file_name="ja.po", mime_type="text/x-po"),
    method=UploadMethod.TRANSLATE,
    conflicts="replace-translated")), 200)
assert report.accepted == 1 and report.result is True, report

download = translations_file.sync_detailed("clients", "app", "ja", client=client, format_="po")
assert download.status_code == 200, download.status_code
assert "アップロードの訳".encode() in download.content, download.content[:300]

for operation in (OperationName.COMMIT, OperationName.PUSH):
    done = expect(components_component_operation.sync_detailed("clients", "app", client=client, body=OperationBody(
        operation=operation)), 200)
    assert done.result is True, (operation, done)
pushed = subprocess.run(["git", "--git-dir", upstream, "show", "main:po/ja.po"],
                        check=True, capture_output=True).stdout
assert "アップロードの訳".encode() in pushed, "the upload reached the upstream repository"
print("python client: scenario passed")
