import { ContextError, UnknownHookError } from "../errors.js";
import { closestMatches } from "../text/didYouMean.js";
import { describeJsonError } from "../text/jsonErrorPosition.js";
import type { HookContext } from "./types.js";

// What every door (library, CLI, server) checks of a trigger's input before anything runs, so a
// caller gets the same sentence whichever door it used.

/**
 * A context is one JSON object; anything else is a ContextError (CLI exit 65, server 400).
 * `where` finishes "the context …": "from stdin", "in the request body", "of `stop`".
 */
export function checkContext(value: unknown, where: string): asserts value is HookContext {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return;
  const kind = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  throw new ContextError(`the context ${where} is ${kind}, not a JSON object; pass one JSON object`);
}

/** A context document: empty (or only whitespace) is `{}`; otherwise one JSON object. */
export function parseContext(text: string, where: string): HookContext {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ContextError(`the context ${where} is not valid JSON (${describeJsonError(text, error)}); pass one JSON object`, { cause: error });
  }
  checkContext(value, where);
  return value;
}

/**
 * Every name given to --only / --skip (`?only=` / `?skip=`) must be a hook of the config: a typo
 * would otherwise run nothing, silently. `label` names the option as the caller wrote it.
 */
export function checkHookNames(label: string, names: readonly string[] | undefined, known: readonly string[]): void {
  const unknown = (names ?? []).filter((n) => !known.includes(n));
  if (unknown.length === 0) return;
  const hint = closestMatches(unknown[0], [...known], 1)[0];
  throw new UnknownHookError(`${label}: no hook named ${unknown.join(", ")}${hint ? `; did you mean ${hint}?` : "; run `hooks list` to see them"}`, unknown);
}
