import { accessSync, constants, existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { findNodeAtLocation, getNodeValue, type Node, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import { isJsonObject } from "../config/scanJson.js";
import type { ResolvedConfig } from "../config/types.js";
import { displayFile } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { ensureStateDir, StateDirError, stateDir } from "../fs/stateDir.js";
import { installedEntries, installState, wantedEntries } from "../hosts/hostFile.js";
import { ownedScripts, planScripts } from "../hosts/hostScripts.js";
import { configEvents, entryCommands, ownsEntry } from "../hosts/install.js";
import { type DispatchTarget, dispatchCommand } from "../hosts/dispatch.js";
import { HOSTS } from "../hosts/table.js";
import type { HostAdapter, HostEntry } from "../hosts/types.js";
import { installedPort } from "../hosts/warm.js";
import { untrustedFiles } from "../trust/store.js";
import { hookTableLines, hookTableList, ownedEntries } from "../hosts/tomlFile.js";
import { cmdShimTarget } from "./binShim.js";
import { fireEntry, PROBE_TIMEOUT_MS } from "./fireEntry.js";
import { judgeCommand, sameCommand } from "./hookCommands.js";
import { editDistance } from "../text.js";

// `hooks doctor`: for every agent installed in the project (and the user's layer), whether a hook
// of hooks.yaml would run, checked along the whole path the agent takes: its config file (parsed
// as the agent parses it, hookrun's entries current), its dispatch command fired as the agent
// fires it (src/prove/fireEntry.ts), then trust, the state dir and each hook's command. Returns
// findings; printing is the CLI's (src/cli/actions/doctor.ts). docs/doctor.md has every check.

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

/** Whether `real` (a real path) is hookrun: the running CLI's entry, or a file of an installed hookrun package (inside node_modules/hookrun/). */
export function isHookrun(real: string, selfBin: string | null): boolean {
  if (selfBin !== null && real === selfBin) return true;
  const parts = real.split(path.sep);
  return parts.some((p, i) => p === "node_modules" && parts[i + 1] === "hookrun" && i + 2 < parts.length);
}

/** The node_modules/.bin/hooks the walk-up dispatch (Codex, agent-code) execs from `start`: the nearest executable one, as `[ -x ]` finds it. */
function walkUpBin(start: string): string | null {
  for (let d = start; ; d = path.dirname(d)) {
    const bin = path.join(d, "node_modules", ".bin", "hooks");
    try {
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {
      // not here: the parent
    }
    if (path.dirname(d) === d) return null;
  }
}

/** Host-side keys that are not events (Gemini's `hooks.enabled`, `disabled`, `notifications`): a non-array value is never an event list. */
const isList = (n: Node | undefined): n is Node => n?.type === "array";

/** hookrun's event for a host's event key from its file, own keys only (a key "constructor" is no event). */
const canonicalOf = (host: HostAdapter, key: string): string | undefined => (Object.hasOwn(host.events, key) ? host.events[key] : undefined);

const lineOf = (text: string, offset: number): number => text.slice(0, offset).split("\n").length;

const nodeAt = (root: Node | undefined, keys: readonly string[]): Node | undefined => {
  let node = root;
  for (const key of keys) node = node?.type === "object" ? node.children?.find((p) => p.children?.[0].value === key)?.children?.[1] : undefined;
  return node;
};

function closestEvent(key: string, events: readonly string[]): string | null {
  const lower = key.toLowerCase();
  let best: [string, number] | null = null;
  for (const e of events) {
    const d = e.toLowerCase() === lower ? 0.5 : editDistance(lower, e.toLowerCase());
    if (d <= Math.max(2, Math.floor(e.length / 5)) && (!best || d < best[1])) best = [e, d];
  }
  return best?.[0] ?? null;
}

/** Handler keys the hosts read (Claude, Codex, Gemini, Qwen, Copilot, Cursor, Droid, Windsurf); `probe.strict` hosts narrow it. */
const HANDLER_KINDS = ["command", "bash", "powershell", "url", "prompt", "mcp_tool", "agent"];

class Doctor {
  readonly findings: Finding[] = [];
  readonly events: EventSummary[] = [];
  readonly checked: DoctorReport["checked"] = [];
  /** Host files (or folders) that hold hookrun's entries. */
  installed = 0;
  /** Per host and layer, the project binary its dispatch runs was found not to be hookrun: reported once, nothing fired. */
  private readonly refused = new Set<string>();
  /** Per host, what hookrun's entries in its files go by (a handler's `name`, else its command). */
  private readonly entryNames = new Map<string, Set<string>>();
  constructor(
    readonly config: ResolvedConfig,
    readonly options: DoctorOptions,
  ) {}

  private shown(file: string, line?: number): string {
    const f = displayFile(file, this.options.cwd);
    return line === undefined ? f : `${f}:${line}`;
  }

  add(f: Finding): void {
    this.findings.push(f);
  }

  /** The project-wide checks: trust, state dir, every hook's command. */
  shared(): void {
    const base = { host: "*", layer: "project" as const };
    const untrusted = untrustedFiles(this.config, { env: this.options.env });
    for (const f of untrusted)
      this.add({
        ...base,
        level: "error",
        what: `${this.shown(f.path)} is not trusted (new, or changed since it was reviewed): no hook of the project runs under any agent`,
        where: this.shown(f.path),
        fix: "review its commands and trust it: `hooks trust` (in a terminal; never let the agent do it)",
      });
    if (untrusted.length === 0 && this.config.files.some((f) => f.layer !== "user")) this.add({ ...base, level: "ok", what: "hooks.yaml is trusted as it is now" });
    this.stateDir(base);
    for (const hook of this.config.hooks) {
      if (!hook.enabled) continue;
      const v = judgeCommand(hook, this.config.projectDir, this.options.env);
      const where = this.shown(hook.source.file, hook.source.line);
      const head = `hook ${hook.name}`;
      if (v.kind === "ok") continue;
      if (v.kind === "unjudged") this.add({ ...base, event: hook.event, level: "ok", what: `${head}: command not checked (${v.detail})`, where });
      else if (v.kind === "not-executable")
        this.add({
          ...base,
          event: hook.event,
          level: "error",
          what: `${head}: ${this.shown(v.file)} exists but is not executable: the hook fails (exit 126)`,
          where,
          fix: `chmod +x ${this.shown(v.file)}`,
        });
      else if (v.kind === "missing")
        this.add({
          ...base,
          event: hook.event,
          level: "error",
          what: `${head}: ${this.shown(v.file)} does not exist: the hook fails (exit 127)`,
          where,
          fix: `create it, or fix the command at ${where}`,
        });
      else this.add({ ...base, event: hook.event, level: "error", what: `${head}: ${v.detail}: the hook fails (exit 127)`, where, fix: `install \`${v.file}\`, or name it by its path at ${where}` });
    }
  }

  private stateDir(base: Pick<Finding, "host" | "layer">): void {
    const dir = stateDir(this.options.env);
    const shown = this.shown(dir);
    try {
      ensureStateDir(dir, { create: false });
    } catch (error) {
      if (!(error instanceof StateDirError)) throw error;
      this.add({
        ...base,
        level: "error",
        what: `${error.message.split(";")[0]}: hookrun refuses it, so no run is recorded, no async hook runs and nothing is trusted`,
        where: shown,
        fix: error.message.split(": ").pop(),
      });
      return;
    }
    // The nearest directory that exists must let hookrun write (it creates the rest, 0700).
    let probe = dir;
    while (!existsSync(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
    try {
      if (!statSync(probe).isDirectory()) throw new Error("not a directory");
      accessSync(probe, constants.W_OK | constants.X_OK);
      this.add({ ...base, level: "ok", what: `state dir ${shown}: ${probe === dir ? "private and writable" : "not there yet; hookrun creates it (0700) on the first run"}` });
    } catch {
      this.add({ ...base, level: "error", what: `state dir ${shown}: ${this.shown(probe)} is not a writable directory`, where: shown, fix: "set HOOKS_STATE_DIR to a directory of your own" });
    }
  }

  /** One host's JSON config file in one layer; false when the host is not installed there. */
  async hostFile(host: HostAdapter, layer: Layer, named: boolean): Promise<boolean> {
    const install = host.install!;
    const file = path.join(layer === "user" ? this.options.home : this.config.projectDir, layer === "user" ? install.userFile : install.projectFile);
    const base = { host: host.name, layer };
    const where = this.shown(file);
    const notInstalled = (): false => {
      if (named)
        this.add({
          ...base,
          level: "error",
          what: `${host.title} has no hookrun entries in ${where}: no hook of hooks.yaml runs under it`,
          where,
          fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
        });
      return false;
    };
    let text: string;
    try {
      if (!lstatSync(file, { throwIfNoEntry: false })) return notInstalled();
      text = readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config` });
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      this.checked.push({ ...base, file });
      this.add({ ...base, level: "error", what: `${error.message.replace(/; replace it with a regular file$/, "")}: ${host.title} cannot read it either`, where, fix: "make it a regular JSON file" });
      return true;
    }
    if (install.format === "toml") return this.tomlFile(host, layer, text, file, named, notInstalled);
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0 || root?.type !== "object") {
      const line = errors.length ? lineOf(text, errors[0].offset) : 1;
      const why = errors.length ? printParseErrorCode(errors[0].error) : "not a JSON object";
      // A file that does not parse cannot say whether it holds hookrun's entries: named, --user or the project's, report it.
      if (layer === "user" && !named && !this.options.user) return false;
      this.checked.push({ ...base, file });
      this.add({ ...base, level: "error", what: `${where} is not valid JSON (${why}): ${host.title} drops the whole file, every hook in it`, where: this.shown(file, line), fix: "fix the JSON" });
      return true;
    }
    const map = nodeAt(root, install.hooksPath);
    const owned = installedEntries(host, text, file);
    const hasHooks = map?.type === "object" && (map.children ?? []).some((p) => isList(p.children?.[1]) && (p.children?.[1].children?.length ?? 0) > 0);
    // Without hookrun's entries a file is reported when its host is named, or when it holds hooks of its own
    // (the user's only with --user): hooks.yaml does not run under that host.
    if (Object.keys(owned).length === 0 && !named && (!hasHooks || (layer === "user" && !this.options.user))) return false;
    this.checked.push({ ...base, file });
    if (Object.keys(owned).length === 0) {
      if (named) return notInstalled();
      if (layer === "user") {
        this.add({ ...base, level: "ok", what: `${where} holds hooks of its own, none of hookrun's (the project's entries are what run hooks.yaml)`, where });
        return false;
      }
      this.add({
        ...base,
        level: "warning",
        what: `${where} holds hooks, none of them hookrun's: hooks.yaml's hooks do not run under ${host.title}`,
        where,
        fix: `hooks install ${host.name}`,
      });
      return false;
    }
    this.installed++;
    const names = this.entryNames.get(host.name) ?? new Set<string>();
    for (const entry of Object.values(owned).flat())
      for (const h of Array.isArray(entry.hooks) ? entry.hooks : [entry]) {
        const name = isJsonObject(h) ? (h.name ?? h.command ?? h.bash) : undefined;
        if (typeof name === "string") names.add(name);
      }
    this.entryNames.set(host.name, names);
    this.fileShape(host, layer, text, root, map, file);
    await this.entries(host, layer, text, file, owned, map);
    return true;
  }

  /**
   * A host whose file is TOML (agent-code): parsed as `hooks install` parses it, hookrun's entries
   * current and fired; the JSON checks of the file's shape do not apply.
   */
  private async tomlFile(host: HostAdapter, layer: Layer, text: string, file: string, named: boolean, notInstalled: () => false): Promise<boolean> {
    const base = { host: host.name, layer };
    // Parsed once: hookrun's entries and the host's check of every table come from the same list.
    let tables: unknown[];
    let owned: Record<string, HostEntry[]>;
    try {
      tables = hookTableList(text, file);
      owned = ownedEntries(tables);
    } catch (error) {
      if (layer === "user" && !named && !this.options.user) return false;
      this.checked.push({ ...base, file });
      this.add({
        ...base,
        level: "error",
        what: `${(error as Error).message.replace(/; nothing was written$/, "")}: ${host.title} cannot read it either`,
        where: this.shown(file),
        fix: "fix the TOML",
      });
      return true;
    }
    if (Object.keys(owned).length === 0) return named ? notInstalled() : false;
    this.checked.push({ ...base, file });
    this.installed++;
    // Each table's header line, when every table has one (not an inline `hooks = [...]`).
    const lines = hookTableLines(text);
    const at = (index: number): string => this.shown(file, lines.length === tables.length ? lines[index] : undefined);
    for (const p of host.probe?.tables?.(tables) ?? []) {
      const event = isJsonObject(tables[p.index]) ? (tables[p.index] as Record<string, unknown>).event : undefined;
      this.add({ ...base, ...(typeof event === "string" ? { event } : {}), level: p.level, what: p.what, where: at(p.index), fix: p.fix });
    }
    await this.entries(host, layer, text, file, owned, undefined);
    if (layer === "project")
      tables.forEach((table, index) => {
        if (!isJsonObject(table) || ownsEntry(table) || typeof table.event !== "string") return;
        this.duplicate(host, table.event, table, at(index), file);
      });
    return true;
  }

  /** What the host would skip in its file: unknown or misspelled event keys, entries without a command, keys a strict host refuses. */
  private fileShape(host: HostAdapter, layer: Layer, text: string, root: Node, map: Node | undefined, file: string): void {
    const base = { host: host.name, layer };
    const strict = host.probe?.strict;
    if (strict) {
      for (const p of root.children ?? []) {
        const key = p.children![0].value as string;
        if (!strict.rootKeys.includes(key))
          this.add({ ...base, level: "error", what: `top-level key "${key}": ${strict.why}`, where: this.shown(file, lineOf(text, p.offset)), fix: `remove "${key}"` });
      }
    }
    if (map?.type !== "object") return;
    const known = Object.keys(host.events);
    for (const prop of map.children ?? []) {
      const key = prop.children![0].value as string;
      const list = prop.children![1];
      // A list of plain values is a setting (Gemini's `hooks.disabled: [names]`), not an event's entries.
      if (!isList(list) || (list.children?.length && !list.children.some((c) => c.type === "object"))) continue;
      const at = this.shown(file, lineOf(text, prop.offset));
      if (!Object.hasOwn(host.events, key)) {
        const near = closestEvent(key, known);
        const ours = (list.children ?? []).some((n) => ownsEntry(getNodeValue(n)));
        this.add({
          ...base,
          event: key,
          level: near || ours ? "error" : "warning",
          what: near
            ? `"${key}" is not a ${host.title} event (did you mean "${near}"?): ${host.title} skips its ${list.children?.length ?? 0} entr${list.children?.length === 1 ? "y" : "ies"}`
            : `"${key}" is not an event hookrun knows for ${host.title}: unless ${host.title} knows it, it skips its entries`,
          where: at,
          fix: near ? `rename the key to "${near}"${ours ? ` (or run \`hooks install ${host.name}\`)` : ""}` : `check the name against docs/hosts/${host.name}.md`,
        });
      }
      for (const entry of list.children ?? []) this.entryShape(host, layer, text, file, key, entry);
    }
  }

  private entryShape(host: HostAdapter, layer: Layer, text: string, file: string, event: string, entry: Node): void {
    const base = { host: host.name, layer, event };
    const strict = host.probe?.strict;
    const at = this.shown(file, lineOf(text, entry.offset));
    const bad = (what: string, fix: string) => this.add({ ...base, level: strict ? "error" : "warning", what: strict ? `${what}; ${strict.why}` : `${what}: ${host.title} skips it`, where: at, fix });
    if (entry.type !== "object") {
      bad("an entry that is not an object", "remove it");
      return;
    }
    const value = getNodeValue(entry) as Record<string, unknown>;
    const handlers = Array.isArray(value.hooks) ? value.hooks : [value];
    for (const h of handlers) {
      if (h === null || typeof h !== "object" || Array.isArray(h)) {
        bad("a handler that is not an object", "remove it");
        continue;
      }
      const handler = h as Record<string, unknown>;
      if (!HANDLER_KINDS.some((k) => typeof handler[k] === "string")) bad("an entry with no `command`", "give it a command, or remove it");
      else if (Array.isArray(value.hooks) && typeof handler.type !== "string") bad('a handler with no `type` (`"type": "command"`)', 'add `"type": "command"`');
      if (strict) for (const k of Object.keys(handler)) if (!strict.handlerKeys.includes(k)) bad(`handler key "${k}"`, `remove "${k}"`);
    }
  }

  /** hookrun's entries: current with hooks.yaml, each fired as the host fires it; the host's own entries that duplicate a hook. */
  private async entries(host: HostAdapter, layer: Layer, text: string, file: string, owned: Record<string, HostEntry[]>, map: Node | undefined): Promise<void> {
    const base = { host: host.name, layer };
    const where = this.shown(file);
    const target: DispatchTarget | null =
      layer === "user" ? (this.options.selfBin ? { root: null, bin: this.options.selfBin, exec: host.install!.exec } : null) : { root: host.install!.root, bin: null, exec: host.install!.exec };
    // The doctor runs a command from the host's file only when it is byte for byte one that `hooks
    // install` writes now: the file is the project's, and a command that merely looks like a
    // dispatch (`curl … | sh; hooks run stop`) must never run because someone asked for a check.
    const ours = new Set<string>();
    if (target) {
      const wanted = wantedEntries(host, this.config, target, installedPort(owned));
      for (const list of Object.values(wanted)) for (const entry of list) for (const c of entryCommands(entry).commands) ours.add(c);
      const state = installState(host, text, file, wanted);
      for (const e of state.stale) {
        const canonical = canonicalOf(host, e) ?? e;
        // Own keys only: an event named "constructor" in the file is not Object's.
        const what = !Object.hasOwn(owned, e)
          ? `hooks.yaml has hooks for ${canonical} but ${where} has no hookrun entry for ${e}: they never run under ${host.title}`
          : !Object.hasOwn(wanted, e)
            ? `hookrun's entry for ${e} is left over: hooks.yaml has no hook for ${canonical} any more`
            : `hookrun's entry for ${e} is stale: hooks.yaml changed since \`hooks install\` (matcher or timeout differ), so some hooks may not fire or be cut short`;
        this.add({ ...base, event: e, level: Object.hasOwn(wanted, e) ? "error" : "warning", what, where, fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}` });
      }
      if (state.stale.length === 0) this.add({ ...base, level: "ok", what: `${where}: hookrun's entries are current with hooks.yaml (${Object.keys(owned).join(", ")})`, where });
    } else this.add({ ...base, level: "warning", what: `${where}: not compared with hooks.yaml (run the installed \`hooks\` binary to compare user entries)`, where });
    if (layer === "project") this.unfired(host);
    for (const w of (await host.install!.warnings?.(this.config, { file, text, user: layer === "user", env: this.options.env })) ?? []) this.add({ ...base, level: "warning", what: w, where });
    this.assumed(host, layer);
    for (const [event, list] of Object.entries(owned)) {
      for (const entry of list) {
        const { commands, urls } = entryCommands(entry);
        if (urls.length)
          this.add({ ...base, event, level: "ok", what: `warm mode: ${host.title} POSTs ${event} to ${urls[0]}; not fired (\`hooks install --check\` says whether the server answers)` });
        for (const command of commands) {
          if (ours.has(command)) await this.fire(host, layer, event, command, false, host.probe?.entryTool?.(entry));
          else
            this.add({
              ...base,
              event,
              level: "warning",
              what: `${event}: not fired: its command is not the one \`hooks install ${host.name}\` writes now (the doctor runs no other command from ${where})`,
              where,
              fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
            });
        }
      }
    }
    if (layer === "project" && map?.type === "object") this.duplicates(host, text, file, map);
  }

  /** What the probe assumes of a host no source describes fully, said once. */
  private assumed(host: HostAdapter, layer: Layer): void {
    if (host.probe?.assumed) this.add({ host: host.name, layer, level: "ok", what: `fired as ${host.title} is assumed to run hooks: ${host.probe.assumed} (no source states it)` });
  }

  /** hooks.yaml events this host never fires: their hooks never run under it. */
  private unfired(host: HostAdapter): void {
    const fired = new Set(Object.values(host.events));
    for (const event of configEvents(this.config))
      if (!fired.has(event))
        this.add({ host: host.name, layer: "project", event, level: "warning", what: `${host.title} has no event hookrun reads as ${event}: hooks.yaml's ${event} hooks never run under it` });
  }

  /**
   * The project's node_modules/.bin/hooks that `command` (a dispatch entry, or a Cline hook file,
   * both exactly as `hooks install` writes them for the project: every one runs it) would run, when one is there and is not hookrun:
   * what it resolves to. A cloned repository can commit any executable there; the agent would run
   * it, the doctor must not. Missing (or nothing found by the walk-up), the dispatch fails as the
   * agent would see it, running nothing: it is fired.
   */
  private foreignBin(command: string, layer: Layer, isFile: boolean): { bin: string; why: string } | null {
    // The user layer's entries run the running hookrun by its absolute path (selfBin).
    if (layer !== "project") return null;
    const dir = this.config.projectDir;
    const bins = new Set<string>();
    if (!isFile && command.includes('"$d/node_modules/.bin/hooks"')) {
      // The walk-up starts at the shell's $PWD: the project dir as given, or its real path.
      for (const start of new Set([path.resolve(dir), realpathSync(dir)])) {
        const found = walkUpBin(start);
        if (found) bins.add(found);
      }
    } else bins.add(path.join(dir, "node_modules", ".bin", "hooks"));
    for (const bin of bins) {
      const stat = lstatSync(bin, { throwIfNoEntry: false });
      if (!stat) continue;
      let real: string;
      try {
        real = realpathSync(bin);
      } catch {
        // a dangling link: the shell cannot run it either
        continue;
      }
      if (isHookrun(real, this.options.selfBin)) continue;
      if (stat.isSymbolicLink()) return { bin, why: `it resolves to ${this.shown(real)}` };
      const why = this.shimRefusal(real);
      if (why) return { bin, why };
    }
    return null;
  }

  /**
   * Why a script at node_modules/.bin/hooks is not hookrun's (null: it is). pnpm's are scripts
   * (cmd-shim) that only `exec node TARGET`: one is hookrun's when the target is, and no
   * node_modules/.bin/node is there for it to run instead.
   */
  private shimRefusal(bin: string): string | null {
    let text: string;
    try {
      text = readBoundedText(bin, 16 * 1024, { what: "node_modules/.bin/hooks" });
    } catch {
      return "it is a file of its own";
    }
    const target = cmdShimTarget(text);
    if (target === null) return "it is a file of its own";
    const node = path.join(path.dirname(bin), "node");
    if (lstatSync(node, { throwIfNoEntry: false })) return `it is a pnpm script that would run ${this.shown(node)}`;
    const resolved = path.resolve(path.dirname(bin), target);
    let real: string;
    try {
      real = realpathSync(resolved);
    } catch {
      return `it is a pnpm script whose target ${this.shown(resolved)} is missing`;
    }
    return isHookrun(real, this.options.selfBin) ? null : `it is a pnpm script that runs ${this.shown(real)}`;
  }

  /** Fire one entry's command; `tool`: the host's tool the entry is limited to (a shell call when absent). */
  private async fire(host: HostAdapter, layer: Layer, event: string, command: string, isFile = false, tool?: string): Promise<void> {
    if (this.options.signal?.aborted) return;
    const base = { host: host.name, layer, event };
    const foreign = host.probe ? this.foreignBin(command, layer, isFile) : null;
    if (foreign) {
      const key = `${host.name} ${layer}`;
      if (this.refused.has(key)) return;
      this.refused.add(key);
      const bin = this.shown(foreign.bin);
      this.add({
        host: host.name,
        layer,
        level: "error",
        what: `${bin} is not hookrun (${foreign.why}): not fired; ${host.title} would run it for each of hookrun's entries`,
        where: bin,
        fix: "npm install --save-dev hookrun",
      });
      return;
    }
    const canonical = canonicalOf(host, event) ?? event;
    const summary: EventSummary = { host: host.name, layer, event, canonical, reaches: false, runs: [], filtered: [] };
    this.events.push(summary);
    if (!host.probe) {
      this.add({ ...base, level: "warning", what: `${host.title}: not fired (hookrun does not know how ${host.title} runs a command)` });
      return;
    }
    const outcome = await fireEntry(host, event, command, this.config.projectDir, this.options.env, this.options.timeoutMs ?? PROBE_TIMEOUT_MS, this.options.signal, tool);
    if (this.options.signal?.aborted) return;
    if (!outcome.ok) {
      this.add({ ...base, level: "error", what: `${event} never reaches hookrun: ${outcome.problem}`, fix: outcome.fix });
      return;
    }
    summary.reaches = true;
    const a = outcome.answer;
    if (a.ignored) {
      this.add({ ...base, level: "ok", what: `${event} reaches hookrun, which runs nothing for it: ${a.ignored}` });
      return;
    }
    summary.canonical = a.event;
    for (const h of a.hooks ?? []) {
      if (h.runs) summary.runs.push(h.name);
      else summary.filtered.push({ name: h.name, reasons: h.reasons });
    }
    if (a.trusted === false) {
      this.add({
        ...base,
        level: "error",
        what: `${event} → ${a.event}: reaches hookrun, which runs none of its ${a.hooks?.length ?? 0} hook${a.hooks?.length === 1 ? "" : "s"}: ${(a.untrusted ?? []).join(", ") || "the config"} not trusted`,
        fix: "`hooks trust` (in a terminal)",
      });
      return;
    }
    // The probe is one call of the host's shell tool (or of the entry's tool): a hook whose only reason is its tool matcher
    // waits for other tools, which is no problem; any other reason filters it out for every call.
    const otherTool = (h: { reasons: string[] }): boolean => h.reasons.length > 0 && h.reasons.every((r) => /^matcher .* (does not match tool_name|: the context has no tool_name)/.test(r));
    const waiting = summary.filtered.filter(otherTool).map((h) => `${h.name} (${h.reasons.join("; ").replace(/ does not match tool_name .*$/, "")})`);
    const filtered = summary.filtered.filter((h) => !otherTool(h)).map((h) => `${h.name} (${h.reasons.join("; ")})`);
    this.add({
      ...base,
      level: "ok",
      what: `${event} → ${a.event}: ${summary.runs.length ? `runs ${summary.runs.join(", ")}` : "runs no hook"}${waiting.length ? ` for a ${tool ?? "shell"} call; for other tools: ${waiting.join(", ")}` : ""}${filtered.length ? `; filtered out: ${filtered.join(", ")}` : ""}`,
    });
  }

  /** The host's own entries that run what a hook of hooks.yaml runs for the same event: it would run twice. */
  private duplicates(host: HostAdapter, text: string, file: string, map: Node): void {
    for (const prop of map.children ?? []) {
      const key = prop.children![0].value as string;
      const list = prop.children![1];
      if (!isList(list)) continue;
      for (const node of list.children ?? []) {
        const entry = getNodeValue(node);
        if (ownsEntry(entry)) continue;
        this.duplicate(host, key, entry, this.shown(file, lineOf(text, node.offset)), file);
      }
    }
  }

  /** One of the host's own entries for its event `key`: a warning when it runs what a hook of hooks.yaml runs for that event. */
  private duplicate(host: HostAdapter, key: string, entry: unknown, where: string, file: string): void {
    const canonical = canonicalOf(host, key);
    if (!canonical) return;
    for (const command of entryCommands(entry).commands) {
      const hook = this.config.hooks.find((h) => h.event === canonical && h.enabled && sameCommand(command, h, this.config.projectDir));
      if (hook)
        this.add({
          host: host.name,
          layer: "project",
          event: key,
          level: "warning",
          what: `${host.title}'s own ${key} entry runs \`${command}\`, as hooks.yaml's hook ${hook.name} does: it would run twice`,
          where,
          fix: `remove the entry from ${this.shown(file)} (hooks.yaml's ${hook.name} at ${this.shown(hook.source.file, hook.source.line)} runs it)`,
        });
    }
  }

  /**
   * The host's off switches (HostProbe.switches): a setting in any file the host layers that
   * keeps hookrun's entries from running, each an error at its FILE:LINE. Files are read as
   * the host file is: bounded, regular files only; one that cannot be read says nothing here.
   */
  switches(host: HostAdapter): void {
    const judge = host.probe?.switches;
    // Only where hookrun's entries are: elsewhere there is nothing for a switch to stop.
    if (!judge || !this.entryNames.has(host.name)) return;
    // Each file read and parsed once, however often the host asks; a file that does not parse
    // is dropped by the host: it switches nothing off.
    const files = new Map<string, { text: string; value: Record<string, unknown> | null } | null>();
    const load = (file: string) => {
      if (!files.has(file)) {
        let text: string | null = null;
        try {
          if (lstatSync(file, { throwIfNoEntry: false })) text = readBoundedText(file, READ_LIMITS.config, { what: `${host.title} settings` });
        } catch {
          // a FIFO, a device, too big: the host file's own check reports the one install writes
        }
        const errors: ParseError[] = [];
        const value = text === null ? null : (parse(text, errors, { allowTrailingComma: true }) as unknown);
        files.set(file, text === null ? null : { text, value: errors.length === 0 && isJsonObject(value) ? value : null });
      }
      return files.get(file)!;
    };
    const read = (file: string): Record<string, unknown> | null => load(file)?.value ?? null;
    const places = { projectDir: this.config.projectDir, home: this.options.home, env: this.options.env, root: this.options.root ?? "/" };
    for (const off of judge(places, read, [...(this.entryNames.get(host.name) ?? [])])) {
      const text = load(off.file)?.text ?? "";
      const root = parseTree(text);
      const node = root && findNodeAtLocation(root, off.key);
      const where = this.shown(off.file, node ? lineOf(text, node.parent?.type === "property" ? node.parent.offset : node.offset) : undefined);
      this.add({ host: host.name, layer: off.file.startsWith(this.config.projectDir + path.sep) ? "project" : "user", level: "error", what: off.what, where, fix: off.fix });
    }
  }

  /** A host that runs one file per hook (Cline): hookrun's files current, each run as the host runs it. */
  async hostScripts(host: HostAdapter, layer: Layer, named: boolean): Promise<boolean> {
    const scripts = host.scripts!;
    const dir = path.join(layer === "user" ? this.options.home : this.config.projectDir, layer === "user" ? scripts.userDir : scripts.projectDir);
    const base = { host: host.name, layer };
    const where = this.shown(dir);
    let owned: string[];
    try {
      owned = ownedScripts(dir);
    } catch (error) {
      this.checked.push({ ...base, file: dir });
      this.add({ ...base, level: "error", what: `${where}: ${(error as Error).message}`, where, fix: "make each hook file a regular file" });
      return true;
    }
    if (owned.length === 0) {
      if (named) this.add({ ...base, level: "error", what: `${host.title} has no hookrun hook files in ${where}: no hook of hooks.yaml runs under it`, where, fix: `hooks install ${host.name}` });
      return named;
    }
    this.checked.push({ ...base, file: dir });
    this.installed++;
    const current = new Set<string>();
    if (layer === "project") {
      const target: DispatchTarget = { root: null, bin: null };
      const plan = planScripts(
        dir,
        scripts.files(this.config, (event) => dispatchCommand(host.name, event, target)),
      );
      const stale = [...plan.write.map((w) => path.basename(w.file)), ...plan.remove.map((f) => path.basename(f))];
      // Only a file whose bytes are what `hooks install` writes now is run (as for entries above).
      for (const f of owned) if (!stale.includes(path.basename(f))) current.add(f);
      for (const name of stale)
        this.add({
          ...base,
          event: name,
          level: "error",
          what: `hookrun's ${name} is missing, stale or left over against hooks.yaml`,
          where: this.shown(path.join(dir, name)),
          fix: `hooks install ${host.name}`,
        });
      if (stale.length === 0) this.add({ ...base, level: "ok", what: `${where}: hookrun's hook files are current with hooks.yaml`, where });
      this.unfired(host);
    }
    this.assumed(host, layer);
    for (const file of owned) {
      try {
        accessSync(file, constants.X_OK);
      } catch {
        this.add({
          ...base,
          event: path.basename(file),
          level: "error",
          what: `${this.shown(file)} is not executable: ${host.title} cannot run it`,
          where: this.shown(file),
          fix: `chmod +x ${this.shown(file)}`,
        });
        continue;
      }
      if (current.has(file)) await this.fire(host, layer, path.basename(file), file, true);
      else
        this.add({
          ...base,
          event: path.basename(file),
          level: "warning",
          what: `${this.shown(file)}: not run: its bytes are not what \`hooks install ${host.name}\` writes now (the doctor runs no other file)`,
          where: this.shown(file),
          fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
        });
    }
    return true;
  }
}

/**
 * Every check of `hooks doctor` for the project of `config`. Hosts: the named ones, else every
 * host with a config file holding hooks in the project, plus the user layer's files that hold
 * hookrun entries (every user file with `user`).
 */
export async function doctor(config: ResolvedConfig, options: DoctorOptions): Promise<DoctorReport> {
  const d = new Doctor(config, options);
  const named = new Set(options.hosts ?? []);
  const hosts = HOSTS.filter((h) => (h.install || h.scripts) && (named.size === 0 || named.has(h.name)));
  for (const host of hosts) {
    for (const layer of ["project", "user"] as const) {
      // The user layer without hookrun's entries is the usual case (the project's entries run the hooks): never an error.
      const mustReport = named.has(host.name) && layer === "project";
      if (host.install) await d.hostFile(host, layer, mustReport);
      else await d.hostScripts(host, layer, mustReport);
    }
    d.switches(host);
  }
  if (d.checked.length > 0) d.shared();
  return { findings: d.findings, events: d.events, checked: d.checked, installed: d.installed };
}
