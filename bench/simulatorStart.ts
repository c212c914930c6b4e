/**
 * Measurement 7: how fast the `cloudplatform-simulator` CLI is ready. Issue target: it starts
 * in under a second. Measured from spawning `node dist/simulator/cli.js --port 0` to the
 * first answered request (GET /waap/reseller/ping with the printed key), a few times.
 */
import { spawn } from "child_process";
import * as path from "path";
import { ROOT } from "./common";
import type { Section } from "./report";

const RUNS = 5;
const TARGET_MS = 1_000;

/** Starts the CLI once; resolves with the ms until it answered a request. */
function startOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(ROOT, "dist/simulator/cli.js"), "--port", "0", "--api-key", "bench-key", "--quiet"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no URL printed within 10 s: ${out}`));
    }, 10_000);
    child.stdout.on("data", async (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (!url) return;
      child.stdout.removeAllListeners("data");
      try {
        const res = await fetch(`${url}/waap/reseller/ping`, { headers: { Authorization: "apikey bench-key" } });
        if (!res.ok) throw new Error(`ping answered ${res.status}`);
        resolve(Number(process.hrtime.bigint() - started) / 1e6);
      } catch (err) {
        reject(err);
      } finally {
        clearTimeout(timer);
        child.kill("SIGTERM");
      }
    });
    child.on("error", reject);
  });
}

/** Runs the CLI start {@link RUNS} times and reports the slowest and the median. */
export async function simulatorStartSection(): Promise<Section> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await startOnce());
  const sorted = samples.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const slowest = sorted[sorted.length - 1] ?? NaN;
  const ok = slowest < TARGET_MS;
  return {
    title: "7. Simulator CLI start",
    method: `Spawn \`node dist/simulator/cli.js --port 0\` and time until the first request (GET /waap/reseller/ping) is answered; ${RUNS} runs.`,
    tables: [
      {
        headers: ["Runs", "Median", "Slowest", "Target", "Result"],
        rows: [[String(RUNS), `${median.toFixed(0)} ms`, `${slowest.toFixed(0)} ms`, `< ${TARGET_MS} ms`, ok ? "OK" : "MISSED"]],
      },
    ],
    notes: [`Samples: ${samples.map((s) => `${s.toFixed(0)} ms`).join(", ")}`],
    targets: [{ target: "simulator CLI ready in under 1 s", verdict: ok ? "OK" : "MISSED", ...(ok ? {} : { why: `slowest start ${slowest.toFixed(0)} ms` }) }],
  };
}
