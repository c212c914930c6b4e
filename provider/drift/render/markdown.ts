/**
 * The report as Markdown, small enough for a CI job summary (`$GITHUB_STEP_SUMMARY`): the
 * counts, a table of stacks, the projects whose stacks could not be listed, and the drifted
 * resources of each stack that is not clean.
 */
import { formatDuration } from "../../api/duration";
import { resourceNameOf, stackKey, type DriftReport, type StackResult } from "../report";
import { showValue } from "./values";

/** Text safe in a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
}

const ICON: Record<string, string> = { clean: "✅", drift: "🟡", "drift-blocked": "🟠", error: "❌" };

function countsLine(report: DriftReport): string {
  const c = report.counts;
  const n = report.listingErrors.length;
  const unlisted = n ? `, **${n}** ${n === 1 ? "project" : "projects"} not listed` : "";
  return `${report.stacks.length} stacks: **${c.clean}** clean, **${c.drift}** drift, **${c["drift-blocked"]}** drift-blocked, **${c.error}** error${unlisted} (exit ${report.exitCode}).`;
}

function unlistedSection(report: DriftReport): string[] {
  if (!report.listingErrors.length) return [];
  return ["", "### Projects whose stacks could not be listed", "", ...report.listingErrors.map((e) => `- \`${cell(e.cwd)}\`: ${cell(e.error)}`)];
}

/** The refusals, error and resource table of a stack that is not clean. */
function stackDetails(s: StackResult): string[] {
  const out = ["", `### ${cell(stackKey(s))}: ${s.class}`, ""];
  if (s.error) out.push("```", s.error, "```", "");
  for (const r of s.refusals) out.push(`- **${r.code}**${r.urn ? ` \`${resourceNameOf(r.urn)}\`` : ""}: ${cell(r.message)}`);
  if (s.refusals.length) out.push("");
  if (!s.resources.length) return out;
  out.push("| Resource | Live | Next up | Field | State | Live value | Declared |", "|---|---|---|---|---|---|---|");
  for (const r of s.resources) {
    for (const f of r.fields.length ? r.fields : [undefined]) {
      out.push(
        `| \`${cell(r.name)}\` | ${r.live} | ${r.plannedOp} | ${f ? cell(f.field) : ""} | ${f ? cell(showValue(f.state)) : ""} | ${f ? cell(showValue(f.live)) : ""} | ${f && "declared" in f ? cell(showValue(f.declared)) : ""} |`,
      );
    }
  }
  return out;
}

/** Renders the whole report. */
export function renderMarkdown(report: DriftReport): string {
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  return [
    `## Drift report${shard}`,
    "",
    countsLine(report),
    "",
    "| Stack | Class | Resources | Time |",
    "|---|---|---|---|",
    ...report.stacks.map((s) => `| ${cell(stackKey(s))} | ${ICON[s.class]} ${s.class} | ${s.resources.length} | ${formatDuration(s.durationMs)} |`),
    ...unlistedSection(report),
    ...report.stacks.filter((s) => s.class !== "clean").flatMap(stackDetails),
  ].join("\n") + "\n";
}
