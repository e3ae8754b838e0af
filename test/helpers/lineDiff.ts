/** Lines keeping their endings, so CRLF and a missing final newline count as differences. */
export function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

/** The lines removed from `a` and added in `b` between their common prefix and suffix. */
export function lineDiff(a: string, b: string): { removed: string[]; added: string[] } {
  const x = splitLines(a);
  const y = splitLines(b);
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  return { removed: x.slice(p, x.length - s), added: y.slice(p, y.length - s) };
}
