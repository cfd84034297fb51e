// The generated TypeScript client's scenario against a live Tolk, the same
// as the Python client's: a project and a component from a Git
// repository, its task polled to the end, translations and units listed,
// a search, a unit edited, a file uploaded and downloaded, a commit pushed.
// The types come from openapi-typescript (schema.d.ts, generated from
// openapi/openapi.json), the calls from openapi-fetch; `tsc --strict`
// checks the scenario against them before it runs.
// Usage: node build/scenario.js BASE_URL TOKEN UPSTREAM_REPOSITORY
import { execFileSync } from "node:child_process";
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const [base, token, upstream] = process.argv.slice(2);
// JSON only: reads may also come as HTML or CSV pages (`?format=`).
const client = createClient<paths, "application/json">({ baseUrl: base, headers: { Authorization: `Token ${token}` } });

function check(condition: unknown, what: string): asserts condition {
  if (!condition) {
    throw new Error(`failed: ${what}`);
  }
}

function ok<T>(answer: { data?: T; error?: unknown; response: Response }, status: number): T {
  check(answer.response.status === status, `status ${answer.response.status}, not ${status}: ${JSON.stringify(answer.error)}`);
  check(answer.data !== undefined, "an answer body");
  return answer.data;
}

const project = { project: "typescript", component: "app" };
ok(await client.POST("/api/projects/", {
  body: { name: "TypeScript", slug: project.project, web: "https://typescript.example/" },
}), 201);
const component = ok(await client.POST("/api/projects/{slug}/components/", {
  params: { path: { slug: project.project } },
  body: { name: "App", slug: project.component, repo: upstream, push: upstream, filemask: "po/*.po", file_format: "po" },
}), 201);
const taskId = component.task_url?.replace(/\/$/, "").split("/").pop();
check(taskId, "a task");
let completed = false;
for (let i = 0; i < 300 && !completed; i++) {
  const task = ok(await client.GET("/api/tasks/{id}/", { params: { path: { id: taskId } } }), 200);
  completed = task.completed;
  if (!completed) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  } else {
    check(!JSON.stringify(task.result ?? "").toLowerCase().includes("failed"), `the task succeeded: ${JSON.stringify(task.result)}`);
  }
}
check(completed, "the component's task finished");

const translations = ok(await client.GET("/api/components/{project}/{component}/translations/", {
  params: { path: project },
}), 200);
const codes = translations.results.map((t) => t.language_code).sort();
check(JSON.stringify(codes) === JSON.stringify(["ar", "en", "ja"]), `languages ${codes}`);

const ja = { ...project, language: "ja" };
const units = ok(await client.GET("/api/translations/{project}/{component}/{language}/units/", {
  params: { path: ja, query: { q: "state:translated" } },
}), 200);
check(units.count > 0, "translated Japanese strings");
const unit = units.results[0];
const source = unit.source[0];

const found = ok(await client.GET("/api/units/", {
  params: { query: { q: `source:"${source}" language:ja` } },
}), 200);
check(found.results.some((u) => u.id === unit.id), "the search finds the string");

const edited = ok(await client.PATCH("/api/units/{id}/", {
  params: { path: { id: unit.id } },
  body: { target: ["タイプスクリプトの訳"], state: 20 },
}), 200);
check(edited.target[0] === "タイプスクリプトの訳" && edited.state === 20, "the edit is answered");

const po = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "${source}"\nmsgstr "アップロード"\n`;
const report = ok(await client.POST("/api/translations/{project}/{component}/{language}/file/", {
  params: { path: ja },
  body: { file: "ja.po", method: "translate", conflicts: "replace-translated" },
  bodySerializer(body) {
    const form = new FormData();
    form.append("file", new Blob([po], { type: "text/x-po" }), body.file);
    form.append("method", body.method ?? "translate");
    form.append("conflicts", body.conflicts ?? "ignore");
    return form;
  },
}), 200);
check(report.accepted === 1 && report.result === true, `the upload: ${JSON.stringify(report)}`);

const download = await client.GET("/api/translations/{project}/{component}/{language}/file/", {
  params: { path: ja, query: { format: "po" } },
  parseAs: "text",
});
check(download.response.status === 200 && String(download.data).includes("アップロード"), "the download holds the upload");

for (const operation of ["commit", "push"] as const) {
  const done = ok(await client.POST("/api/components/{project}/{component}/repository/", {
    params: { path: project },
    body: { operation },
  }), 200);
  check(done.result === true, `${operation}: ${JSON.stringify(done)}`);
}
const pushed = execFileSync("git", ["--git-dir", upstream, "show", "main:po/ja.po"]).toString();
check(pushed.includes("アップロード"), "the upload reached the upstream repository");
console.log("typescript client: scenario passed");
