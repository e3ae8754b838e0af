import { lstatSync } from "node:fs";
import { getNodeValue, type Node } from "jsonc-parser";
import { isJsonObject } from "../config/scanJson.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { hostJsonTree } from "../hosts/hostFile.js";
import { ownsEntry } from "../hosts/install.js";
import { hookTableLines, hookTableList, ownedEntries } from "../hosts/tomlFile.js";
import type { EntryFileSetup } from "../hosts/setup.js";
import type { HostAdapter, HostEntry } from "../hosts/types.js";
import { editDistance } from "../text.js";
import { checkDuplicate, checkEntries } from "./doctorEntries.js";
import { type DoctorRun, isList, type Layer, lineOf } from "./doctorReport.js";

// A host's config file (JSON, or agent-code's TOML) read as the host reads it: whether it parses,
// whether it holds hookrun's entries, and what the host would skip in it (unknown or misspelled
// event keys, entries without a command, keys a strict host refuses).

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

/** A host's config file in one layer as the doctor reads it: its text, or what to return when it is absent or unreadable. */
function readLayer(d: DoctorRun, host: HostAdapter, setup: EntryFileSetup, layer: Layer, named: boolean): { file: string; text: string; notInstalled: () => false } | boolean {
  const file = setup.place(layer === "user" ? d.options.home : d.config.projectDir, layer === "user");
  const base = { host: host.name, layer };
  const where = d.shown(file);
  const notInstalled = (): false => {
    if (named)
      d.add({
        ...base,
        level: "error",
        what: `${host.title} has no hookrun entries in ${where}: no hook of hooks.yaml runs under it`,
        where,
        fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
      });
    return false;
  };
  try {
    if (!lstatSync(file, { throwIfNoEntry: false })) return notInstalled();
    return { file, text: readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config` }), notInstalled };
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    d.checked.push({ ...base, file });
    d.add({ ...base, level: "error", what: `${error.message.replace(/; replace it with a regular file$/, "")}: ${host.title} cannot read it either`, where, fix: "make it a regular file" });
    return true;
  }
}

/** One host's JSON config file in one layer; false when the host is not installed there. */
export async function checkJsonFile(d: DoctorRun, host: HostAdapter, setup: EntryFileSetup, layer: Layer, named: boolean): Promise<boolean> {
  const read = readLayer(d, host, setup, layer, named);
  if (typeof read === "boolean") return read;
  const { file, text, notInstalled } = read;
  const base = { host: host.name, layer };
  const where = d.shown(file);
  // Nesting past the limit, a key twice on the way to the hooks map: what the host reads is not what hookrun would edit.
  const { root, problem } = hostJsonTree(text, setup.spec.hooksPath);
  if (problem && problem.kind !== "syntax") {
    if (layer === "user" && !named && !d.options.user) return false;
    d.checked.push({ ...base, file });
    d.add({ ...base, level: "error", what: `${where}: ${problem.message}`, where: d.shown(file, problem.line), fix: problem.fix });
    return true;
  }
  if (problem || root?.type !== "object") {
    const line = problem?.line ?? 1;
    const why = problem?.message ?? "not a JSON object";
    // A file that does not parse cannot say whether it holds hookrun's entries: named, --user or the project's, report it.
    if (layer === "user" && !named && !d.options.user) return false;
    d.checked.push({ ...base, file });
    d.add({ ...base, level: "error", what: `${where} is not valid JSON (${why}): ${host.title} drops the whole file, every hook in it`, where: d.shown(file, line), fix: "fix the JSON" });
    return true;
  }
  const map = nodeAt(root, setup.spec.hooksPath);
  const owned = (await setup.editor()).installed(text, file);
  const hasHooks = map?.type === "object" && (map.children ?? []).some((p) => isList(p.children?.[1]) && (p.children?.[1].children?.length ?? 0) > 0);
  // Without hookrun's entries a file is reported when its host is named, or when it holds hooks of its own
  // (the user's only with --user): hooks.yaml does not run under that host.
  if (Object.keys(owned).length === 0 && !named && (!hasHooks || (layer === "user" && !d.options.user))) return false;
  d.checked.push({ ...base, file });
  if (Object.keys(owned).length === 0) {
    if (named) return notInstalled();
    if (layer === "user") {
      d.add({ ...base, level: "ok", what: `${where} holds hooks of its own, none of hookrun's (the project's entries are what run hooks.yaml)`, where });
      return false;
    }
    d.add({
      ...base,
      level: "warning",
      what: `${where} holds hooks, none of them hookrun's: hooks.yaml's hooks do not run under ${host.title}`,
      where,
      fix: `hooks install ${host.name}`,
    });
    return false;
  }
  d.installed++;
  const names = d.entryNames.get(host.name) ?? new Set<string>();
  for (const entry of Object.values(owned).flat())
    for (const h of Array.isArray(entry.hooks) ? entry.hooks : [entry]) {
      const name = isJsonObject(h) ? (h.name ?? h.command ?? h.bash) : undefined;
      if (typeof name === "string") names.add(name);
    }
  d.entryNames.set(host.name, names);
  checkFileShape(d, host, layer, text, root, map, file);
  await checkEntries(d, host, setup, layer, text, file, owned, map);
  return true;
}

/**
 * A host whose file is TOML (agent-code): parsed as `hooks install` parses it, hookrun's entries
 * current and fired; the JSON checks of the file's shape do not apply.
 */
export async function checkTomlFile(d: DoctorRun, host: HostAdapter, setup: EntryFileSetup, layer: Layer, named: boolean): Promise<boolean> {
  const read = readLayer(d, host, setup, layer, named);
  if (typeof read === "boolean") return read;
  const { file, text, notInstalled } = read;
  const base = { host: host.name, layer };
  // Parsed once: hookrun's entries and the host's check of every table come from the same list.
  let tables: unknown[];
  let owned: Record<string, HostEntry[]>;
  try {
    tables = hookTableList(text, file);
    owned = ownedEntries(tables);
  } catch (error) {
    if (layer === "user" && !named && !d.options.user) return false;
    d.checked.push({ ...base, file });
    d.add({
      ...base,
      level: "error",
      what: `${(error as Error).message.replace(/; nothing was written$/, "")}: ${host.title} cannot read it either`,
      where: d.shown(file),
      fix: "fix the TOML",
    });
    return true;
  }
  if (Object.keys(owned).length === 0) return named ? notInstalled() : false;
  d.checked.push({ ...base, file });
  d.installed++;
  // Each table's header line, when every table has one (not an inline `hooks = [...]`).
  const lines = hookTableLines(text);
  const at = (index: number): string => d.shown(file, lines.length === tables.length ? lines[index] : undefined);
  for (const p of host.probe?.tables?.(tables) ?? []) {
    const event = isJsonObject(tables[p.index]) ? (tables[p.index] as Record<string, unknown>).event : undefined;
    d.add({ ...base, ...(typeof event === "string" ? { event } : {}), level: p.level, what: p.what, where: at(p.index), fix: p.fix });
  }
  await checkEntries(d, host, setup, layer, text, file, owned);
  if (layer === "project")
    tables.forEach((table, index) => {
      if (!isJsonObject(table) || ownsEntry(table) || typeof table.event !== "string") return;
      checkDuplicate(d, host, table.event, table, at(index), file);
    });
  return true;
}

/** What the host would skip in its file: unknown or misspelled event keys, entries without a command, keys a strict host refuses. */
export function checkFileShape(d: DoctorRun, host: HostAdapter, layer: Layer, text: string, root: Node, map: Node | undefined, file: string): void {
  const base = { host: host.name, layer };
  const strict = host.probe?.strict;
  if (strict) {
    for (const p of root.children ?? []) {
      const key = p.children![0].value as string;
      if (!strict.rootKeys.includes(key)) d.add({ ...base, level: "error", what: `top-level key "${key}": ${strict.why}`, where: d.shown(file, lineOf(text, p.offset)), fix: `remove "${key}"` });
    }
  }
  if (map?.type !== "object") return;
  const known = Object.keys(host.events);
  for (const prop of map.children ?? []) {
    const key = prop.children![0].value as string;
    const list = prop.children![1];
    // A list of plain values is a setting (Gemini's `hooks.disabled: [names]`), not an event's entries.
    if (!isList(list) || (list.children?.length && !list.children.some((c) => c.type === "object"))) continue;
    const at = d.shown(file, lineOf(text, prop.offset));
    if (!Object.hasOwn(host.events, key)) {
      const near = closestEvent(key, known);
      const ours = (list.children ?? []).some((n) => ownsEntry(getNodeValue(n)));
      d.add({
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
    for (const entry of list.children ?? []) checkEntryShape(d, host, layer, text, file, key, entry);
  }
}

export function checkEntryShape(d: DoctorRun, host: HostAdapter, layer: Layer, text: string, file: string, event: string, entry: Node): void {
  const base = { host: host.name, layer, event };
  const strict = host.probe?.strict;
  const at = d.shown(file, lineOf(text, entry.offset));
  const bad = (what: string, fix: string) => d.add({ ...base, level: strict ? "error" : "warning", what: strict ? `${what}; ${strict.why}` : `${what}: ${host.title} skips it`, where: at, fix });
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
    // Claude Code's and Codex's MCP-tool hooks name a server and a tool instead of a command.
    const mcpTool = handler.type === "mcp_tool" && typeof handler.server === "string" && typeof handler.tool === "string";
    if (!mcpTool && !HANDLER_KINDS.some((k) => typeof handler[k] === "string")) bad("an entry with no `command`", "give it a command, or remove it");
    else if (Array.isArray(value.hooks) && typeof handler.type !== "string") bad('a handler with no `type` (`"type": "command"`)', 'add `"type": "command"`');
    if (strict) for (const k of Object.keys(handler)) if (!strict.handlerKeys.includes(k)) bad(`handler key "${k}"`, `remove "${k}"`);
  }
}
