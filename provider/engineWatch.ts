/**
 * Ends a provider process whose engine is gone (a killed `pulumi`), which would otherwise poll
 * on, or even start the next upgrade step, for nobody. Gone: connections to the engine's
 * address (our argument) refused, or the parent process changed.
 */
import * as net from "node:net";

/** How often the engine is checked, and how many failed checks in a row mean it is gone. */
export interface EngineWatchOptions {
  readonly intervalMs?: number;
  readonly failuresBeforeExit?: number;
  /** The process exits by default. */
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

/** Whether a TCP connection to `address` opens. */
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

/** Returns a function that stops watching; the timer does not keep the process alive. */
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

/** Once per process (one process has one engine); false when no engine address was found. */
export function exitWhenEngineGone(args: readonly string[] = process.argv.slice(2), options: EngineWatchOptions = {}): boolean {
  const address = engineAddressFrom(args);
  if (!address || watching) return watching;
  watching = true;
  watchEngine(address, options);
  return true;
}
