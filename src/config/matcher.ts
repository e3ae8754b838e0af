const EXACT_LIST = /^[A-Za-z0-9_\- ,|]*$/;

/** What a `matcher` value means: match everything, an exact list of names, or a regex. */
export type MatcherRule = { kind: "all" } | { kind: "names"; names: ReadonlySet<string> } | { kind: "regex"; source: string };

/**
 * docs/configuration.md#matchers-and-paths (Claude Code's rule), the one implementation the loader and the runner share: the
 * value is trimmed; "" and "*" match everything; a value made only of letters, digits, `_`, `-`,
 * spaces, `,` and `|` is an exact list of names (split on `|` and `,`, each trimmed); anything
 * else is an unanchored JavaScript regex.
 */
export function matcherRule(matcher: string): MatcherRule {
  const m = matcher.trim();
  if (m === "" || m === "*") return { kind: "all" };
  if (EXACT_LIST.test(m))
    return {
      kind: "names",
      names: new Set(
        m
          .split(/[|,]/)
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    };
  return { kind: "regex", source: m };
}

/** Whether `matcher` is read as a regex (else it matches everything or a list of names). */
export function matcherIsRegex(matcher: string): boolean {
  return matcherRule(matcher).kind === "regex";
}

const MATCH_ALL = (): boolean => true;
const cache = new Map<string, (value: string) => boolean>();

function compile(matcher: string): (value: string) => boolean {
  const rule = matcherRule(matcher);
  if (rule.kind === "all") return MATCH_ALL;
  if (rule.kind === "names") return (value) => rule.names.has(value);
  let re: RegExp;
  try {
    re = new RegExp(rule.source);
  } catch {
    // The loader rejects invalid regexes; a runner given one anyway matches nothing.
    return () => false;
  }
  return (value) => re.test(value);
}

/** Whether `matcher` accepts the event's match-field value (undefined matcher = everything). */
export function matchesMatcher(matcher: string | undefined, value: unknown): boolean {
  if (matcher === undefined) return true;
  let test = cache.get(matcher);
  if (!test) {
    test = compile(matcher);
    cache.set(matcher, test);
  }
  // A context without the match field passes only a match-all matcher.
  if (value === undefined || value === null) return test === MATCH_ALL;
  return test(String(value));
}
