/**
 * The report as Markdown, small enough for a CI job summary (`$GITHUB_STEP_SUMMARY`): the
 * counts, a table of stacks, and the drifted resources of each stack that is not clean.
 */
import { formatDuration } from "../../api/duration";
import { stackKey, type DriftReport } from "../report";
import { showValue } from "./values";

/** Text safe in a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
}

const ICON: Record<string, string> = { clean: "✅", drift: "🟡", "drift-blocked": "🟠", error: "❌" };

/** Renders the whole report. */
export function renderMarkdown(report: DriftReport): string {
  const c = report.counts;
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  const out = [
    `## Drift report${shard}`,
    "",
    `${report.stacks.length} stacks: **${c.clean}** clean, **${c.drift}** drift, **${c["drift-blocked"]}** drift-blocked, **${c.error}** error (exit ${report.exitCode}).`,
    "",
    "| Stack | Class | Resources | Time |",
    "|---|---|---|---|",
    ...report.stacks.map((s) => `| ${cell(stackKey(s))} | ${ICON[s.class]} ${s.class} | ${s.resources.length} | ${formatDuration(s.durationMs)} |`),
  ];
  for (const s of report.stacks.filter((x) => x.class !== "clean")) {
    out.push("", `### ${cell(stackKey(s))}: ${s.class}`, "");
    if (s.error) out.push("```", s.error, "```", "");
    for (const r of s.refusals) out.push(`- **${r.code}**${r.urn ? ` \`${r.urn.slice(r.urn.lastIndexOf("::") + 2)}\`` : ""}: ${cell(r.message)}`);
    if (s.refusals.length) out.push("");
    if (s.resources.length) {
      out.push("| Resource | Live | Next up | Field | State | Live value | Declared |", "|---|---|---|---|---|---|---|");
      for (const r of s.resources) {
        const rows = r.fields.length ? r.fields : [undefined];
        for (const f of rows) {
          out.push(
            `| \`${cell(r.name)}\` | ${r.live} | ${r.plannedOp} | ${f ? cell(f.field) : ""} | ${f ? cell(showValue(f.state)) : ""} | ${f ? cell(showValue(f.live)) : ""} | ${f && "declared" in f ? cell(showValue(f.declared)) : ""} |`,
          );
        }
      }
    }
  }
  return out.join("\n") + "\n";
}
