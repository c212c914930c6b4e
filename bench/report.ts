/**
 * The report: one section per measurement, each a table whose rows put a figure next to its
 * target, plus notes. Rendered as Markdown for both the terminal and bench/report.md, and
 * recorded per section in bench/README.md between generated markers, so the figures a reader
 * finds there are always the last ones `make bench` measured, never hand-edited prose.
 */
import * as fs from "fs";

/** Outcome of a row against its target. */
export type Verdict = "OK" | "MISSED" | "INFO" | "ERROR";

/** One table of a section. */
export interface Table {
  headers: string[];
  rows: string[][];
}

/** One measurement's part of the report. */
export interface Section {
  title: string;
  /** What was measured and how, in a sentence or two. */
  method: string;
  tables: Table[];
  /** Explanations, especially of every MISSED. */
  notes: string[];
  /** Each target checked, for the summary. */
  targets: Array<{ target: string; verdict: Verdict; why?: string }>;
  /** Wall time of the section in ms. */
  elapsedMs?: number;
}

/** A section that could not run: the error is reported instead of the figures. */
export function failedSection(title: string, method: string, error: string): Section {
  return {
    title,
    method,
    tables: [],
    notes: [`ERROR: the measurement did not complete: ${error}`],
    targets: [{ target: title, verdict: "ERROR", why: error }],
  };
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function renderTable(t: Table): string[] {
  const lines = [`| ${t.headers.map(escapeCell).join(" | ")} |`, `|${t.headers.map(() => "---").join("|")}|`];
  for (const row of t.rows) lines.push(`| ${row.map(escapeCell).join(" | ")} |`);
  return lines;
}

/** The whole report as Markdown. */
export function renderReport(meta: { started: Date; elapsedMs: number; environment: string[] }, sections: Section[]): string {
  const out: string[] = [];
  out.push("# pulumi-cloudplatform benchmark report", "");
  out.push(`Run ${meta.started.toISOString()}, ${(meta.elapsedMs / 1000).toFixed(0)} s in total.`, "");
  for (const e of meta.environment) out.push(`- ${e}`);
  out.push("");

  out.push("## Summary", "");
  const summary: Table = { headers: ["Section", "Target", "Result", "Why"], rows: [] };
  for (const s of sections) for (const t of s.targets) summary.rows.push([s.title, t.target, t.verdict, t.why ?? ""]);
  out.push(...renderTable(summary), "");

  for (const s of sections) {
    out.push(`## ${s.title}`, "");
    out.push(s.method + (s.elapsedMs !== undefined ? ` (section took ${(s.elapsedMs / 1000).toFixed(0)} s)` : ""), "");
    for (const t of s.tables) out.push(...renderTable(t), "");
    for (const n of s.notes) out.push(`- ${n}`);
    if (s.notes.length) out.push("");
  }
  return out.join("\n");
}

/** The markers around the generated figures in bench/README.md; everything between is rewritten. */
export const FIGURES_BEGIN = "<!-- BEGIN figures: written by `make bench` (bench/report.ts); do not edit by hand -->";
export const FIGURES_END = "<!-- END figures -->";

/** What a reader needs to weigh a section's figures: when, on what, with which knobs. */
export interface Measured {
  started: Date;
  environment: string[];
  /** The `BENCH_*` variables of the run, as `NAME=value`. */
  settings: string[];
}

/** The `BENCH_*` variables set for this run (they change what a section measures). */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith("BENCH_") && env[name] !== undefined && env[name] !== "")
    .sort()
    .map((name) => `${name}=${env[name]}`);
}

/** One section as it stands in bench/README.md: a `###` heading, when and how it was measured, the figures. */
export function renderFigures(measured: Measured, s: Section): string {
  const out = [`### ${s.title}`, ""];
  const settings = measured.settings.length ? ` with ${measured.settings.map((v) => `\`${v}\``).join(" ")}` : "";
  out.push(`Measured ${measured.started.toISOString().slice(0, 10)} by \`make bench\`${settings}.`, "");
  for (const e of measured.environment) out.push(`- ${e}`);
  out.push("");
  if (s.method) out.push(s.method, "");
  if (s.targets.length) out.push(...renderTable({ headers: ["Target", "Result", "Why"], rows: s.targets.map((t) => [t.target, t.verdict, t.why ?? ""]) }), "");
  for (const t of s.tables) out.push(...renderTable(t), "");
  for (const n of s.notes) out.push(`- ${n}`);
  return out.join("\n").trimEnd();
}

/** The number a section's title starts with ("9. Large stacks" -> 9), its place in the report. */
function sectionNumber(heading: string): number {
  return Number(/^###\s+(\d+)\./.exec(heading)?.[1] ?? Number.MAX_SAFE_INTEGER);
}

/**
 * `readme` with the given sections' figures put between the markers: a section measured now
 * replaces its earlier figures, a section this run did not measure (`BENCH_ONLY=large`) keeps
 * its own, and the sections stay in report order. Throws when the markers are missing, so a
 * run never writes its figures where nobody reads them.
 */
export function mergeFigures(readme: string, rendered: readonly string[]): string {
  const begin = readme.indexOf(FIGURES_BEGIN);
  const end = readme.indexOf(FIGURES_END);
  if (begin < 0 || end < begin) throw new Error(`bench/README.md has no ${FIGURES_BEGIN} ... ${FIGURES_END} block for the figures`);
  const inner = readme.slice(begin + FIGURES_BEGIN.length, end);
  const kept = new Map<number, string>();
  for (const block of inner.split(/^(?=### )/m).map((b) => b.trim())) {
    if (block.startsWith("### ")) kept.set(sectionNumber(block), block);
  }
  for (const block of rendered) kept.set(sectionNumber(block), block.trim());
  const body = [...kept.entries()].sort(([a], [b]) => a - b).map(([, block]) => block).join("\n\n");
  return `${readme.slice(0, begin)}${FIGURES_BEGIN}\n\n${body}\n\n${readme.slice(end)}`;
}

/**
 * Records this run's sections in the README at `file` (bench/README.md), keeping the others. A
 * section that produced no figure (it failed) leaves the last figures in place: its error is in
 * bench/report.md.
 */
export function recordFigures(file: string, measured: Measured, sections: readonly Section[]): void {
  const readme = fs.readFileSync(file, "utf8");
  const measuredNow = sections.filter((s) => s.tables.length > 0);
  fs.writeFileSync(file, mergeFigures(readme, measuredNow.map((s) => renderFigures(measured, s))));
}
