/** Edit distance (Damerau-lite: insert, delete, substitute, adjacent swap). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => [i, ...new Array<number>(n).fill(0)]);
  for (let j = 0; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[m][n];
}

/**
 * The candidates closest to `input`, best first: within a distance that grows with the word's
 * length, or sharing a prefix/substring, so "stpo" finds "stop" and "tool_pre" finds
 * "pre_tool_use"-like names without suggesting noise.
 */
export function closestMatches(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.toLowerCase();
  const scored: { c: string; score: number }[] = [];
  for (const c of new Set(candidates)) {
    const hay = c.toLowerCase();
    const dist = editDistance(needle, hay);
    const limit = Math.max(2, Math.floor(Math.max(needle.length, hay.length) / 3));
    let score = dist;
    if (dist > limit) {
      if (needle.length >= 3 && (hay.includes(needle) || needle.includes(hay))) score = limit + 0.5;
      else continue;
    }
    scored.push({ c, score });
  }
  scored.sort((x, y) => x.score - y.score || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** " (did you mean `x`?)" or "" — appended to error sentences. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const best = closestMatches(input, candidates, 3);
  if (best.length === 0) return "";
  return ` (did you mean ${best.map((b) => `\`${b}\``).join(" or ")}?)`;
}
