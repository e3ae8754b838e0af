import type { Document, Node as YamlNode, Pair } from "yaml";
import type { Diagnostic } from "../errors.js";
import { checkYamlDocument, flowTooDeep, CONFIG_LIMITS, TOO_DEEP } from "./limits.js";
import { scanJson } from "./scanJson.js";
import { parseYamlFast } from "./parseYamlFast.js";
import { locateInTree, type ConfigPath, type ParsedConfigText, type Position, type SourceNode } from "./positions.js";

type YamlModule = typeof import("yaml");

const START: Position = { line: 1, col: 1 };

/**
 * Parse YAML 1.2 or (by extension) strict JSON, keeping positions for every diagnostic. The
 * common plain YAML goes through parseYamlFast; the `yaml` package is loaded only for the rest.
 */
export async function parseConfigText(file: string, source: string): Promise<ParsedConfigText> {
  // A UTF-8 BOM (some Windows editors write one) is not content: positions count from after it.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const isJson = file.endsWith(".json");
  const diagnostics: Diagnostic[] = [];
  const error = (pos: Position, message: string) => diagnostics.push({ file, ...pos, severity: "error", message });
  const noLocate = () => START;
  if (text.trim() === "" || (!isJson && isOnlyComments(text))) {
    error(START, "the file is empty: add a `hooks:` map with at least one event (`hooks init` writes a starter), or delete the file");
    return { file, value: undefined, diagnostics, locate: noLocate };
  }
  if (isJson) return parseJson(file, text);
  // Positions are wanted only for a diagnostic or a hook's source line: parse without them, and
  // once more with them on the first locate() (a valid 1,000-hook file never asks; docs/performance.md).
  const fast = parseYamlFast(text, false);
  if (fast) {
    let tree: SourceNode | undefined;
    return { file, value: fast.value, diagnostics, locate: (p, target) => locateInTree((tree ??= parseYamlFast(text)!.tree), p, target) };
  }
  // The CLI bundle sees yaml's CommonJS build, whose exports sit under `default`.
  const loaded = (await import("yaml")) as YamlModule & { default?: YamlModule };
  const yaml: YamlModule = loaded.LineCounter ? loaded : loaded.default!;
  const lineCounter = new yaml.LineCounter();
  const tooDeep = flowTooDeep(yaml, text);
  if (tooDeep !== null) {
    error(positionAt(text, tooDeep), TOO_DEEP);
    return { file, value: undefined, diagnostics, locate: noLocate };
  }
  let doc: Document;
  try {
    doc = yaml.parseDocument(text, { lineCounter, merge: true, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    // yaml's parser recurses once per block level it closes: some 1,500 levels exhaust the stack.
    if (!(e instanceof RangeError)) throw e;
    error(deepBlockLine(text), TOO_DEEP);
    return { file, value: undefined, diagnostics, locate: noLocate };
  }
  // yaml's composer catches its own stack overflow into doc.errors: the same too-deep sentence.
  if (doc.errors.some((e) => /call stack/i.test(e.message))) {
    error(deepBlockLine(text), TOO_DEEP);
    return { file, value: undefined, diagnostics, locate: noLocate };
  }
  const at = (offset: number): Position => lineCounter.linePos(offset);
  for (const e of doc.errors) error(at(e.pos[0]), yamlErrorMessage(e.code, e.message, keyAt(text, e.pos[0])));
  const locate = makeLocator(yaml, doc, at);
  // Only duplicate keys leave a trustworthy document behind; after other syntax errors, stop.
  if (doc.errors.some((e) => e.code !== "DUPLICATE_KEY")) return { file, value: undefined, diagnostics, locate };
  // Aliases and depth are checked first, with positions; then toJS cannot throw or blow up, and
  // its own alias counter (a cruder bound that trips on 1,001 uses of one scalar) is not needed.
  const problem = checkYamlDocument(yaml, doc);
  if (problem) {
    error(at(problem.offset), problem.message);
    return { file, value: undefined, diagnostics, locate };
  }
  return topLevelMap({ file, value: doc.toJS({ maxAliasCount: -1 }), diagnostics, locate });
}

// JSON never needs the yaml package: JSON.parse for the data, scanJson for positions and errors.
function parseJson(file: string, text: string): ParsedConfigText {
  const scan = scanJson(text);
  if (!scan.ok) {
    const diagnostics: Diagnostic[] = [{ file, ...positionAt(text, scan.pos), severity: "error", message: `invalid JSON: ${scan.message}` }];
    return { file, value: undefined, diagnostics, locate: () => START };
  }
  const locate = (p: ConfigPath, target?: "key" | "value") => locateInTree(scan.tree, p, target);
  const diagnostics: Diagnostic[] = scan.duplicates.map((d) => ({
    file,
    ...positionAt(text, d.pos),
    severity: "error" as const,
    message: `duplicate key \`${JSON.stringify(d.key)}\`: a key may appear only once in a map; merge the two entries into one`,
  }));
  return topLevelMap({ file, value: JSON.parse(text), diagnostics, locate });
}

function topLevelMap(parsed: ParsedConfigText): ParsedConfigText {
  const value = parsed.value;
  if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value))) {
    const found = value === null ? "nothing" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    parsed.diagnostics.push({
      file: parsed.file,
      ...parsed.locate([]),
      severity: "error",
      message: `the top level must be a map with a \`hooks:\` key, but it is ${found}: write \`hooks:\` followed by events and their hooks`,
    });
    return { ...parsed, value: undefined };
  }
  return parsed;
}

/**
 * Where block nesting first passes the depth limit, from indentation and `- ` / `key:` starts of
 * lines (an estimate, not a parse): a position for when yaml ran out of stack.
 */
function deepBlockLine(text: string): Position {
  const stack: { indent: number; seq: boolean }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let rest = lines[i].trimStart();
    if (rest === "" || rest.startsWith("#")) continue;
    let col = lines[i].length - rest.length;
    const opened: { indent: number; seq: boolean }[] = [];
    for (let m = /^-( +|$)/.exec(rest); m; m = /^-( +|$)/.exec(rest)) {
      opened.push({ indent: col, seq: true });
      col += m[0].length;
      rest = rest.slice(m[0].length);
    }
    if (/^[^#\s][^#]*?:( |$)/.test(rest)) opened.push({ indent: col, seq: false });
    if (opened.length === 0) continue;
    const first = opened[0];
    while (stack.length && stack[stack.length - 1].indent > first.indent) stack.pop();
    let top = stack[stack.length - 1];
    // A list may sit at its parent key's indentation; a key there closes that list.
    if (top && top.indent === first.indent && top.seq && !first.seq) stack.pop(), (top = stack[stack.length - 1]);
    if (top && top.indent === first.indent && top.seq === first.seq) opened.shift();
    for (const o of opened) {
      stack.push(o);
      if (stack.length > CONFIG_LIMITS.depth) return { line: i + 1, col: o.indent + 1 };
    }
  }
  return START;
}

// Line by line up to the first content line: a config's first lines decide, and splitting a
// large file into lines only to look at two of them made garbage for the collector.
function isOnlyComments(text: string): boolean {
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
    if (!/^\s*(#.*)?$/.test(line) && !/^\s*(---|\.\.\.)\s*$/.test(line)) return false;
    start = end + 1;
  }
  return true;
}

/** 1-based line and column of a character offset. */
function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: Math.min(offset, text.length) - lineStart + 1 };
}

function keyAt(text: string, offset: number): string {
  return /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:\s,{}[\]]+)/.exec(text.slice(offset, offset + 200))?.[1] ?? "";
}

function yamlErrorMessage(code: string, message: string, source: string): string {
  switch (code) {
    case "TAB_AS_INDENT":
      return "tab used for indentation: YAML allows only spaces; replace the tabs at the start of this line with spaces";
    case "DUPLICATE_KEY":
      return `duplicate key${source ? ` \`${source.trim()}\`` : ""}: a key may appear only once in a map; merge the two entries into one`;
    case "BAD_INDENT":
    case "MISSING_CHAR":
    case "UNEXPECTED_TOKEN":
      return `invalid YAML: ${lowerFirst(message)}; check the indentation of this line against the lines above`;
    case "MULTIPLE_DOCS":
      return "the file holds several YAML documents (`---`): keep one";
    default:
      return `invalid YAML: ${lowerFirst(message)}`;
  }
}

function lowerFirst(s: string): string {
  return s ? s[0].toLowerCase() + s.slice(1).replace(/\.$/, "") : s;
}

// Walks the document lazily, so a valid file pays only for the hooks it reports.
function makeLocator(yaml: YamlModule, doc: Document, at: (offset: number) => Position) {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml;
  const start = (node: YamlNode | Pair | null | undefined): Position | null => {
    const n = isPair(node) ? node.key : node;
    const range = (n as YamlNode | null | undefined)?.range;
    return range ? at(range[0]) : null;
  };
  const deref = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  const findPair = (map: unknown, key: string, depth = 0): Pair | null => {
    if (!isMap(map) || depth > 20) return null;
    let merged: Pair | null = null;
    for (const item of map.items) {
      const k = isScalar(item.key) ? String(item.key.value) : String(item.key);
      if (k === key) return item;
      if (k === "<<" && !merged) {
        const source = deref(item.value);
        const sources = isSeq(source) ? source.items.map(deref) : [source];
        if (sources.some((s) => findPair(s, key, depth + 1))) merged = item;
      }
    }
    return merged;
  };
  return (path: ConfigPath, target: "key" | "value" = "value"): Position => {
    let node: unknown = doc.contents;
    let best: Position = start(doc.contents as YamlNode) ?? START;
    for (let i = 0; i < path.length; i++) {
      node = deref(node);
      const seg = path[i];
      let next: unknown;
      if (typeof seg === "number" && isSeq(node)) next = node.items[seg];
      else if (isMap(node)) {
        const pair = findPair(node, String(seg));
        if (pair && i === path.length - 1 && target === "key") return start(pair) ?? best;
        // A value merged in through `<<: *anchor` is reported at the `<<` key.
        if (pair && isScalar(pair.key) && pair.key.value === "<<" && seg !== "<<") return start(pair) ?? best;
        if (pair) {
          next = pair.value ?? pair;
          if (!pair.value) return start(pair) ?? best;
        }
      }
      if (next === undefined || next === null) return best;
      best = start(next as YamlNode) ?? best;
      node = next;
    }
    return best;
  };
}
