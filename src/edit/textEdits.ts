import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, type Document, isAlias, type YAMLMap } from "yaml";
import { ConfigError, WriteError } from "../errors.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";

/** A new local file: just the override, with a comment saying what the file is for. */
export function newLocalFileText(name: string, event: string, enabled: boolean): string {
  return ["# Personal overrides of hooks.yaml (keep this file out of git).", "hooks:", `  ${event}:`, `    - name: ${name}`, `      enabled: ${enabled}`, ""].join("\n");
}

/**
 * Write `{name, enabled}` under `event` in a local overrides file's text: an existing entry
 * for the hook is edited in place; otherwise one entry is inserted (under an existing key of
 * that event in any spelling, else a new event key, else a new `hooks:` section) and every
 * existing byte is kept.
 */
export function addLocalOverride(text: string, name: string, event: string, enabled: boolean, file: string): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? text.slice(1) : text;
  if (body.trim() === "") return bom + body + newLocalFileText(name, event, enabled);
  const doc = parseDocumentForEdit(body, file);
  if (findHookNode(doc, name, file)) return setEnabledInText(text, name, enabled, file);
  const json = configFormat(file) === "json";
  const q = (s: string) => (json ? JSON.stringify(s) : s);
  const eol = detectEol(body);
  const entryFlow = `{${q("name")}: ${json ? JSON.stringify(name) : name}, ${q("enabled")}: ${enabled}}`;
  const splice = (at: number, insert: string) => bom + body.slice(0, at) + insert + body.slice(at);
  const fail = (what: string): never => {
    throw new WriteError(`cannot add an override for "${name}" to ${file}: ${what}; add \`{name: ${name}, enabled: ${enabled}}\` under \`${event}\` by hand`, file);
  };

  const root = doc.contents;
  if (root !== null && !isMap(root)) throw new ConfigError(`${file} is not a map of settings; fix it (\`hooks validate\`) before editing it`);
  const hooksPair = root ? (root.items.find((p) => isScalar(p.key) && p.key.value === "hooks") as Pair<Node, Node> | undefined) : undefined;

  if (!root || !hooksPair) {
    if (root?.flow) {
      const at = root.range![0] + 1;
      const rest = root.items.length ? ", " : "";
      return splice(at, `${q("hooks")}: {${q(event)}: [${entryFlow}]}${rest}`);
    }
    const lead = body.endsWith("\n") ? "" : eol;
    return splice(body.length, `${lead}hooks:${eol}  ${event}:${eol}    - name: ${name}${eol}      enabled: ${enabled}${eol}`);
  }

  const hooks = hooksPair.value;
  if (hooks && !isMap(hooks)) return fail("its `hooks` is not a plain map");
  const eventPair = hooks?.items.find((p) => (isScalar(p.key) && typeof p.key.value === "string" && tryParseHookEvent(p.key.value) === event) || (isScalar(p.key) && p.key.value === event)) as
    | Pair<Node, Node>
    | undefined;

  if (!hooks || !eventPair) {
    if (!hooks || hooks.flow) {
      if (!hooks) return fail("its `hooks` key is empty");
      const at = hooks.range![0] + 1;
      const rest = hooks.items.length ? ", " : "";
      return splice(at, `${q(event)}: [${entryFlow}]${rest}`);
    }
    const first = hooks.items[0].key as Node;
    const start = lineStart(body, first.range![0]);
    const indent = " ".repeat(first.range![0] - start);
    return splice(start, `${indent}${event}:${eol}${indent}  - name: ${name}${eol}${indent}    enabled: ${enabled}${eol}`);
  }

  const list = eventPair.value;
  if (!isSeq(list)) return fail(`its \`${String((eventPair.key as { value?: unknown }).value)}\` is not a list`);
  if (list.flow) {
    const at = list.range![0] + 1;
    const rest = list.items.length ? ", " : "";
    return splice(at, `${entryFlow}${rest}`);
  }
  const start = lineStart(body, list.range![0]);
  const indent = " ".repeat(list.range![0] - start);
  return splice(start, `${indent}- name: ${name}${eol}${indent}  enabled: ${enabled}${eol}`);
}

/** JSON files are edited with JSON quoting; everything else is YAML. */
export type ConfigFormat = "yaml" | "json";

export function configFormat(file: string): ConfigFormat {
  return file.toLowerCase().endsWith(".json") ? "json" : "yaml";
}

/** The file's line ending: the first one found, else "\n". */
export function detectEol(text: string): string {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** Offset of the start of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Offset just past the end of the line holding `offset` (after its line ending), or text.length. */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl + 1;
}

/** Parse config text (YAML or JSON) keeping node ranges; a syntax error is a ConfigError. */
export function parseDocumentForEdit(text: string, file: string): Document {
  const doc = parseDocument(text, { merge: true, keepSourceTokens: false });
  if (doc.errors.length > 0) {
    const diagnostics = doc.errors.map((e) => ({
      file,
      line: e.linePos?.[0]?.line ?? 1,
      col: e.linePos?.[0]?.col ?? 1,
      severity: "error" as const,
      message: e.message.split("\n")[0],
    }));
    throw new ConfigError(`${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}; fix it (\`hooks validate\`) before editing it`, diagnostics);
  }
  return doc;
}

/** A hook's own map inside a parsed config file, and the event key it sits under. */
export interface HookNode {
  map: YAMLMap<unknown, unknown>;
  /** The event key as written (any spelling). */
  eventKey: string;
  namePair: Pair<Node, Node>;
  enabledPair?: Pair<Node, Node>;
}

function scalarText(doc: Document, node: unknown): string | undefined {
  const resolved = isAlias(node) ? node.resolve(doc) : node;
  return isScalar(resolved) && typeof resolved.value === "string" ? resolved.value : undefined;
}

function pairNamed(map: YAMLMap<unknown, unknown>, key: string): Pair<Node, Node> | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair<Node, Node> | undefined;
}

/**
 * Find the map of the hook called `name`. A hook reached through an alias (`- *base`, or an
 * event list that is itself an alias) is refused: editing it would silently change the anchor
 * and every other place that uses it.
 */
export function findHookNode(doc: Document, name: string, file: string): HookNode | null {
  const root = doc.contents;
  if (!isMap(root)) return null;
  const hooksPair = pairNamed(root, "hooks");
  if (!hooksPair) return null;
  const viaAlias = (what: string): never => {
    throw new WriteError(
      `cannot edit hook "${name}" in ${file}: its ${what} comes from a YAML alias, and editing the anchor would change every place that uses it; edit the anchor by hand or use --local`,
      file,
    );
  };
  let hooks: unknown = hooksPair.value;
  const hooksAliased = isAlias(hooks);
  if (hooksAliased) hooks = (hooks as { resolve(d: Document): unknown }).resolve(doc);
  if (!isMap(hooks)) return null;
  for (const eventPair of hooks.items) {
    const eventKey = scalarText(doc, eventPair.key);
    if (eventKey === undefined) continue;
    let list: unknown = eventPair.value;
    const listAliased = hooksAliased || isAlias(list);
    if (isAlias(list)) list = list.resolve(doc);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      const itemAliased = listAliased || isAlias(item);
      const map = isAlias(item) ? item.resolve(doc) : item;
      if (!isMap(map)) continue;
      const namePair = pairNamed(map, "name");
      if (!namePair || scalarText(doc, namePair.value) !== name) continue;
      if (itemAliased) viaAlias(isAlias(item) ? "map" : "event list");
      return { map, eventKey, namePair, enabledPair: pairNamed(map, "enabled") };
    }
  }
  return null;
}

/**
 * Set `enabled` on hook `name` by splicing the text: an existing value is replaced in place;
 * otherwise one `enabled` entry is inserted right after the hook's `name` (a new line with the
 * sibling keys' indentation in block style, `, enabled: false` inside braces in flow style).
 * Every other byte (comments, quoting, CRLF, BOM, final newline or not) is kept.
 */
export function setEnabledInText(text: string, name: string, enabled: boolean, file: string): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? text.slice(1) : text;
  const doc = parseDocumentForEdit(body, file);
  const node = findHookNode(doc, name, file);
  if (!node) throw new WriteError(`no hook named "${name}" in ${file}`, file);
  const value = String(enabled);
  const json = configFormat(file) === "json";
  const splice = (at: number, end: number, insert: string) => bom + body.slice(0, at) + insert + body.slice(end);

  if (node.enabledPair) {
    const range = node.enabledPair.value?.range;
    if (!range) throw new WriteError(`cannot edit hook "${name}" in ${file}: its \`enabled\` key has no value; set it by hand`, file);
    if (body.slice(range[0], range[1]) === value) return text;
    return splice(range[0], range[1], value);
  }
  // No key of its own: a merge key (`<<: *base`) may still decide it; default true.
  const merged = (node.map.toJS(doc) as { enabled?: unknown }).enabled;
  if ((merged ?? true) === enabled) return text;

  const keyRange = node.namePair.key.range!;
  const valueEnd = node.namePair.value!.range![1];
  const keyText = json ? '"enabled"' : "enabled";
  if (node.map.flow) {
    // Copy the name's own separator (": " or ":") and the spacing after its comma, if any.
    const sep = body.slice(keyRange[1], node.namePair.value!.range![0]) || ": ";
    const entry = `${keyText}${sep}${value}`;
    const after = /^[ \t]*,([ \t]*)/.exec(body.slice(valueEnd));
    const multiline = body.slice(node.map.range![0], keyRange[0]).includes("\n");
    if (!multiline) {
      // Spacing after commas: as after the name's own comma, else as before its key.
      const before = /,([ \t]*)$/.exec(body.slice(node.map.range![0], keyRange[0]));
      return splice(valueEnd, valueEnd, `,${after ? after[1] : before ? before[1] : " "}${entry}`);
    }
    // One key per line: add a line of its own, so only one line of the file changes.
    const indent = /^[ \t]*/.exec(body.slice(lineStart(body, keyRange[0])))![0];
    const eol = detectEol(body);
    if (after) {
      const at = valueEnd + after[0].length;
      return splice(at, at, `${eol}${indent}${entry},`);
    }
    return splice(keyRange[0], keyRange[0], `${entry},${eol}${indent}`);
  }
  const indent = " ".repeat(keyRange[0] - lineStart(body, keyRange[0]));
  const at = nextLineStart(body, valueEnd);
  const eol = detectEol(body);
  const line = `${indent}${keyText}: ${value}`;
  // The name line may be the last line of a file without a final newline: keep it that way,
  // by inserting above it when `name:` starts its line, else by adding the line ending.
  if (at === body.length && !body.endsWith("\n")) {
    const start = lineStart(body, keyRange[0]);
    if (/^[ \t]*$/.test(body.slice(start, keyRange[0]))) return splice(start, start, line + eol);
    return splice(at, at, eol + line);
  }
  return splice(at, at, line + eol);
}
