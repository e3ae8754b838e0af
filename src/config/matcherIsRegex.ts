/**
 * SPEC §2.4 (Claude Code's rule): "", "*" and values made only of letters, digits, `_`, `-`,
 * spaces, `,` and `|` are exact name lists; anything else is an unanchored JavaScript regex.
 */
export function matcherIsRegex(matcher: string): boolean {
  return matcher !== "*" && !/^[A-Za-z0-9_\- ,|]*$/.test(matcher);
}
