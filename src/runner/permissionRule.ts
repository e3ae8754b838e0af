/**
 * A hook's `if`: Claude Code's permission-rule filter (`Bash(git *)`, `Edit(src/**)`, `Read`), matched
 * as Claude Code 2.1.330 matches a hook's `if` (its rule parser, tool-name aliases, the Bash
 * matcher, the file-path matcher and the glob matcher of Glob/Grep, read from its source).
 */
import path from "node:path";
import picomatch from "picomatch";
import { TOOL_CALL_EVENTS } from "../events/catalog.js";

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

const ESC_STAR = "\0ESCAPED_STAR\0";
const ESC_BACKSLASH = "\0ESCAPED_BACKSLASH\0";
const GLOBSTAR = "\0GLOBSTAR\0";

/**
 * Claude's wildcard match: the whole value against the pattern, `*` any run of characters (`\*` a
 * literal star), `/**\/` any number of directories, and a single trailing ` *` also matching
 * nothing (`git *` matches `git`). `collapse` folds runs of spaces and tabs on both sides.
 */
export function wildcardMatch(pattern: string, value: string, collapse = false): boolean {
  if (pattern.includes("\0")) return false;
  const trimmed = pattern.trim();
  const p = collapse ? trimmed.replace(/[ \t]+/g, " ") : trimmed;
  const v = collapse ? value.replace(/[ \t]+/g, " ") : value;
  let marked = "";
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\" && i + 1 < p.length && (p[i + 1] === "*" || p[i + 1] === "\\")) {
      marked += p[i + 1] === "*" ? ESC_STAR : ESC_BACKSLASH;
      i++;
    } else marked += p[i];
  }
  let re = marked
    .replace(/[.+?^${}()|[\]\\'"]/g, "\\$&")
    .replace(/\/(?:\*\*\/)+/g, GLOBSTAR)
    .replaceAll("*", ".*")
    .replaceAll(GLOBSTAR, "/(?:.*/)?")
    .replaceAll(ESC_STAR, "\\*")
    .replaceAll(ESC_BACKSLASH, "\\\\");
  if (re.endsWith(" .*") && (marked.match(/\*/g) ?? []).length === 1) re = `${re.slice(0, -3)}( .*)?`;
  return new RegExp(`^${re}$`, "s").test(v);
}

// Words that open or continue a compound command, or modify a pipeline, where a command would start.
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "select", "function", "!", "time", "[[", "]]", "coproc", "in"]);

/**
 * The simple commands of a shell command line, each as its words joined by one space (quotes
 * removed, leading `VAR=value` assignments and redirections dropped), split at `&&`, `||`, `;`,
 * `|`, `&` and newlines; null when the line has constructs this reader does not follow
 * (command substitution, process substitution, subshells, groups, here-documents): Claude Code
 * then runs the hook without testing the rule, and so does hookrun.
 */
export function simpleCommands(command: string): string[] | null {
  const commands = commandWords(command);
  if (commands === null) return null;
  // Compound commands (`if …; then git push; fi`, `! git push`, `time git push`, loops) are not
  // followed either: `then git push` is no simple command, and a skipped guard is worse.
  if (commands.some((argv) => RESERVED.has(argv.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? ""))) return null;
  return commands.map(commandText).filter((c) => c !== "");
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
function commandText(argv: string[]): string {
  const out: string[] = [];
  let skipNext = false;
  for (const w of argv) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (out.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
    const redirect = /^(\d*|&)(>>?|<)(&?\d*-?)?(.*)$/.exec(w);
    if (redirect && (redirect[1] !== "" || w.startsWith(">") || w.startsWith("<"))) {
      if (redirect[4] === "" && !redirect[3]) skipNext = true;
      continue;
    }
    out.push(w);
  }
  return out.join(" ");
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
    // Hosts that name the tools as Claude does may still name the path their way (Copilot CLI: `path`).
    const file = field(FILE_TOOLS[name]) ?? field("path");
    return file !== undefined && file !== "" && pathRuleMatches(parsed.content, file, roots);
  }
  if (GLOB_TOOLS.has(name)) {
    const pattern = field("pattern");
    return pattern !== undefined && wildcardMatch(parsed.content, pattern);
  }
  return false;
}
