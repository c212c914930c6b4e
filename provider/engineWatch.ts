/**
 * Ends a provider process whose engine is gone.
 *
 * Why: when `pulumi` is killed (SIGKILL, a CI job cancelled), the provider process it started
 * is left behind. A provider waiting on a 30-minute upgrade task would poll on, and with
 * `allowMultiStep` even start the next upgrade step, for nobody. The engine's address is the
 * provider's command-line argument; once connections to it are refused (or the parent process
 * changed, i.e. we were re-parented), nothing can ever read our answers, so the process exits.
 * Pulumi-free, so the dynamic provider and the native plugin share it.
 */
import * as net from "node:net";

/** How often the engine is checked, and how many failed checks in a row mean it is gone. */
export interface EngineWatchOptions {
  readonly intervalMs?: number;
  readonly failuresBeforeExit?: number;
  /** What to do when the engine is gone (the process exits by default). */
  readonly onGone?: (why: string) => void;
}

/** The engine's `host:port` among the provider's arguments (flags such as `-v=9` come first). */
export function engineAddressFrom(args: readonly string[]): string | undefined {
  return [...args].reverse().find((a) => /^[\w.-]+:\d{1,5}$/.test(a) || /^\[[0-9a-f:]+\]:\d{1,5}$/i.test(a));
}

function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(":");
  return { host: address.slice(0, at).replace(/^\[|\]$/g, ""), port: Number(address.slice(at + 1)) };
}

/** Resolves true when a TCP connection to `address` opens, false when it is refused or times out. */
export function engineReachable(address: string, timeoutMs = 2_000): Promise<boolean> {
  const { host, port } = splitAddress(address);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Checks the engine at `address` every `intervalMs` and calls `onGone` once after
 * `failuresBeforeExit` failed checks in a row, or at once when the parent process changed.
 * Returns a function that stops watching. The timer does not keep the process alive.
 */
export function watchEngine(address: string, options: EngineWatchOptions = {}): () => void {
  const { intervalMs = 1_000, failuresBeforeExit = 2 } = options;
  const onGone = options.onGone ?? (() => process.exit(1));
  const parent = process.ppid;
  let failures = 0;
  let checking = false;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
  };
  const gone = (why: string): void => {
    if (stopped) return;
    stop();
    onGone(why);
  };
  const timer = setInterval(() => {
    if (checking || stopped) return;
    if (process.ppid !== parent) {
      gone(`parent process ${parent} is gone`);
      return;
    }
    checking = true;
    void engineReachable(address).then((ok) => {
      checking = false;
      failures = ok ? 0 : failures + 1;
      if (failures >= failuresBeforeExit) gone(`engine ${address} no longer answers`);
    });
  }, intervalMs);
  timer.unref();
  return stop;
}

let watching = false;

/**
 * Starts watching the engine named in `args`, once per process (later calls do nothing: one
 * process has one engine). Returns false when no engine address was found.
 */
export function exitWhenEngineGone(args: readonly string[] = process.argv.slice(2), options: EngineWatchOptions = {}): boolean {
  const address = engineAddressFrom(args);
  if (!address || watching) return watching;
  watching = true;
  watchEngine(address, options);
  return true;
}
