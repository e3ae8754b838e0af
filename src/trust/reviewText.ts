import { READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import path from "node:path";
import { formatDuration, DEFAULT_TIMEOUT_MS } from "../config/units.js";
import { parseConfigText } from "../config/parseConfigText.js";
import type { ConfigFileInfo, ResolvedConfig, ResolvedHook } from "../config/types.js";
import { TrustError } from "../errors.js";
import { terminalSafe } from "../text.js";
import { sha256 } from "../fs/crypto.js";
import { stateDir } from "../fs/stateDir.js";
import { trustedVersions } from "./lastTrusted.js";

const quote = (s: string): string => `"${terminalSafe(s)}"`;

/**
 * A command as the reviewer must read it: one line as is; several lines each on its own line
 * under the hook, behind a "│" so a line cannot pass for a field or another hook. Every other
 * unsafe character (CR, ESC, TAB, bidi overrides, zero-width …) is shown by name.
 */
function commandLines(command: string, indent: string): string[] {
  if (!command.includes("\n")) return [`${indent}command: ${terminalSafe(command)}`];
  return [`${indent}command:`, ...command.split("\n").map((line) => `${indent}  │${line ? ` ${terminalSafe(line)}` : ""}`)];
}

function envLines(env: Record<string, string>, indent: string): string[] {
  const names = Object.keys(env);
  if (names.length === 0) return [];
  return [`${indent}env:`, ...names.map((n) => `${indent}  ${terminalSafe(n)}=${quote(env[n])}`)];
}

/** Everything about a hook that decides what runs, how, where and when. */
function hookLines(h: ResolvedHook, projectDir: string): string[] {
  const out = [`  ${terminalSafe(h.event)}  ${terminalSafe(h.name)}${h.enabled ? "" : "  (disabled; `hooks enable` would run it without a new review)"}`];
  if (h.command !== undefined) {
    out.push(...commandLines(h.command, "    "));
    out.push(`    shell: ${terminalSafe(h.shell)}`);
  } else {
    out.push("    args (no shell):", ...(h.args ?? []).map((a) => `      ${quote(a)}`));
  }
  if (h.cwd !== undefined) out.push(`    cwd: ${quote(h.cwd)} (${terminalSafe(path.resolve(h.dir ?? projectDir, h.cwd))})`);
  out.push(...envLines(h.env, "    "));
  const when: string[] = [];
  if (h.async) when.push("async");
  if (h.timeoutMs !== DEFAULT_TIMEOUT_MS) when.push(`timeout ${formatDuration(h.timeoutMs)}`);
  if (h.onFailure === "block") when.push("on_failure block");
  if (h.matcher !== undefined) when.push(`matcher ${quote(h.matcher)}`);
  if (h.paths !== undefined) when.push(`paths ${h.paths.map(quote).join(" ")}`);
  if (when.length > 0) out.push(`    ${when.join(", ")}`);
  return out;
}

/** `defaults.shell` and `defaults.env` of one file: they apply to every hook of every layer. */
function defaultsLines(value: unknown): string[] {
  const d = (value as { defaults?: { shell?: unknown; env?: unknown } } | undefined)?.defaults;
  if (!d || typeof d !== "object") return [];
  const out: string[] = [];
  if (typeof d.shell === "string") out.push(`    shell: ${terminalSafe(d.shell)}`);
  if (d.env && typeof d.env === "object") out.push(...envLines(d.env as Record<string, string>, "    "));
  return out.length ? ["  defaults (apply to every hook, your user-layer hooks too):", ...out] : [];
}

/** The lines that changed since the last trusted version: between the common first and last lines, at most 200 shown. */
function changeLines(before: string, after: string): string[] {
  const x = before.split("\n");
  const y = after.split("\n");
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let q = 0;
  while (q < x.length - p && q < y.length - p && x[x.length - 1 - q] === y[y.length - 1 - q]) q++;
  const out = [`  changed since you last trusted it (line ${p + 1}; an agent's events run the trusted version until you trust this one):`];
  const diff = [...x.slice(p, x.length - q).map((l) => `  - ${l}`), ...y.slice(p, y.length - q).map((l) => `  + ${l}`)];
  out.push(...diff.slice(0, 200).map((l) => terminalSafe(l)));
  if (diff.length > 200) out.push(`  … ${diff.length - 200} more changed lines`);
  return out;
}

/**
 * What a reviewer must see before trusting: for each project/local file, its defaults that
 * change what runs, and every hook it declares or overrides with the merged values that will
 * run (command or args, shell, cwd, env, and when it runs). Each file is read again to show its
 * own `defaults`, and must still have the bytes that were loaded: the hash recorded is of the
 * text shown, so a file changed in between is refused, not trusted unseen.
 */
export async function describeForReview(config: ResolvedConfig, env: NodeJS.ProcessEnv = process.env): Promise<{ files: ConfigFileInfo[]; text: string }> {
  const files = config.files.filter((f) => f.layer !== "user");
  const lines: string[] = [];
  const kept = trustedVersions(stateDir(env));
  for (const file of files) {
    const text = readBoundedFile(file.path, READ_LIMITS.config, { what: "config file" }).toString("utf8");
    if (sha256(text) !== file.sha256) {
      throw new TrustError(`${file.path} changed while it was being reviewed; nothing was trusted, run \`hooks trust\` again`, [file.path]);
    }
    lines.push(`${terminalSafe(file.path)}:`);
    // What changed since the version an agent's events still run (docs/trust.md#the-last-trusted-version-keeps-guarding).
    const before = kept(file.path);
    if (before !== null && before !== text) lines.push(...changeLines(before, text));
    lines.push(...defaultsLines((await parseConfigText(file.path, text)).value));
    const hooks = config.hooks.filter((h) => h.sources.some((s) => s.file === file.path));
    if (hooks.length === 0) lines.push("  (no hooks)");
    for (const h of hooks) lines.push(...hookLines(h, config.projectDir));
  }
  return { files, text: `${lines.join("\n")}\n` };
}
