import type { Document, Node as YamlNode, Pair } from "yaml";

/** Limits on what one config file may hold; the README's "Limits" table names each. */
export const CONFIG_LIMITS = {
  /**
   * Collections nested in one another (the top-level map is level 1). Real configs use about 6;
   * the cap keeps every reader, and everything that walks the loaded value, far from the stack's end.
   */
  depth: 200,
  /**
   * Values that aliases (`*name`, `<<: *name`) add when expanded. Sharing a `defaults` map across
   * a thousand hooks adds a few thousand; an alias bomb ("billion laughs") adds billions.
   */
  aliasExpansion: 100_000,
} as const;

/** The one sentence a too-deep file gets, whichever reader finds it. */
export const TOO_DEEP = `nested more than ${CONFIG_LIMITS.depth} levels deep: a config never needs that many; flatten this value`;

type YamlModule = typeof import("yaml");

/** A problem at a character offset of the text. */
export interface YamlProblem {
  offset: number;
  message: string;
}

interface Measure {
  /** Values the node stands for once every alias in it is expanded. */
  size: number;
  /** Collections nested in it, itself included (a scalar: 0). */
  depth: number;
}

/**
 * What the `yaml` package would only find while converting to data, and then throw without a
 * position (or not find at all): an alias without an anchor before it, an alias inside the node
 * it names (a cycle, including a map merging itself), a `<<` whose value is not a map, nesting
 * past CONFIG_LIMITS.depth (aliases included) and alias expansion past CONFIG_LIMITS.aliasExpansion.
 * The first problem in document order, with its offset; null when toJS is safe to call.
 */
export function checkYamlDocument(yaml: YamlModule, doc: Document): YamlProblem | null {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml;
  // Anchors are resolved as yaml does: the last node with that anchor before the alias, where a
  // collection comes before its items (so `&a [*a]` names its own list).
  const anchors = new Map<string, YamlNode>();
  const done = new Map<YamlNode, Measure>();
  const open = new Set<YamlNode>();
  let expanded = 0;
  const fail = (node: { range?: [number, number, number] | null } | null | undefined, message: string): never => {
    throw new Problem(node?.range?.[0] ?? 0, message);
  };

  // Recursion is safe: a collection deeper than CONFIG_LIMITS.depth stops the walk.
  const measure = (node: unknown, level: number): Measure => {
    if (node === null || node === undefined) return { size: 1, depth: 0 };
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) fail(node, `unknown alias \`*${node.source}\`: no anchor \`&${node.source}\` comes before it; define the anchor above this line or fix the name`);
      if (open.has(target!)) fail(node, `alias \`*${node.source}\` sits inside the value it names, so that value would contain itself: point it at another anchor`);
      const m = done.get(target!)!;
      expanded += m.size;
      if (expanded > CONFIG_LIMITS.aliasExpansion) {
        fail(node, `aliases expand to more than ${CONFIG_LIMITS.aliasExpansion.toLocaleString("en-US")} values by this one (an alias bomb?): write the values out, or alias less`);
      }
      if (level + m.depth > CONFIG_LIMITS.depth) fail(node, `this alias makes the value ${TOO_DEEP}`);
      return m;
    }
    const n = node as YamlNode;
    if (n.anchor) anchors.set(n.anchor, n);
    if (!isMap(n) && !isSeq(n)) return remember(n, { size: 1, depth: 0 });
    if (level + 1 > CONFIG_LIMITS.depth) fail(n, TOO_DEEP);
    open.add(n);
    let size = 1;
    let depth = 0;
    for (const item of n.items as unknown[]) {
      const parts = isPair(item) ? [(item as Pair).key, (item as Pair).value] : [item];
      for (const part of parts) {
        const m = measure(part, level + 1);
        size += m.size;
        depth = Math.max(depth, m.depth);
      }
      if (isPair(item) && isMergeKey(item.key)) checkMergeSource(item);
    }
    open.delete(n);
    return remember(n, { size, depth: depth + 1 });
  };
  const remember = (node: YamlNode, m: Measure): Measure => {
    if (node.anchor) done.set(node, m);
    return m;
  };
  // yaml's own rule (merge.js): `<<` takes a map, an alias of a map, or a list of those.
  const checkMergeSource = (pair: Pair): void => {
    const value = pair.value as YamlNode | null;
    const sources = isSeq(value) ? (value.items as unknown[]) : [value];
    for (const source of sources) {
      const resolved = isAlias(source) ? anchors.get(source.source) : source;
      if (!isMap(resolved)) {
        const shown = resolved === null || resolved === undefined ? "empty" : isSeq(resolved) ? "a list" : isScalar(resolved) ? `\`${String(resolved.source ?? resolved.value)}\`` : "not a map";
        fail((source as YamlNode | null) ?? (pair.key as YamlNode), `\`<<\` merges maps into this one, but this value is ${shown}: write \`<<: *name\` naming a map anchor (or a list of them)`);
      }
    }
  };
  const isMergeKey = (key: unknown): boolean => isScalar(key) && typeof key.value === "symbol" && key.value.description === "<<";

  try {
    measure(doc.contents, 0);
    return null;
  } catch (e) {
    if (e instanceof Problem) return { offset: e.offset, message: e.message };
    throw e;
  }
}

class Problem {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/**
 * Offset of the bracket that opens flow level CONFIG_LIMITS.depth + 1, or null. yaml's composer
 * recurses once per flow level and runs out of stack some 800 levels down, so this runs first,
 * on the lexer's flat token stream (which knows quotes and comments), when brackets are many.
 */
export function flowTooDeep(yaml: YamlModule, text: string): number | null {
  let brackets = 0;
  for (let i = text.indexOf("["); i >= 0 && brackets <= CONFIG_LIMITS.depth; i = text.indexOf("[", i + 1)) brackets++;
  for (let i = text.indexOf("{"); i >= 0 && brackets <= CONFIG_LIMITS.depth; i = text.indexOf("{", i + 1)) brackets++;
  if (brackets <= CONFIG_LIMITS.depth) return null;
  let offset = 0;
  let depth = 0;
  for (const token of new yaml.Lexer().lex(text)) {
    // Control tokens mark lexer modes and stand for no source text.
    if (token === "\x02" || token === "\x18" || token === "\x1f") continue;
    if (token === "[" || token === "{") {
      if (++depth > CONFIG_LIMITS.depth) return offset;
    } else if (token === "]" || token === "}") depth = Math.max(0, depth - 1);
    offset += token.length;
  }
  return null;
}

/**
 * Offset of the bracket that opens level CONFIG_LIMITS.depth + 1 of a JSON(C) or TOML text, or
 * null: a host's settings file is checked with this before its parser (jsonc-parser and smol-toml
 * recurse once per level, and a 10 KB file of 5,000 levels ran them out of stack). Strings and
 * comments are skipped (`"…"` with escapes; TOML's `'…'` and `#`; JSONC's `//` and `/* … *\/`).
 * In TOML a dotted key (`a.b.c = 1`, `[a.b.c]`) nests a table per dot: each dot of a line counts
 * too. One pass, no recursion.
 */
export function nestingTooDeepAt(text: string, syntax: "json" | "toml"): number | null {
  let depth = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (syntax === "toml") {
      if (c === "\n") dots = 0;
      else if (c === "." && depth + ++dots > CONFIG_LIMITS.depth) return i;
    }
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "'" && syntax === "toml") {
      const end = text.indexOf("'", i + 1);
      i = end === -1 ? text.length : end;
    } else if ((c === "#" && syntax === "toml") || (c === "/" && text[i + 1] === "/" && syntax === "json")) {
      // up to the line's end: the newline itself is read next (it ends a TOML line's dotted key)
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end - 1;
    } else if (c === "/" && text[i + 1] === "*" && syntax === "json") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === "[" || c === "{") {
      if (++depth > CONFIG_LIMITS.depth) return i;
    } else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
  }
  return null;
}
