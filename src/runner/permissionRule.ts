/**
 * A hook's `if`: Claude Code's permission-rule filter (`Bash(git *)`, `Edit(src/**)`, `Read`), matched
 * as Claude Code 2.1.330 matches a hook's `if` (its rule parser, tool-name aliases, the Bash
 * matcher, the file-path matcher and the glob matcher of Glob/Grep, read from its source).
 */
import path from "node:path";
import picomatch from "picomatch";
import { TOOL_CALL_EVENTS } from "../events/catalog.js";
import type { HookContext } from "./types.js";

// Claude Code's legacy tool names → current ones (a rule may use either).
const TOOL_ALIASES: Readonly<Record<string, string>> = {
  Task: "Agent",
  KillShell: "TaskStop",
  KillBash: "TaskStop",
  ListPeers: "ListAgents",
  Brief: "SendUserMessage",
  ListMcpResources: "ListMcpResourcesTool",
  ReadMcpResource: "ReadMcpResourceTool",
  ReadMcpResourceDir: "ReadMcpResourceDirTool",
  ProposeGoal: "SetGoal",
};
/**
 * A Claude Code tool's current name (a rule may name it by its legacy one). Not a host's tool
 * mapping: every host's tool names become Claude's through its adapter (src/hosts/payload.ts).
 */
const currentToolName = (name: string): string => (Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name);

export interface PermissionRule {
  toolName: string;
  /** What is inside the parentheses, unescaped; absent for `Tool`, `Tool()` and `Tool(*)`. */
  content?: string;
}

/** Index of the first (or last) `ch` not escaped by an odd run of backslashes, else -1. */
function unescapedIndex(text: string, ch: string, last: boolean): number {
  const escaped = (i: number) => {
    let n = 0;
    for (let j = i - 1; j >= 0 && text[j] === "\\"; j--) n++;
    return n % 2 === 1;
  };
  if (last) {
    for (let i = text.length - 1; i >= 0; i--) if (text[i] === ch && !escaped(i)) return i;
  } else {
    for (let i = 0; i < text.length; i++) if (text[i] === ch && !escaped(i)) return i;
  }
  return -1;
}

/** `Tool(content)` → {toolName, content}; a bare or malformed rule is all tool name (so it matches only that name). */
export function parsePermissionRule(rule: string): PermissionRule {
  if (!rule.includes("(") && !rule.includes(")")) return { toolName: currentToolName(rule) };
  const open = unescapedIndex(rule, "(", false);
  const close = unescapedIndex(rule, ")", true);
  const head = open === -1 ? "" : rule.slice(0, open);
  if (open === -1 || close <= open || close !== rule.length - 1 || /[()]/.test(head) || head === "") return { toolName: currentToolName(rule) };
  const raw = rule.slice(open + 1, close);
  if (raw === "" || raw === "*") return { toolName: currentToolName(head) };
  return { toolName: currentToolName(head), content: raw.replaceAll("\\(", "(").replaceAll("\\)", ")").replaceAll("\\\\", "\\") };
}

/** A pattern's parts: literal text, `*` (any run of characters) and `/**\/` (one `/`, or `/` any run `/`). */
type GlobPart = string | typeof STAR | typeof GLOBSTAR;
const STAR = Symbol("*");
const GLOBSTAR = Symbol("/**/");
// Beyond this many `/**/` a pattern's alternatives (two per globstar) are not tried: it matches nothing.
const MAX_GLOBSTARS = 8;

/**
 * Claude's wildcard match: the whole value against the pattern, `*` any run of characters (`\*` a
 * literal star), `/**\/` any number of directories, and a single trailing ` *` also matching
 * nothing (`git *` matches `git`). `collapse` folds runs of spaces and tabs on both sides.
 *
 * Linear in the value's length whatever the pattern (no backtracking regular expression): the
 * value is a payload's, the model's own text, and can be megabytes long.
 */
export function wildcardMatch(pattern: string, value: string, collapse = false): boolean {
  const trimmed = pattern.trim();
  const p = collapse ? trimmed.replace(/[ \t]+/g, " ") : trimmed;
  const v = collapse ? value.replace(/[ \t]+/g, " ") : value;
  const parts: GlobPart[] = [];
  let literal = "";
  const flush = () => {
    if (literal) parts.push(literal);
    literal = "";
  };
  let stars = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\" && i + 1 < p.length && (p[i + 1] === "*" || p[i + 1] === "\\")) {
      literal += p[++i];
    } else if (p.startsWith("/**/", i)) {
      flush();
      parts.push(GLOBSTAR);
      // `/**/**/` is one globstar, both slashes included
      i += 3;
      while (p.startsWith("**/", i + 1)) i += 3;
    } else if (p[i] === "*") {
      flush();
      parts.push(STAR);
      stars++;
    } else literal += p[i];
  }
  flush();
  const alternatives = expandGlobstars(parts);
  if (alternatives === null) return false;
  // `git *` also matches `git` (a single star, trailing after a space)
  const last = parts.at(-1);
  if (stars === 1 && last === STAR && typeof parts.at(-2) === "string" && (parts.at(-2) as string).endsWith(" ")) {
    const head = parts.slice(0, -2);
    alternatives.push(...(expandGlobstars([...head, (parts.at(-2) as string).slice(0, -1)]) ?? []));
  }
  return alternatives.some((a) => starsMatch(a, v));
}

/** Each `/**\/` as its two readings (`/`, and `/` any run `/`): the pattern as alternatives of literals and stars only. */
function expandGlobstars(parts: readonly GlobPart[]): (string | typeof STAR)[][] | null {
  const n = parts.filter((x) => x === GLOBSTAR).length;
  if (n > MAX_GLOBSTARS) return null;
  let out: (string | typeof STAR)[][] = [[]];
  for (const part of parts) {
    if (part !== GLOBSTAR) out = out.map((a) => [...a, part as string | typeof STAR]);
    else
      out = out.flatMap((a) => [
        [...a, "/"],
        [...a, "/", STAR, "/"],
      ]);
  }
  return out;
}

/**
 * Literals and stars against the whole value: the first literal at the start, the last at the
 * end, those between found leftmost in order (a leftmost match never loses a match a later one
 * would find), so each character of the value is passed over a bounded number of times.
 */
function starsMatch(parts: readonly (string | typeof STAR)[], value: string): boolean {
  // adjacent literals are one literal
  const merged: (string | typeof STAR)[] = [];
  for (const p of parts) {
    const prev = merged.at(-1);
    if (typeof p === "string" && typeof prev === "string") merged[merged.length - 1] = prev + p;
    else if (!(p === STAR && prev === STAR)) merged.push(p);
  }
  if (!merged.includes(STAR)) return value === (merged[0] ?? "");
  let start = 0;
  let end = value.length;
  let i = 0;
  let j = merged.length;
  if (typeof merged[0] === "string") {
    if (!value.startsWith(merged[0])) return false;
    start = merged[0].length;
    i = 1;
  }
  const lastPart = merged[j - 1];
  if (typeof lastPart === "string") {
    if (end - lastPart.length < start || !value.endsWith(lastPart)) return false;
    end -= lastPart.length;
    j--;
  }
  for (; i < j; i++) {
    const part = merged[i];
    if (part === STAR) continue;
    const at = value.indexOf(part, start);
    if (at === -1 || at + part.length > end) return false;
    start = at + part.length;
  }
  return true;
}

// A `NAME=value` word: an assignment before a command (or `env`'s), not the command.
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

// Words that open or continue a compound command, or modify a pipeline, where a command would start.
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "select", "function", "!", "time", "[[", "]]", "coproc", "in"]);

/**
 * The simple commands of a shell command line, each as its words joined by one space (quotes
 * removed, leading `VAR=value` assignments and redirections dropped), split at `&&`, `||`, `;`,
 * `|`, `&` and newlines; null when the line has constructs this reader does not follow
 * (command substitution, process substitution, subshells, groups, here-documents): Claude Code
 * then runs the hook without testing the rule, and so does hookrun.
 *
 * Beyond Claude Code: the command a wrapper runs is a simple command of the line too (`env X=1
 * git push`, `sudo git push`, `timeout 5 git push`, `bash -c "git push"`, `eval "git push"`, …:
 * WRAPPERS below), as is a command named by its path (`/usr/bin/git push` also reads as `git
 * push`), so a guard on `git push*` is not skipped by putting a word in front. A wrapper whose
 * command cannot be read (an option this reader does not know, a shell reading its stdin) makes
 * the whole line unreadable: the hook runs.
 */
export function simpleCommands(command: string, depth = 0): string[] | null {
  const commands = commandWords(command);
  if (commands === null) return null;
  // Compound commands (`if …; then git push; fi`, `! git push`, `time git push`, loops) are not
  // followed either: `then git push` is no simple command, and a skipped guard is worse.
  if (commands.some((argv) => RESERVED.has(argv.find((w) => !ASSIGNMENT.test(w)) ?? ""))) return null;
  const out: string[] = [];
  for (const argv of commands) {
    const words = commandText(argv);
    if (words.length === 0) continue;
    out.push(words.join(" "));
    const inner = runs(words, depth);
    if (inner === null) return null;
    out.push(...inner);
  }
  return out;
}

// How deep wrappers and the strings of `eval` and `sh -c` are followed before the line counts as unreadable.
const MAX_DEPTH = 8;

/** What a command runs besides itself, as simple commands: its wrapped command's, its path's base name; null when that cannot be read. */
function runs(words: readonly string[], depth: number): string[] | null {
  if (depth >= MAX_DEPTH) return null;
  const name = words[0].slice(words[0].lastIndexOf("/") + 1);
  const out: string[] = name !== words[0] && name !== "" ? [[name, ...words.slice(1)].join(" ")] : [];
  const read = (line: string): string[] | null => {
    const inner = simpleCommands(line, depth + 1);
    return inner === null ? null : [...out, ...inner];
  };
  if (name === "eval") return read(words.slice(1).join(" "));
  if (SHELLS.has(name)) {
    const script = shellScript(words.slice(1));
    if (script === null) return null;
    return script === undefined ? out : read(script);
  }
  const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (!wrapper) return out;
  const wrapped = wrapper(words.slice(1));
  if (wrapped === null) return null;
  if (typeof wrapped === "string") return read(wrapped);
  const rest = commandText(wrapped);
  if (rest.length === 0) return out;
  const inner = runs(rest, depth + 1);
  return inner === null ? null : [...out, rest.join(" "), ...inner];
}

// Shells whose `-c STRING` runs STRING as a command line.
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox-sh"]);

/**
 * A shell's arguments: the command line of `-c` (combined flags too: `-lc`, `-ec`), undefined for
 * a script file (its text is not the command's), null when the shell reads its commands from stdin
 * (`echo 'git push' | bash`) or an option is not known.
 */
function shellScript(args: readonly string[]): string | undefined | null {
  let c = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--" || a === "-") return c ? (args[i + 1] ?? null) : args[i + 1] !== undefined ? undefined : null;
    if (/^[-+]o$/.test(a) || a === "-O" || a === "+O" || a === "--rcfile" || a === "--init-file") {
      i++;
      continue;
    }
    if (/^--[a-z-]+$/.test(a)) continue;
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) c = true;
      if (a.startsWith("-") && a.includes("s") && !c) return null;
      continue;
    }
    return c ? a : undefined;
  }
  return null;
}

/**
 * Options of a wrapper: `flags` take no value, `values` take one (`-u NAME`, `-uNAME`,
 * `--user=NAME`, `--user NAME`); an option it does not know makes its command unreadable (null).
 * Returns the words after the options.
 */
function afterOptions(args: readonly string[], flags: string, values: string, longFlags: readonly string[] = [], longValues: readonly string[] = []): string[] | null {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return args.slice(i + 1);
    if (!a.startsWith("-") || a === "-") break;
    if (a.startsWith("--")) {
      const [long, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (longFlags.includes(long)) continue;
      if (longValues.includes(long)) {
        if (inline === undefined) i++;
        continue;
      }
      return null;
    }
    for (let k = 1; k < a.length; k++) {
      if (flags.includes(a[k])) continue;
      if (values.includes(a[k])) {
        if (k === a.length - 1) i++;
        break;
      }
      // `nice -5`, `nice -n5`: a number is the adjustment
      if (/[0-9]/.test(a[k]) && values.includes("n")) break;
      return null;
    }
  }
  return args.slice(i);
}

/**
 * Commands that run the command after their options: the words of that command, a command line
 * to read (`sudo -s CMD`, `env -S STRING`), or null when they cannot be read.
 */
const WRAPPERS: Readonly<Record<string, (args: readonly string[]) => string[] | string | null>> = {
  env(args) {
    // `env -S STRING` splits STRING itself: not followed (an unknown option, so the hook runs)
    const rest = afterOptions(args, "i0v", "uC", ["ignore-environment", "null", "debug"], ["unset", "chdir"]);
    if (rest === null) return null;
    const command = rest.findIndex((w) => !ASSIGNMENT.test(w));
    return command === -1 ? [] : rest.slice(command);
  },
  command: (args) => afterOptions(args, "pvV", ""),
  builtin: (args) => args.slice(),
  exec: (args) => afterOptions(args, "cl", "a"),
  nohup: (args) => afterOptions(args, "", ""),
  setsid: (args) => afterOptions(args, "cfw", "", ["ctty", "fork", "wait"]),
  nice: (args) => afterOptions(args, "", "n", [], ["adjustment"]),
  ionice: (args) => afterOptions(args, "t", "cnp", ["ignore"], ["class", "classdata", "pid"]),
  stdbuf: (args) => afterOptions(args, "", "ioe", [], ["input", "output", "error"]),
  timeout(args) {
    const rest = afterOptions(args, "v", "sk", ["preserve-status", "foreground", "verbose"], ["signal", "kill-after"]);
    // the first word left is the duration
    return rest === null ? null : rest.slice(1);
  },
  sudo: (args) =>
    elevated(
      args,
      afterOptions(
        args,
        "AbEHiKklnPSsVvBN",
        "CcDghpRrTtUu",
        ["preserve-env", "login", "shell", "non-interactive", "background", "reset-timestamp", "remove-timestamp", "stdin", "askpass", "set-home", "bell"],
        ["user", "group", "chdir", "close-from", "host", "prompt", "role", "type", "command-timeout", "other-user"],
      ),
    ),
  doas: (args) => elevated(args, afterOptions(args, "nLs", "Cu")),
};

/** `sudo`/`doas`: the command after their options (`rest`); with `-s`/`-i` (a shell), the rest as a command line. */
function elevated(args: readonly string[], rest: string[] | null): string[] | string | null {
  if (rest === null) return null;
  const optionWords = args.slice(0, args.length - rest.length);
  const shell = optionWords.some((a) => /^-[A-Za-z]*[si]/.test(a) && !a.startsWith("--")) || optionWords.includes("--shell") || optionWords.includes("--login");
  return shell && rest.length ? rest.join(" ") : rest;
}

/** The words of each command of a line, quotes removed; null at a construct simpleCommands does not follow. */
function commandWords(command: string): string[][] | null {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    commands.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) return null;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && j + 1 < command.length && '"\\$`\n'.includes(command[j + 1])) {
          if (command[j + 1] !== "\n") word += command[j + 1];
          j++;
        } else if (command[j] === "`" || (command[j] === "$" && command[j + 1] === "(")) return null;
        else word += command[j];
      }
      if (j >= command.length) return null;
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (command[i + 1] === "\n") i++;
      else if (i + 1 < command.length) {
        word += command[i + 1];
        inWord = true;
        i++;
      }
    } else if (c === "`" || (c === "$" && command[i + 1] === "(") || ((c === "<" || c === ">") && command[i + 1] === "(")) return null;
    else if (c === "<" && command[i + 1] === "<") return null;
    else if ((c === "(" || c === ")" || c === "{" || c === "}") && !inWord) return null;
    else if (c === " " || c === "\t") endWord();
    else if (c === "\n" || c === ";" || c === "|" || c === "&") {
      // `2>&1`, `>&2`: a redirection, not a list operator.
      if (c === "&" && (command[i - 1] === ">" || command[i - 1] === "<")) {
        word += c;
        inWord = true;
        continue;
      }
      endCommand();
      if ((c === "|" || c === "&") && command[i + 1] === c) i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** One command's words as simpleCommands gives them: without its leading assignments and its redirections. */
function commandText(argv: readonly string[]): string[] {
  const out: string[] = [];
  let skipNext = false;
  for (const w of argv) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (out.length === 0 && ASSIGNMENT.test(w)) continue;
    const redirect = /^(\d*|&)(>>?|<)(&?\d*-?)?(.*)$/.exec(w);
    if (redirect && (redirect[1] !== "" || w.startsWith(">") || w.startsWith("<"))) {
      if (redirect[4] === "" && !redirect[3]) skipNext = true;
      continue;
    }
    out.push(w);
  }
  return out;
}

/** Claude's Bash rule: some simple command of the line matches (`npm run test:*` is a legacy prefix rule). */
export function bashRuleMatches(content: string, command: string): boolean {
  const commands = simpleCommands(command);
  if (commands === null) return true;
  const prefix = /^(.+):\*$/.exec(content)?.[1] ?? null;
  return commands.some((c) => {
    if (prefix !== null) return c === prefix || c.startsWith(`${prefix} `) || c === `xargs ${prefix}` || c.startsWith(`xargs ${prefix} `);
    return wildcardMatch(content, c, true) || wildcardMatch(`xargs ${content}`, c, true);
  });
}

/** Whether a pattern has an unescaped `*` (a `:*` suffix is Bash's prefix syntax, not a wildcard). */
function hasWildcard(pattern: string): boolean {
  if (pattern.endsWith(":*")) return false;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "*") continue;
    let n = 0;
    for (let j = i - 1; j >= 0 && pattern[j] === "\\"; j--) n++;
    if (n % 2 === 0) return true;
  }
  return false;
}

export interface PathRoots {
  /** The hook's working directory: a relative rule and a relative file path are resolved against it. */
  cwd: string;
  /** The project directory: the root of a rule starting with one `/`. */
  projectDir: string;
  home: string;
}

/**
 * Claude's file rule (`Edit(src/**)`, `Read(//etc/*)`, `Write(~/notes/*)`, `Edit(/docs/**)`):
 * gitignore-style, relative to its root (`//` the filesystem root, `~/` the home directory, `/` the
 * project directory, else the working directory); a rule starting with `*` or without any wildcard
 * is also tested as a wildcard against the whole path.
 */
export function pathRuleMatches(content: string, filePath: string, roots: PathRoots): boolean {
  const abs = path.resolve(roots.cwd, filePath);
  let root = roots.cwd;
  let pattern = content;
  if (pattern.startsWith("//")) [root, pattern] = ["/", pattern.slice(1)];
  else if (pattern.startsWith("~/")) [root, pattern] = [roots.home, pattern.slice(1)];
  else if (pattern.startsWith("/")) root = roots.projectDir;
  else if (pattern.startsWith("./")) pattern = pattern.slice(1);
  const rel = path.relative(root, abs).split(path.sep).join("/");
  if (rel !== "" && !rel.startsWith("../") && rel !== ".." && !path.isAbsolute(rel) && gitignoreMatches(pattern, rel)) return true;
  const trimmed = content.trim();
  if (trimmed.startsWith("*") || !hasWildcard(trimmed)) return wildcardMatch(content, filePath);
  return false;
}

/** One gitignore pattern against a relative path: a directory pattern also matches everything below it. */
function gitignoreMatches(pattern: string, rel: string): boolean {
  let p = pattern;
  // Claude turns `dir/**` into `/dir` (anchored: the directory and everything below it).
  if (p.endsWith("/**")) {
    const dir = p.slice(0, -3);
    p = /[^/]/.test(dir) ? (dir.includes("/") ? dir : `/${dir}`) : "/**";
  }
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  if (p === "") return false;
  const test = picomatch(anchored ? p : `**/${p}`, { dot: true });
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    if (dirOnly && i === parts.length) continue;
    if (test(parts.slice(0, i).join("/"))) return true;
  }
  return false;
}

/** Each file a Codex `apply_patch` adds, changes or deletes (`host.patch_files`, read by the Codex adapter). */
function patchFiles(context: HookContext): string[] {
  const host = context.host;
  const patch = host && typeof host === "object" && !Array.isArray(host) ? (host as Record<string, unknown>).patch_files : undefined;
  return Array.isArray(patch) ? patch.filter((f): f is string => typeof f === "string" && f !== "") : [];
}

/** The files `paths:` tests: the event's `path`, and each file of a Codex patch (an edit under Codex has no other path). */
export function pathsFiles(context: HookContext): string[] {
  return [...(typeof context.path === "string" && context.path !== "" ? [context.path] : []), ...patchFiles(context)];
}

const FILE_TOOLS: Readonly<Record<string, string>> = { Edit: "file_path", Write: "file_path", Read: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const GLOB_TOOLS = new Set(["Glob", "Grep"]);

/**
 * Whether a hook with `if: rule` runs for this context. Only events with a tool call can pass; the
 * tool's name must be the rule's, exactly (after the legacy aliases: `Task` is `Agent`); a rule with content is tested by the tool's matcher (Bash: the command; Edit, Write, Read,
 * MultiEdit, NotebookEdit: the file path; Glob, Grep: the pattern); other tools have none, so a
 * rule with content never matches them.
 */
export function ifRuleMatches(rule: string, event: string, context: Record<string, unknown>, roots: PathRoots): boolean {
  if (!TOOL_CALL_EVENTS.has(event)) return false;
  const tool = typeof context.tool_name === "string" ? context.tool_name : "";
  if (tool === "") return false;
  const parsed = parsePermissionRule(rule);
  const name = tool.startsWith("mcp__") ? tool : currentToolName(tool);
  if (parsed.toolName !== name) return false;
  if (parsed.content === undefined) return true;
  const input = context.tool_input && typeof context.tool_input === "object" ? (context.tool_input as Record<string, unknown>) : {};
  const field = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : undefined);
  if (name === "Bash") {
    const command = field("command");
    return command !== undefined && bashRuleMatches(parsed.content, command);
  }
  if (Object.hasOwn(FILE_TOOLS, name)) {
    // Hosts that name the tools as Claude does may still name the path their way (Copilot CLI:
    // `path`); a Codex patch names each file it adds, changes or deletes.
    const file = field(FILE_TOOLS[name]) ?? field("path");
    const content = parsed.content;
    return [...(file ? [file] : []), ...patchFiles(context)].some((f) => pathRuleMatches(content, f, roots));
  }
  if (GLOB_TOOLS.has(name)) {
    const pattern = field("pattern");
    return pattern !== undefined && wildcardMatch(parsed.content, pattern);
  }
  return false;
}
