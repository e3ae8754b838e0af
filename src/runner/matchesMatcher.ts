const EXACT_LIST = /^[A-Za-z0-9_\- ,|]*$/;
const MATCH_ALL = (): boolean => true;
const cache = new Map<string, (value: string) => boolean>();

// Claude Code's three-way rule (SPEC §2.4): match-all, an exact list of names, or a regex.
function compile(matcher: string): (value: string) => boolean {
  const m = matcher.trim();
  if (m === "" || m === "*") return MATCH_ALL;
  if (EXACT_LIST.test(m)) {
    const names = new Set(m.split(/[|,]/).map((s) => s.trim()).filter(Boolean));
    return (value) => names.has(value);
  }
  let re: RegExp;
  try {
    re = new RegExp(m);
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
