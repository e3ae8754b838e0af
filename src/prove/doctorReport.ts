import type { ResolvedConfig } from "../config/types.js";
import { displayFile } from "../errors.js";
import { untrustedFiles } from "../trust/store.js";
import type { HostAdapter } from "../hosts/types.js";
import type { Node } from "jsonc-parser";

// What `hooks doctor` reports (findings, the events it fired, the files it checked) and the run
// that collects it: every check of src/prove/doctor*.ts adds to one DoctorRun.

export type Level = "error" | "warning" | "ok";
export type Layer = "project" | "user";

export interface Finding {
  /** The host's name, or "*" for what every host shares (hooks.yaml's trust, the state dir, the hooks' commands). */
  host: string;
  layer: Layer;
  /** The host's event name (or, for "*", hooks.yaml's) when the finding is about one event. */
  event?: string;
  level: Level;
  what: string;
  /** FILE:LINE when known, else FILE. */
  where?: string;
  /** What to do. */
  fix?: string;
}

/** Whether one host event reaches hookrun, and which hooks would run for the synthetic payload. */
export interface EventSummary {
  host: string;
  layer: Layer;
  /** The host's event name (the key in its config file, or Cline's file name). */
  event: string;
  /** hooks.yaml's event. */
  canonical: string;
  /** The dispatch reached hookrun and explained itself. */
  reaches: boolean;
  /** Hooks that would run for the probe's payload. */
  runs: string[];
  /** Hooks of the event that would not, with why. */
  filtered: { name: string; reasons: string[] }[];
}

export interface DoctorReport {
  findings: Finding[];
  events: EventSummary[];
  /** The host config files (or folders) checked. */
  checked: { host: string; layer: Layer; file: string }[];
  /** How many of them hold hookrun's entries: 0, and no hook of hooks.yaml runs under any agent. */
  installed: number;
}

export interface DoctorOptions {
  /** Only these hosts (names); empty: every host installed. */
  hosts?: readonly string[];
  /** Check the user layer's files even without hookrun entries. */
  user?: boolean;
  env: NodeJS.ProcessEnv;
  /** For FILE:LINE in findings (relative to it). */
  cwd: string;
  /** The home directory (the user layer's base). */
  home: string;
  /**
   * The real path of the running hookrun (the CLI's entry, dist/bin/hooks.js), which `hooks
   * install --user` writes into the user's entries; null: unknown. The project's
   * node_modules/.bin/hooks is fired only when it resolves to this file or into a
   * node_modules/hookrun/ package (isHookrun).
   */
  selfBin: string | null;
  timeoutMs?: number;
  /** Where system-wide settings files are looked for (`/etc/claude-code/…` under it): "/" but in tests. */
  root?: string;
  /** Aborted (the CLI got SIGINT, SIGTERM…): the probe running is killed with its process group, and nothing more is fired. */
  signal?: AbortSignal;
}

/** One doctor run: its inputs and the report as the checks build it. */
export class DoctorRun {
  readonly findings: Finding[] = [];
  readonly events: EventSummary[] = [];
  readonly checked: DoctorReport["checked"] = [];
  /** Host files (or folders) that hold hookrun's entries. */
  installed = 0;
  /** Per host and layer, the project binary its dispatch runs was found not to be hookrun: reported once, nothing fired. */
  readonly refused = new Set<string>();
  /** Per host, what hookrun's entries in its files go by (a handler's `name`, else its command). */
  readonly entryNames = new Map<string, Set<string>>();
  private untrusted: boolean | undefined;
  constructor(
    readonly config: ResolvedConfig,
    readonly options: DoctorOptions,
  ) {}

  /** FILE (relative to the working directory) or FILE:LINE, for a finding's `where`. */
  shown(file: string, line?: number): string {
    const f = displayFile(file, this.options.cwd);
    return line === undefined ? f : `${f}:${line}`;
  }

  add(f: Finding): void {
    this.findings.push(f);
  }

  /** Whether a project or local file is not trusted as it is now (the trust store read once per run). */
  projectUntrusted(): boolean {
    this.untrusted ??= untrustedFiles(this.config, { env: this.options.env }).length > 0;
    return this.untrusted;
  }
}

/** Host-side keys that are not events (Gemini's `hooks.enabled`, `disabled`, `notifications`): a non-array value is never an event list. */
export const isList = (n: Node | undefined): n is Node => n?.type === "array";

/** hookrun's event for a host's event key from its file, own keys only (a key "constructor" is no event). */
export const canonicalOf = (host: HostAdapter, key: string): string | undefined => (Object.hasOwn(host.events, key) ? host.events[key] : undefined);

export { lineOf } from "../text.js";
