import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// No function in src/ longer than about a screen: a longer one is a concern without a home yet
// (docs/architecture.md says where each concern lives). Every function, method, accessor,
// constructor and arrow is measured from its first line to its last; generated files are left out.
const ROOT = path.resolve(import.meta.dirname, "..");
const SRC = path.join(ROOT, "src");
const MAX_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith(".ts") && !p.endsWith(".generated.ts") ? [p] : [];
  });
}

interface LongFunction {
  /** "src/x.ts:LINE" */
  at: string;
  /** "src/x.ts name", the allowlist's key */
  key: string;
  lines: number;
}

/** A function's name as a reader looks it up: its own, else the variable, property or class member it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (node.name) return node.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(sf);
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  return "(anonymous)";
}

/** Every function-like node of `text` longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line + 1;
      const last = sf.getLineAndCharacterOfPosition(fn.getEnd()).line + 1;
      const lines = last - first + 1;
      if (lines > max) out.push({ at: `${file}:${first}`, key: `${file} ${nameOf(fn, sf)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("function length in src/", () => {
  const long = sourceFiles(SRC).flatMap((f) => longFunctions(path.relative(ROOT, f).split(path.sep).join("/"), readFileSync(f, "utf8")));

  it(`has no function over ${MAX_LINES} lines `, () => {
    expect(long.map((f) => `${f.at} ${f.key.split(" ")[1]}: ${f.lines} lines`)).toEqual([]);
  });

  it("measures functions, methods and arrows, names included (the check can fail)", () => {
    const body = Array.from({ length: 81 }, (_, i) => `  x += ${i};`).join("\n");
    const text = `function f() {\n${body}\n}\nclass C {\n  m() {\n${body}\n  }\n}\nconst g = () => {\n${body}\n};\nconst ok = () => 1;\n`;
    expect(longFunctions("src/a.ts", text).map((f) => [f.at, f.key, f.lines])).toEqual([
      ["src/a.ts:1", "src/a.ts f", 83],
      ["src/a.ts:85", "src/a.ts m", 83],
      ["src/a.ts:169", "src/a.ts g", 83],
    ]);
  });
});
