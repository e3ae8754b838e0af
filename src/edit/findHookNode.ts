import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from "yaml";
import { WriteError } from "../errors.js";

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
