/**
 * The report as JUnit XML for CI test dashboards: one test case per stack (class name = the
 * project), a `<failure>` per drifted resource and per refusal, an `<error>` for a stack that
 * errored, and an errored test case `list stacks` per project directory whose stacks could not
 * be listed (class name = the directory). A preview or listing stopped at its bound is an error
 * of type `timeout`.
 */
import type { DriftReport, ListingError, StackResult } from "../report";
import { showResource } from "./values";

/** Text safe in an XML attribute or element. */
function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // Control characters other than tab and newline are not allowed in XML 1.0.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

function errorElement(type: string, text: string): string {
  return `      <error type="${type}" message="${xml(text.split("\n")[0] ?? "")}">${xml(text)}</error>`;
}

function testCase(s: StackResult): string {
  const open = `    <testcase classname="${xml(s.project)}" name="${xml(s.stack)}" time="${(s.durationMs / 1000).toFixed(3)}"`;
  const body: string[] = [];
  if (s.error !== undefined) body.push(errorElement(s.timedOut ? "timeout" : "error", s.error));
  for (const r of s.refusals) body.push(`      <failure type="${r.code}" message="${xml(r.message.split("\n")[0] ?? "")}">${xml(`${r.urn ?? ""}\n${r.message}`)}</failure>`);
  for (const r of s.resources) body.push(`      <failure type="drift" message="${xml(showResource(r))}">${xml(`${r.urn}\n${JSON.stringify(r.fields, null, 2)}`)}</failure>`);
  return body.length ? `${open}>\n${body.join("\n")}\n    </testcase>` : `${open}/>`;
}

function listingCase(e: ListingError): string {
  return `    <testcase classname="${xml(e.cwd)}" name="list stacks" time="0.000">\n${errorElement(e.timedOut ? "timeout" : "listing", e.error)}\n    </testcase>`;
}

/** Renders the whole report. */
export function renderJunit(report: DriftReport): string {
  const tests = report.stacks.length + report.listingErrors.length;
  const failures = report.stacks.filter((s) => s.class === "drift" || s.class === "drift-blocked").length;
  const errors = report.stacks.filter((s) => s.class === "error").length + report.listingErrors.length;
  const attrs = `tests="${tests}" failures="${failures}" errors="${errors}" time="${(report.durationMs / 1000).toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cloudplatform-drift" ${attrs}>`,
    `  <testsuite name="cloudplatform-drift" ${attrs} timestamp="${xml(report.startedAt)}">`,
    ...report.listingErrors.map(listingCase),
    ...report.stacks.map(testCase),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
