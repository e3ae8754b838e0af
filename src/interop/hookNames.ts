// A readable, unique hook name from the command a host's file runs: every host's import names
// its hooks with these.

/** Hook names must match this (see docs/configuration.md, the `name` field). */
export const HOOK_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

// Launchers whose first argument, not themselves, says what the hook does.
const LAUNCHERS = new Set([
  "npx",
  "bunx",
  "pnpx",
  "uvx",
  "node",
  "deno",
  "bun",
  "python",
  "python3",
  "ruby",
  "perl",
  "bash",
  "sh",
  "zsh",
  "exec",
  "env",
  "sudo",
  "nohup",
  "time",
  "tsx",
  "ts-node",
  "command",
  "xargs",
]);
// Launcher verbs that come before the real name (`npm run lint`, `pnpm dlx x`, `go run ./cmd/x`).
const VERBS = new Set(["run", "exec", "dlx", "x", "run-script"]);
const RUNNERS_WITH_VERBS = new Set(["npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "uv", "poetry"]);
// Interpreters, and the flag after which one reads its program from the next argument (`python3 -c CODE`).
const INTERPRETER = /^(?:sh|bash|zsh|fish|node|bun|deno|tsx|python[\d.]*|ruby|perl|php|pwsh|powershell)$/;
const INLINE_FLAG = /^(?:-[a-zA-Z]{0,2}[cep]|--eval|--print|-command|-Command)$/;
// Commands too generic to name a hook after, and filters that only move the context along a pipeline
// (`jq -r .tool_input.command | …`): the name comes from the next command, else from the event.
const GENERIC = new Set([
  "echo",
  "printf",
  "true",
  "false",
  "cat",
  "exit",
  "test",
  "[",
  "[[",
  ":",
  "jq",
  "tee",
  "grep",
  "egrep",
  "sed",
  "awk",
  "head",
  "tail",
  "tr",
  "cut",
  "sort",
  "uniq",
  "wc",
  "read",
  "if",
  "then",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "for",
  "case",
  "esac",
  "source",
  ".",
  "export",
  "set",
  "local",
  "return",
  "cd",
]);
const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|ps1)$/i;

/** Split a shell command into words, honouring simple quotes; enough to find a name, not to run it. */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'])+/g)) out.push(m[0].replace(/^(["'])([\s\S]*)\1$/, "$2").replace(/["']/g, ""));
  return out;
}

/** The simple commands of a list or pipeline, in order (quotes respected only roughly). */
function commandParts(command: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') cur += command[i++];
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === ";" || c === "|" || (c === "&" && command[i - 1] !== ">" && command[i - 1] !== "<") || c === "\n") {
      if (cur.trim()) parts.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** The name one simple command's words give, "" when they say nothing (a filter, an inline program). */
function nameFromWords(argv: string[], depth: number): string {
  let ws = argv.filter((w, i) => !(i === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)));
  while (ws[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(ws[0])) ws = ws.slice(1);
  for (;;) {
    const head = ws[0];
    if (head === undefined) return "";
    const base = head.split("/").pop() ?? head;
    if (RUNNERS_WITH_VERBS.has(base) && ws[1] !== undefined && VERBS.has(ws[1])) ws = ws.slice(2);
    else if (LAUNCHERS.has(base)) {
      ws = ws.slice(1);
      // An inline program: a script file among the rest names it; a shell's program is read as a command.
      const flag = INTERPRETER.test(base) ? ws.findIndex((w) => INLINE_FLAG.test(w)) : -1;
      if (flag !== -1 && ws.slice(0, flag).every((w) => w.startsWith("-"))) {
        const script = ws.slice(flag + 2).find((w) => SCRIPT_EXT.test(w) && !/\s/.test(w));
        if (script) return slug(fileBase(script));
        const program = ws[flag + 1] ?? "";
        return (base === "bash" || base === "sh" || base === "zsh") && depth < 3 ? nameFromCommandText(program, depth + 1) : "";
      }
    } else break;
    while (ws[0]?.startsWith("-")) ws = ws.slice(1);
  }
  const target = ws[0] ?? "";
  const base = fileBase(target);
  // `npm test`, `cargo clippy`, `go vet`: the subcommand says what the hook does.
  const sub = ws[1];
  if (RUNNERS_WITH_VERBS.has(base) && sub !== undefined && /^[a-z][a-z0-9:-]*$/.test(sub)) return slug(`${base}-${sub.replace(/:/g, "-")}`);
  if (GENERIC.has(base) || /\s/.test(target) || !/[a-z]/i.test(base) || /^[{}()!]/.test(base)) return "";
  return slug(base);
}

const fileBase = (target: string): string =>
  (
    target
      .replace(/[/\\]+$/, "")
      .split(/[/\\]/)
      .pop() ?? ""
  ).replace(SCRIPT_EXT, "");

function nameFromCommandText(command: string, depth: number): string {
  for (const part of commandParts(command)) {
    const name = nameFromWords(words(part), depth);
    if (name) return name;
  }
  return "";
}

/**
 * A readable hook name from a command: `./scripts/guard-bash.sh` → `guard-bash`, `npx eslint --fix`
 * → `eslint`, `npm run lint` → `lint`, `jq -r .tool_input.file_path | xargs npx prettier --write` →
 * `prettier`, `python3 -c "…" hooks/check.py` → `check`; "" when nothing usable is found (an echo,
 * a jq filter, an inline `python3 -c` / `node -e` program): the caller then names it after the event.
 * With `args` (exec form) the words are taken as they are.
 */
export function hookNameFromCommand(command: string, args?: string[]): string {
  return args ? nameFromWords(args, 0) : nameFromCommandText(command, 0);
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
