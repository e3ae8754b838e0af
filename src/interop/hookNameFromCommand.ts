/** Hook names must match this (SPEC §2.2). */
export const HOOK_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

// Launchers whose first argument, not themselves, says what the hook does.
const LAUNCHERS = new Set(["npx", "bunx", "pnpx", "uvx", "node", "deno", "bun", "python", "python3", "ruby", "perl", "bash", "sh", "zsh", "exec", "env", "sudo", "nohup", "time", "tsx", "ts-node"]);
// Launcher verbs that come before the real name (`npm run lint`, `pnpm dlx x`, `go run ./cmd/x`).
const VERBS = new Set(["run", "exec", "dlx", "x", "run-script"]);
const RUNNERS_WITH_VERBS = new Set(["npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "uv", "poetry"]);
// Commands too generic to name a hook after; the caller falls back to the event's name.
const GENERIC = new Set(["echo", "printf", "true", "false", "cat", "exit", "test", "[", ":"]);
const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|ps1)$/i;

/** Split a shell command into words, honouring simple quotes; enough to find a name, not to run it. */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'])+/g)) out.push(m[0].replace(/["']/g, ""));
  return out;
}

/** The first simple command of a list, skipping a leading `cd DIR &&`. */
function firstCommand(command: string): string {
  const parts = command.split(/&&|\|\||;|\|/).map((p) => p.trim()).filter(Boolean);
  const useful = parts.find((p) => !/^cd\s/.test(p));
  return useful ?? parts[0] ?? "";
}

/**
 * A readable hook name from a command: `./scripts/guard-bash.sh` → `guard-bash`,
 * `npx eslint --fix` → `eslint`, `npm run lint` → `lint`; "" when nothing usable is found.
 */
export function hookNameFromCommand(command: string): string {
  let ws = words(firstCommand(command)).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  for (;;) {
    const head = ws[0];
    if (head === undefined) break;
    const base = head.split("/").pop() ?? head;
    if (RUNNERS_WITH_VERBS.has(base) && ws[1] !== undefined && VERBS.has(ws[1])) ws = ws.slice(2);
    else if (LAUNCHERS.has(base)) ws = ws.slice(1);
    else break;
    while (ws[0]?.startsWith("-")) ws = ws.slice(1);
  }
  const target = ws[0] ?? "";
  const base = (target.replace(/[/\\]+$/, "").split(/[/\\]/).pop() ?? "").replace(SCRIPT_EXT, "");
  return GENERIC.has(base) ? "" : slug(base);
}

/** Lower-case, invalid characters to `-`, trimmed so it starts with a letter or digit. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[._-]+/, "")
    .replace(/[._-]+$/, "")
    .slice(0, 60);
}

/** `base`, else `base-2`, `base-3`… : the first not in `taken` (which it then joins). */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}
