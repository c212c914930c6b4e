/**
 * The report: one section per measurement, each a table whose rows put a figure next to its
 * target, plus notes. Rendered as Markdown for both the terminal and bench/report.md.
 */

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
