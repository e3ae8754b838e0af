import path from "node:path";
import { applyEdits, modify, parse } from "jsonc-parser";
import { WriteError } from "../errors.js";
import { readConfigFile } from "./setup.js";
import type { SetupChange } from "./types.js";
import { MCP_SERVER, MCP_TOOL } from "./warmMcp.js";

/**
 * The registration of `hooks mcp` in a host's own MCP config, which warm MCP mode needs beside
 * its hook entries: Claude Code starts the servers of the project's `.mcp.json` (read in `-p`
 * too; interactively, Claude Code asks once whether to use a project's server). The server runs
 * the project's hookrun from $CLAUDE_PROJECT_DIR, which Claude Code sets in its MCP servers'
 * environment; if it cannot start, every `mcp_tool` entry fails, and fails closed.
 */

/** The project file that registers the server, per host. */
const PLACES: Readonly<Record<string, string>> = { claude: ".mcp.json" };

/** The command of the server for `host`: the project's hookrun, from the project's root. */
export function mcpServerEntry(host: string): Record<string, unknown> {
  return { type: "stdio", command: "sh", args: ["-c", `exec "$CLAUDE_PROJECT_DIR/node_modules/.bin/hooks" -C "$CLAUDE_PROJECT_DIR" mcp --host ${host}`] };
}

/** Whether a registered server is hookrun's (its command runs `hooks … mcp`). */
function isOurs(entry: unknown): boolean {
  if (entry === null || typeof entry !== "object") return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  const words = [command, ...(Array.isArray(args) ? args : [])].filter((w): w is string => typeof w === "string").join(" ");
  return /(^|[\s/"'])(hooks|hookrun)(\.js)?["']?(\s+-\S+\s+("[^"]*"|'[^']*'|\S+))*\s+mcp(\s|$)/.test(words);
}

export interface Registration {
  /** The file, as named. */
  file: string;
  /** The server is registered as wanted now. */
  current: boolean;
  /** The server of hookrun is registered there now. */
  present: boolean;
  /** The change that makes it so (install) or removes it (uninstall); null: none needed. */
  change: SetupChange | null;
}

/**
 * The project's MCP config of `host` under `base` with hookrun's server registered (`want`) or not.
 * Another server of the same name that is not hookrun's is never replaced. A file left with no
 * server and nothing else is removed.
 */
export function registration(host: string, base: string, want: boolean): Registration {
  const place = PLACES[host];
  const f = readConfigFile(path.join(base, place), `${host} MCP config`);
  let doc: Record<string, unknown> = {};
  if (f.text !== null && f.text.trim() !== "") {
    try {
      doc = JSON.parse(f.text) as Record<string, unknown>;
    } catch (error) {
      throw new WriteError(`${f.file}: not JSON (${(error as Error).message}); fix it and run the command again; nothing was written`, f.file);
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new WriteError(`${f.file}: expected a JSON object; nothing was written`, f.file);
  }
  const servers = doc.mcpServers !== null && typeof doc.mcpServers === "object" && !Array.isArray(doc.mcpServers) ? (doc.mcpServers as Record<string, unknown>) : {};
  const existing = Object.hasOwn(servers, MCP_SERVER) ? servers[MCP_SERVER] : undefined;
  if (existing !== undefined && !isOurs(existing))
    throw new WriteError(`${f.file}: its MCP server "${MCP_SERVER}" is not hookrun's; rename it, then run the command again; nothing was written`, f.file);
  const wanted = mcpServerEntry(host);
  const current = want ? JSON.stringify(existing) === JSON.stringify(wanted) : existing === undefined;
  if (current) return { file: f.file, current, present: existing !== undefined, change: null };
  const next: Record<string, unknown> = { ...servers };
  if (want) next[MCP_SERVER] = wanted;
  else delete next[MCP_SERVER];
  const { mcpServers: _old, ...rest } = doc;
  const out = Object.keys(next).length > 0 || doc.mcpServers !== undefined ? { ...rest, mcpServers: next } : rest;
  const empty = !want && Object.keys(next).length === 0 && Object.keys(rest).length === 0;
  return {
    file: f.file,
    current,
    present: existing !== undefined,
    change: empty ? { file: f.file, target: f.target, text: null, why: "it held only hookrun's MCP server" } : { file: f.file, target: f.target, text: `${JSON.stringify(out, null, 2)}\n` },
  };
}

/** Whether `host` has an MCP config hookrun registers its server in. */
export const registersMcp = (host: string): boolean => Object.hasOwn(PLACES, host);

/**
 * The permission rule that keeps the model from calling hookrun's tool itself: Claude Code lists
 * the tools of its MCP servers to the model, and a call of `hook` by the model would run the
 * hooks of any event with fields of its choosing. A `permissions.deny` rule removes the tool from
 * the model's reach; the mcp_tool entries still call it (verified in Claude Code 2.1.332).
 */
export const DENY_RULE = `mcp__${MCP_SERVER}__${MCP_TOOL}`;

/** Whether a settings text denies the model hookrun's tool. */
export function hasDenyRule(text: string | null): boolean {
  const deny = text ? (parse(text, [], { allowTrailingComma: true }) as { permissions?: { deny?: unknown } } | undefined)?.permissions?.deny : undefined;
  return Array.isArray(deny) && deny.includes(DENY_RULE);
}

/**
 * A settings text with the deny rule added (`want`) or removed; a `deny` list or `permissions`
 * object the removal empties goes too, and a text left as `{}` is null (the file can go).
 */
export function withDenyRule(text: string, want: boolean): string | null {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  const formattingOptions = { insertSpaces: !indent.includes("\t"), tabSize: indent.includes("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
  const doc = (parse(text, [], { allowTrailingComma: true }) ?? {}) as { permissions?: { deny?: unknown } };
  const deny = Array.isArray(doc.permissions?.deny) ? (doc.permissions.deny as unknown[]) : null;
  if (want) {
    if (deny?.includes(DENY_RULE)) return text;
    const at = deny ? ["permissions", "deny", deny.length] : doc.permissions && typeof doc.permissions === "object" ? ["permissions", "deny"] : ["permissions"];
    const value = deny ? DENY_RULE : at.length === 2 ? [DENY_RULE] : { deny: [DENY_RULE] };
    return applyEdits(text, modify(text, at, value, { formattingOptions }));
  }
  if (!deny?.includes(DENY_RULE)) return text;
  const rest = deny.filter((r) => r !== DENY_RULE);
  const others = Object.keys(doc.permissions ?? {}).filter((k) => k !== "deny");
  const at = rest.length > 0 ? ["permissions", "deny", deny.indexOf(DENY_RULE)] : others.length > 0 ? ["permissions", "deny"] : ["permissions"];
  const out = applyEdits(text, modify(text, at, undefined, { formattingOptions }));
  const left = parse(out, [], { allowTrailingComma: true });
  return left && typeof left === "object" && Object.keys(left).length === 0 ? null : out;
}

/**
 * The deny rule brought in line with the mode in a setup plan of the host's settings file
 * (`plan.where`): added with warm MCP entries (`want`), removed otherwise. Returns whether the
 * rule was missing where it is wanted (the setup is stale).
 */
export function planDenyRule(plan: { where: string; before: string | null; changes: SetupChange[] }, want: boolean): boolean {
  const change = plan.changes.find((c) => c.file === plan.where);
  const text = change ? change.text : plan.before;
  if (!want && !hasDenyRule(text)) return false;
  const next = withDenyRule(text ?? "{}\n", want);
  if (next === text) return false;
  if (change) {
    change.text = next;
    if (next === null) change.why = "it held only hookrun's entries";
  } else plan.changes.push({ file: plan.where, target: readConfigFile(plan.where, "settings").target, text: next, ...(next === null && { why: "it held only hookrun's entries" }) });
  return want;
}

/**
 * hookrun's registration to remove when the setup is not (or no longer) warm over MCP: null when
 * there is none, or when the file cannot be read as JSON or its "hookrun" server is not
 * hookrun's (that file is none of hookrun's business then: a cold install or an uninstall must
 * not fail over it).
 */
export function leftoverRegistration(host: string, base: string): Registration | null {
  try {
    const reg = registration(host, base, false);
    return reg.present ? reg : null;
  } catch {
    return null;
  }
}
