import { isDeepStrictEqual } from "node:util";
import { type Document, isMap, isScalar, isSeq, parseDocument, stringify, type YAMLMap, type YAMLSeq } from "yaml";
import type { ConfigFileSpec, HookSpec } from "../config/types.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import type { ConfigFormat } from "../edit/textEdits.js";
import { type HookImport, type ExistingHook, importToSpec } from "./importHooks.js";

/** One definition, in edit/textEdits; re-exported for the import command. */
export type { ConfigFormat };

/** The hooks a config file already declares, by canonical event (for de-duplication and names). */
export function existingHooks(text: string, format: ConfigFormat): ExistingHook[] {
  const spec = parseSpec(text, format);
  const custom = Object.keys(spec.events ?? {});
  const out: ExistingHook[] = [];
  for (const [key, list] of Object.entries(spec.hooks ?? {})) {
    const event = tryParseHookEvent(key, custom) ?? key;
    for (const h of Array.isArray(list) ? list : []) if (h && typeof h.name === "string") out.push({ event, name: h.name, command: h.command, args: h.args, matcher: h.matcher, if: h.if });
  }
  return out;
}

/**
 * Add the imported hooks (and custom events) to a config file's text. YAML is edited as text,
 * appending under the right keys so comments and formatting elsewhere stay byte for byte; when
 * the layout is unusual (flow style, no block map) it falls back to the yaml Document API.
 */
export function mergeImport(text: string, format: ConfigFormat, imp: HookImport): string {
  const before = parseSpec(text, format);
  const expected = mergedSpec(before, imp);
  if (format === "json") {
    const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
    return `${JSON.stringify(expected, null, indent)}\n`;
  }
  const edited = editYamlText(text, imp);
  if (edited !== null && isDeepStrictEqual(parseSpec(edited, "yaml"), expected)) return edited;
  const doc: Document = parseDocument(text);
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as YAMLMap;
  const spec = importToSpec(imp);
  for (const [name, settings] of Object.entries(spec.events ?? {})) if (!doc.hasIn(["events", name])) doc.setIn(["events", name], settings);
  for (const [event, hooks] of Object.entries(spec.hooks ?? {})) {
    const key = eventKey(doc, event) ?? event;
    const seq = doc.getIn(["hooks", key]);
    if (isSeq(seq)) for (const h of hooks) seq.items.push(doc.createNode(h));
    else doc.setIn(["hooks", key], hooks);
  }
  return doc.toString({ lineWidth: 0 });
}

/** `obj[key] = value` as an own field even for a key named `__proto__` (an event can be named so). */
function setOwn(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseSpec(text: string, format: ConfigFormat): ConfigFileSpec {
  const value: unknown = format === "json" ? JSON.parse(text || "{}") : parseDocument(text).toJS();
  return (value && typeof value === "object" ? value : {}) as ConfigFileSpec;
}

/** What the file must hold after the merge, used to check the text edit. */
function mergedSpec(before: ConfigFileSpec, imp: HookImport): ConfigFileSpec {
  const after = structuredClone(before);
  const add = importToSpec(imp);
  for (const [name, settings] of Object.entries(add.events ?? {})) {
    after.events ??= {};
    if (!Object.hasOwn(after.events, name)) setOwn(after.events, name, settings);
  }
  const custom = Object.keys(after.events ?? {});
  for (const [event, hooks] of Object.entries(add.hooks ?? {})) {
    after.hooks ??= {};
    const key = Object.keys(after.hooks).find((k) => (tryParseHookEvent(k, custom) ?? k) === event) ?? event;
    setOwn(after.hooks, key, [...(Object.hasOwn(after.hooks, key) ? after.hooks[key] : []), ...hooks]);
  }
  return after;
}

/** The key under `hooks` that spells `event` (`Stop:`, `pre-tool-use:`…), if any. */
function eventKey(doc: Document, event: string): string | null {
  const hooks = doc.get("hooks");
  if (!isMap(hooks)) return null;
  const custom = Object.keys((doc.toJS() as ConfigFileSpec | null)?.events ?? {});
  for (const pair of hooks.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : null;
    if (k !== null && (tryParseHookEvent(k, custom) ?? k) === event) return k;
  }
  return null;
}

/** Text-level append; null when the file's layout is not plain block style. */
function editYamlText(text: string, imp: HookImport): string | null {
  let out = text;
  const spec = importToSpec(imp);
  for (const [name, settings] of Object.entries(spec.events ?? {})) {
    const doc = parseDocument(out);
    if (doc.hasIn(["events", name])) continue;
    const r = appendPair(out, doc, "events", name, settings);
    if (r === null) return null;
    out = r;
  }
  for (const [event, hooks] of Object.entries(spec.hooks ?? {})) {
    const doc = parseDocument(out);
    const key = eventKey(doc, event);
    const seq = key === null ? null : doc.getIn(["hooks", key], true);
    let r: string | null;
    if (isSeq(seq) && !seq.flow && seq.items.length > 0) r = appendItems(out, seq, hooks);
    else if (key === null) r = appendPair(out, doc, "hooks", event, hooks);
    else return null;
    if (r === null) return null;
    out = r;
  }
  return out;
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;
// The start of the line after the node ending at `at`, ignoring the blank lines a node's range may include.
const afterLine = (text: string, at: number) => {
  while (at > 0 && /\s/.test(text[at - 1])) at--;
  const nl = text.indexOf("\n", at);
  return nl === -1 ? text.length : nl + 1;
};
const indent = (block: string, by: number) =>
  block
    .split("\n")
    .map((l) => (l ? " ".repeat(by) + l : l))
    .join("\n");
const insert = (text: string, at: number, block: string) => {
  const head = text.slice(0, at);
  return (head && !head.endsWith("\n") ? `${head}\n` : head) + block + text.slice(at);
};

/** Append items to a block sequence, at its dash column, after its last item's line. */
function appendItems(text: string, seq: YAMLSeq, items: HookSpec[]): string | null {
  const first = seq.items[0] as { range?: [number, number, number] };
  const last = seq.items[seq.items.length - 1] as { range?: [number, number, number] };
  if (!first.range || !last.range) return null;
  const dash = text.lastIndexOf("-", first.range[0]);
  if (dash < 0) return null;
  const col = dash - lineStart(text, dash);
  return insert(text, afterLine(text, last.range[1]), indent(stringify(items, { lineWidth: 0 }), col));
}

/** Add `key: value` to the block map at top-level `parent` (created at the end of the file if absent). */
function appendPair(text: string, doc: Document, parent: string, key: string, value: unknown): string | null {
  if (!isMap(doc.contents) || doc.contents.flow) return null;
  const map = doc.get(parent, true);
  if (map === undefined || (isScalar(map) && map.value === null)) {
    if (map !== undefined) return null;
    return insert(text, text.length, stringify({ [parent]: { [key]: value } }, { lineWidth: 0 }));
  }
  if (!isMap(map) || map.flow || map.items.length === 0) return null;
  const firstKey = map.items[0].key as { range?: [number, number, number] };
  const lastValue = map.items[map.items.length - 1].value as { range?: [number, number, number] } | null;
  if (!firstKey.range || !lastValue?.range) return null;
  const col = firstKey.range[0] - lineStart(text, firstKey.range[0]);
  // Follow the file's sequence style: `key:\n- item` (dash under the key) or `key:\n  - item`.
  const indentSeq = !/^( *)[^\s#-][^\n]*:[ \t]*(#[^\n]*)?\n\1- /m.test(text);
  return insert(text, afterLine(text, lastValue.range[1]), indent(stringify({ [key]: value }, { lineWidth: 0, indentSeq }), col));
}
