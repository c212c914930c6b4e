#!/usr/bin/env node
/**
 * `cloudplatform-drift`: drift reports over many stacks for pipelines (docs/guides/drift-in-ci.md).
 * The API key never appears in any output: the previews show secrets as `[secret]`, and as a last
 * guard the key the settings read from the environment is redacted in every text written.
 */
import * as fs from "fs";
import * as path from "path";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { secretsOf } from "../adapters/secrets";
import { messageOf } from "../api/errors";
import { redact } from "../api/redact";
import { resolveConnectionSettings } from "../settings";
import { parseOptions, USAGE } from "./options";
import { stackKey, type DriftReport } from "./report";
import { runDrift } from "./run";
import { selectStacks } from "./stacks";
import { renderJunit } from "./render/junit";
import { renderMarkdown } from "./render/markdown";
import { listingErrorLine, progressLine, stackLines, summaryLines } from "./render/terminal";

/** The key no output may show: the environment's (each stack's own stays encrypted in its config). */
function secrets(): readonly string[] {
  return secretsOf(resolveConnectionSettings(() => undefined));
}

function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Runs the command with `argv`; resolves with the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  const hidden = secrets();
  const out = (text: string) => process.stdout.write(redact(text, hidden) + "\n");
  let options;
  try {
    options = parseOptions(argv);
  } catch (err) {
    process.stderr.write(`cloudplatform-drift: ${redact(messageOf(err), hidden)}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }

  if (options.list) {
    const { targets, listingErrors } = await selectStacks(options, await PulumiCommand.get());
    for (const t of targets) out(stackKey(t));
    for (const e of listingErrors) process.stderr.write(redact(`${listingErrorLine(e)}\n`, hidden));
    return listingErrors.length ? 2 : 0;
  }

  const tty = process.stderr.isTTY === true;
  let total = 0;
  let done = 0;
  let running = 0;
  const draw = () => tty && process.stderr.write(`\r\x1b[K${progressLine(done, total, running)}`);
  const clear = () => tty && process.stderr.write("\r\x1b[K");
  const report: DriftReport = await runDrift(options, {
    selected: (n) => ((total = n), draw()),
    listingFailed: (e) => (clear(), out(listingErrorLine(e)), draw()),
    started: () => (running++, draw()),
    finished: (result) => {
      running--;
      done++;
      clear();
      out(stackLines(result));
      draw();
    },
  });
  clear();
  out(summaryLines(report));
  if (options.jsonFile) writeFile(options.jsonFile, redact(JSON.stringify(report, null, 2) + "\n", hidden));
  if (options.markdownFile) writeFile(options.markdownFile, redact(renderMarkdown(report), hidden));
  if (options.junitFile) writeFile(options.junitFile, redact(renderJunit(report), hidden));
  if (report.stacks.length === 0 && report.listingErrors.length === 0) process.stderr.write("cloudplatform-drift: no stacks selected\n");
  return report.exitCode;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`cloudplatform-drift: ${redact(messageOf(err), secrets())}\n`);
      process.exit(2);
    },
  );
}
