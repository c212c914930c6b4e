/**
 * The live simulator state and its state file: what survives a restart of the simulator, so
 * users can run stacks against it across several `pulumi up` sessions.
 */
import * as fs from "fs";
import * as path from "path";
import { cloneJson, normalizeSeed, type JsonObject, type SimState } from "./state";

/** Longest time a change waits before the state file is written (ms). */
export const SAVE_DELAY_MS = 100;

/** Version tag of the state file format, checked on load. */
const STATE_FILE_FORMAT = "cloudplatform-simulator-state/1";

/**
 * Holds the live state, the seed it started from, and the optional state file.
 *
 * Why a store object: routes mutate `state` in place and call `save()`; the store decides whether
 * and where that goes to disk, and `reset()` restores the seed for the admin API.
 */
export class StateStore {
  /** The live state; routes read and mutate it directly. */
  state: SimState;
  private readonly seed: SimState;
  private readonly stateFile: string | undefined;
  private pending: NodeJS.Timeout | undefined;

  /**
   * @param seed the state to start from and to reset to
   * @param stateFile when set, loaded if it exists (instead of the seed) and written after changes
   */
  constructor(seed: SimState, stateFile?: string) {
    this.seed = cloneJson(seed);
    this.stateFile = stateFile;
    const loaded = stateFile ? StateStore.readStateFile(stateFile) : undefined;
    this.state = loaded ?? cloneJson(seed);
    if (stateFile && !loaded) this.write();
  }

  private static readStateFile(file: string): SimState | undefined {
    if (!fs.existsSync(file)) return undefined;
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as JsonObject;
    if (parsed.format !== STATE_FILE_FORMAT) {
      throw new Error(`${file} is not a cloudplatform simulator state file (format ${String(parsed.format)})`);
    }
    return normalizeSeed(parsed.state);
  }

  /**
   * Persists the state if a state file is configured, within `SAVE_DELAY_MS`.
   *
   * Why deferred: the whole state is written each time, so a write per change would make N
   * creates against N events write N² bytes. Changes within the delay share one write;
   * `flush()` (called by `close()`) writes at once.
   */
  save(): void {
    if (!this.stateFile || this.pending) return;
    this.pending = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.pending.unref();
  }

  /** Writes a pending save now (atomic: temp file then rename). */
  flush(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
    this.write();
  }

  private write(): void {
    if (!this.stateFile) return;
    const dir = path.dirname(this.stateFile);
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    const doc = { format: STATE_FILE_FORMAT, savedAt: new Date().toISOString(), state: this.state };
    fs.writeFileSync(tmp, JSON.stringify(doc, null, 1));
    fs.renameSync(tmp, this.stateFile);
  }

  /** Restores the seed (admin reset) and persists it. */
  reset(): void {
    this.state = cloneJson(this.seed);
    this.save();
  }
}
