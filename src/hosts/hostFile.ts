import { applyEdits, type FormattingOptions, type Node, modify, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { nestingTooDeepAt, TOO_DEEP } from "../config/limits.js";
import { WriteError } from "../errors.js";
import { lineOf } from "../text.js";
import { ownsEntry } from "./install.js";
import type { EntryEditor, EntryFileSpec, HostEntry } from "./types.js";

/**
 * hookrun's entries in a host's JSON config file (the `jsonFile` setup of src/hosts/setup.ts:
 * `hooks install` / `uninstall` / `--check`, `hooks validate`'s staleness check): merged with the
 * user's own entries, edited in place (every byte outside hookrun's entries kept), idempotent and
 * exactly reversible (decision 0009).
 */

/** The editor of a JSON config file whose hooks map is at `spec.hooksPath`. */
export const jsonEditor = (spec: Pick<EntryFileSpec, "hooksPath" | "skeleton">): EntryEditor => ({
  installed: (text, file) => installedEntries(spec.hooksPath, text, file),
  merge: (text, file, wanted) => mergeEntries(spec, text, file, wanted),
  uninstall: (text, file) => uninstallText(spec, text, file),
});

interface Parsed {
  root: Node | undefined;
  fmt: FormattingOptions;
}

function parse(text: string, file: string, hooksPath: readonly string[]): Parsed {
  const { root, problem } = hostJsonTree(text, hooksPath);
  if (problem) throw new WriteError(`${file}:${problem.line}: ${problem.message}; ${problem.fix} and run the command again; nothing was written`, file);
  if (root && root.type !== "object") throw new WriteError(`${file} is not a JSON object; fix it and run the command again; nothing was written`, file);
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return { root, fmt: { insertSpaces: !indent.includes("\t"), tabSize: indent.includes("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" } };
}

/** What keeps a host's JSON settings file from being read as its host reads it: where, what, and what to do. */
export interface HostJsonProblem {
  line: number;
  kind: "deep" | "syntax" | "duplicate";
  message: string;
  fix: string;
}

/**
 * A host's JSON settings file parsed once, with what keeps it from being edited as its host reads
 * it (null: nothing): nesting past the limit (checked before parsing; `root` is then undefined), a
 * syntax error, or a key twice on the way to the hooks map or among its events. The host
 * (`JSON.parse`) takes the last of two keys and hookrun's editor the first: the entries would go
 * where the host never looks, and `--check` and the doctor would call them current.
 */
export function hostJsonTree(text: string, hooksPath: readonly string[]): { root: Node | undefined; problem: HostJsonProblem | null } {
  const deep = nestingTooDeepAt(text, "json");
  if (deep !== null) return { root: undefined, problem: { line: lineOf(text, deep), kind: "deep", message: TOO_DEEP, fix: "fix the file" } };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return { root, problem: { line: lineOf(text, errors[0].offset), kind: "syntax", message: printParseErrorCode(errors[0].error), fix: "fix the file (it must be JSON)" } };
  return { root, problem: duplicateOnHooksPath(text, root, hooksPath) };
}

/** A key twice among the keys on the way to the hooks map, or among its events, or null. */
function duplicateOnHooksPath(text: string, root: Node | undefined, hooksPath: readonly string[]): HostJsonProblem | null {
  let node = root;
  const where: string[] = [];
  for (const key of [...hooksPath, null]) {
    if (node?.type !== "object") return null;
    const seen = new Map<string, Node>();
    for (const p of node.children ?? []) {
      const name = p.children?.[0].value as string;
      if (key !== null && name !== key) continue;
      const first = seen.get(name);
      if (first) {
        const what = [...where, name].map((k) => JSON.stringify(k)).join(" → ");
        const message = `${what} appears twice (lines ${lineOf(text, first.offset)} and ${lineOf(text, p.offset)}): the agent reads only the last, so entries in the first never run`;
        return { line: lineOf(text, p.offset), kind: "duplicate", message, fix: "merge them into one" };
      }
      seen.set(name, p);
    }
    if (key === null) return null;
    where.push(key);
    node = seen.get(key)?.children?.[1];
  }
  return null;
}

const nodeAt = (root: Node | undefined, path: readonly (string | number)[]): Node | undefined => {
  let node = root;
  for (const key of path) {
    if (!node) return undefined;
    if (node.type === "object" && typeof key === "string") node = node.children?.find((p) => p.children?.[0].value === key)?.children?.[1];
    else if (node.type === "array" && typeof key === "number") node = node.children?.[key];
    else return undefined;
  }
  return node;
};

const jsonValue = (node: Node | undefined): unknown => {
  if (!node) return undefined;
  if (node.type === "object") return Object.fromEntries((node.children ?? []).map((p) => [p.children![0].value as string, jsonValue(p.children![1])]));
  if (node.type === "array") return (node.children ?? []).map((n) => jsonValue(n));
  return node.value;
};

/** hookrun's entries now in the file's text: host event → entries, in file order. */
export function installedEntries(hooksPath: readonly string[], text: string, file: string): Record<string, HostEntry[]> {
  const { root } = parse(text, file, hooksPath);
  const map = nodeAt(root, hooksPath);
  // No prototype: an event key "__proto__" or "constructor" in the file is a key like any other.
  const out: Record<string, HostEntry[]> = Object.create(null);
  for (const prop of map?.type === "object" ? (map.children ?? []) : []) {
    const list = prop.children?.[1];
    if (list?.type !== "array") continue;
    const owned = (list.children ?? []).map((n) => jsonValue(n)).filter(ownsEntry) as HostEntry[];
    if (owned.length) out[prop.children![0].value as string] = owned;
  }
  return out;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The text without hookrun's entries; an event list or hooks map hookrun's removal empties goes too. */
function removeEntries(at: readonly string[], text: string, file: string): string {
  let out = text;
  for (;;) {
    const { root } = parse(out, file, at);
    const map = nodeAt(root, at);
    if (map?.type !== "object") return out;
    const props = map.children ?? [];
    let next: string | null = null;
    for (const [p, prop] of props.entries()) {
      const list = prop.children![1];
      if (list.type !== "array") continue;
      const items = list.children ?? [];
      const owned = items.map((n, i) => (ownsEntry(jsonValue(n)) ? i : -1)).filter((i) => i >= 0);
      if (owned.length === 0) continue;
      // A list of only hookrun's entries goes with its key; else the last of hookrun's entries.
      next = owned.length === items.length ? removeChild(out, map, p) : removeChild(out, list, owned[owned.length - 1]);
      break;
    }
    if (next !== null) {
      out = next;
      continue;
    }
    // A hooks map the removal left empty goes as well.
    if (props.length === 0 && at.length > 0) {
      const parent = nodeAt(root, at.slice(0, -1))!;
      const index = (parent.children ?? []).findIndex((p) => p.children?.[0].value === at[at.length - 1]);
      if (index >= 0) out = removeChild(out, parent, index);
    }
    return out;
  }
}

/**
 * The text without child `index` of an array or object (an object's child is a `"key": value`
 * property), with the comma and blank that joined it: the exact inverse of appendToArray.
 */
function removeChild(text: string, container: Node, index: number): string {
  const items = container.children ?? [];
  const item = items[index];
  if (items.length === 1) return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
  if (index > 0) {
    const prev = items[index - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(item.offset + item.length);
  }
  return text.slice(0, item.offset) + text.slice(items[1].offset);
}

/**
 * The file's text with exactly `wanted` as hookrun's entries: unchanged when they are already
 * there (idempotent); else hookrun's old entries removed and the wanted ones appended to each
 * event's list, the user's entries and formatting untouched. `text` null: a new file.
 */
function mergeEntries(install: Pick<EntryFileSpec, "hooksPath" | "skeleton">, text: string | null, file: string, wanted: Record<string, HostEntry[]>): string {
  if (text !== null && text.trim() !== "" && same(installedEntries(install.hooksPath, text, file), wanted)) return text;
  let out = text === null || text.trim() === "" ? `${JSON.stringify({ ...install.skeleton }, null, 2)}\n` : removeEntries(install.hooksPath, text, file);
  for (const [event, entries] of Object.entries(wanted)) {
    for (const entry of entries) {
      const { root, fmt } = parse(out, file, install.hooksPath);
      const list = nodeAt(root, [...install.hooksPath, event]);
      out = list?.type === "array" && list.children?.length ? appendToArray(out, list, entry, fmt) : setProperty(out, root, [...install.hooksPath, event], [entry], fmt);
    }
  }
  return out;
}

/**
 * `path` set to `value` in `text`: a new property is appended to the deepest object that exists,
 * in that object's own layout (as appendToArray does); jsonc-parser's modify, which re-formats
 * the whole parent, serves only an empty parent.
 */
function setProperty(text: string, root: Node | undefined, path: readonly string[], value: unknown, fmt: FormattingOptions): string {
  let depth = 0;
  while (depth < path.length - 1 && nodeAt(root, path.slice(0, depth + 1))?.type === "object") depth++;
  const parent = nodeAt(root, path.slice(0, depth));
  const existing = nodeAt(root, path.slice(0, depth + 1));
  if (!parent?.children?.length || existing) return applyEdits(text, modify(text, [...path], value, { formattingOptions: fmt }));
  // What is missing below the parent, as one nested value: {"hooks": {"Stop": [...]}}.
  const nested = path.slice(depth + 1).reduceRight<unknown>((v, key) => ({ [key]: v }), value);
  return appendToArray(text, parent, { [path[depth]]: nested }, fmt, true);
}

/**
 * `entry` appended to a non-empty JSON array in `text`, in the array's own layout (one line, or
 * one item per line at the last item's indentation); nothing else in the file moves. (jsonc-parser's
 * array insertion re-formats the whole array, the user's items included.)
 */
function appendToArray(text: string, list: Node, entry: unknown, fmt: FormattingOptions, asProperty = false): string {
  const last = list.children![list.children!.length - 1];
  const end = last.offset + last.length;
  // An object member: its text is `"key": value`, one property of `entry`.
  const [key, value] = asProperty ? Object.entries(entry as Record<string, unknown>)[0] : [null, entry];
  const label = key === null ? "" : `${JSON.stringify(key)}: `;
  if (!text.slice(list.offset, list.offset + list.length).includes("\n")) return `${text.slice(0, end)}, ${label}${JSON.stringify(value)}${text.slice(end)}`;
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))![0];
  const eol = fmt.eol ?? "\n";
  const body = JSON.stringify(value, null, fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t").replaceAll("\n", eol + indent);
  return `${text.slice(0, end)},${eol}${indent}${label}${body}${text.slice(end)}`;
}

/**
 * The text after `hooks uninstall`: hookrun's entries gone; null when nothing else is left in the
 * file (only what hookrun would have created), so the file can be removed.
 */
function uninstallText(spec: Pick<EntryFileSpec, "hooksPath" | "skeleton">, text: string, file: string): string | null {
  const out = removeEntries(spec.hooksPath, text, file);
  const { root } = parse(out, file, spec.hooksPath);
  const value = jsonValue(root) ?? {};
  const skeleton = spec.skeleton ?? {};
  const rest = Object.entries(value as Record<string, unknown>).filter(([k, v]) => !(Object.hasOwn(skeleton, k) && same(skeleton[k], v)));
  return rest.length === 0 ? null : out;
}
