import { isMap, isScalar, isSeq, type Node, type Pair } from "yaml";
import { ConfigError, WriteError } from "../errors.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import { configFormat } from "./configFormat.js";
import { findHookNode } from "./findHookNode.js";
import { detectEol, lineStart } from "./lineTools.js";
import { parseDocumentForEdit } from "./parseDocumentForEdit.js";
import { setEnabledInText } from "./setEnabledInText.js";

/** A new local file: just the override, with a comment saying what the file is for. */
export function newLocalFileText(name: string, event: string, enabled: boolean): string {
  return [
    "# Personal overrides of hooks.yaml (keep this file out of git).",
    "hooks:",
    `  ${event}:`,
    `    - name: ${name}`,
    `      enabled: ${enabled}`,
    "",
  ].join("\n");
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
  const eventPair = hooks?.items.find((p) => isScalar(p.key) && typeof p.key.value === "string" && tryParseHookEvent(p.key.value) === event || (isScalar(p.key) && p.key.value === event)) as
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
