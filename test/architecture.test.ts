import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The shape of src/ that STYLE.md asks for, checked on every run: no import cycles (type-only
// and lazy `import()` included), and imports that only point down the layers.
const ROOT = path.resolve(import.meta.dirname, "..");
const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/**
 * What loading `file` runs: the src files it reaches through imports that stay in the built code
 * (not `import type`, not a lazy `import()`), and the packages those files import.
 */
function loadedBy(file: string, read: (file: string) => string | undefined): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string): void => {
    if (files.has(f)) return;
    const text = read(f);
    if (text === undefined) return;
    files.add(f);
    for (const m of text.matchAll(/^(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+"([^"]+)"|^import\s+"([^"]+)"/gms)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith(".")) packages.add(spec);
      else visit(path.posix.normalize(path.posix.join(path.posix.dirname(f), spec.replace(/\.js$/, ".ts"))));
    }
  };
  visit(file);
  return { files, packages };
}

/**
 * What a host's runtime part, or the `hooks run` action, must not load (docs/architecture.md): a
 * host's whole adapter, every adapter, install, import and doctor code, the YAML, TOML and JSONC
 * libraries. Empty: nothing of that.
 */
function loadsBeyondRuntime(loaded: { files: Set<string>; packages: Set<string> }, hostModules: readonly string[], runtimeAllowed: boolean): string[] {
  const setupCode =
    /^(?:hosts\/(?:adapters|install\w*|setup|dispatch|hostFile|tomlFile|hostScripts|inProcessFile|piExtension|flatImport|sequentialImport|\w+Setup|\w+Import|warm\w*|mcpRegistration)\.ts|interop\/(?!lastMessageFromTranscript)|prove\/|edit\/)/;
  return [
    ...[...loaded.files].filter((f) => setupCode.test(f) || hostModules.includes(f) || (!runtimeAllowed && /^hosts\/\w+Run\.ts$/.test(f))),
    ...[...loaded.packages].filter((p) => p === "yaml" || p === "smol-toml" || p === "jsonc-parser"),
  ].sort();
}

/** Every src file (relative, e.g. "config/units.ts") and the src files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const specs = [...[...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/gms)].map((m) => m[1]), ...[...text.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g)].map((m) => m[1])];
    const rel = (p: string): string => path.relative(SRC, p).split(path.sep).join("/");
    graph.set(rel(file), [...new Set(specs.map((s) => rel(path.resolve(path.dirname(file), s.replace(/\.js$/, ".ts")))))]);
  }
  return graph;
}

/** The cycles of the graph (its strongly connected components of more than one file), each as a path. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * STYLE.md's layers, top to bottom: doors → edge (hosts, reports, editing, watching) → engine →
 * config and events → base. A file may import its own layer or any layer below it.
 */
const LAYERS: string[][] = [
  ["index.ts", "bin", "cli", "server"],
  ["watch", "edit", "interop", "report", "hosts", "prove"],
  ["runner", "async", "dialects"],
  ["config", "events", "trust"],
  ["fs", "text.ts", "env.ts", "errors.ts", "version.ts"],
];

/**
 * Cycles tolerated for now, each by the folders all of its files must lie in, with why. Empty
 * is the goal: delete an entry as soon as its cycle is gone.
 */
const PENDING_CYCLES: { within: string[]; reason: string }[] = [];
const pending = (cycle: string[]): boolean => PENDING_CYCLES.some((p) => cycle.every((f) => p.within.some((dir) => f.startsWith(dir))));

/** Imports that point up, each with why it is allowed. Keep this list short and explained. */
const ALLOWED_UPWARD: Record<string, string> = {};

const layerOf = (file: string): number => {
  const top = file.split("/")[0];
  const i = LAYERS.findIndex((names) => names.includes(top));
  if (i === -1) throw new Error(`src/${file}: its folder is in no layer; add it to LAYERS in test/architecture.test.ts`);
  return i;
};

describe("architecture of src/ (STYLE.md)", () => {
  const graph = importGraph();

  it("every relative import names a file that exists", () => {
    const missing = [...graph].flatMap(([from, deps]) => deps.filter((d) => !graph.has(d)).map((d) => `${from} → ${d}`));
    expect(missing).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(
      cycles(graph)
        .filter((c) => !pending(c))
        .map((c) => c.join(" ↔ ")),
    ).toEqual([]);
  });

  it("imports point down the layers: doors → edge → runner/async → config/events/trust → fs/text/env/errors", () => {
    const upward: string[] = [];
    for (const [from, deps] of graph) {
      for (const to of deps) {
        if (graph.has(to) && layerOf(to) < layerOf(from) && !ALLOWED_UPWARD[`${from} → ${to}`]) upward.push(`${from} → ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // One path from an agent's event to its answer (docs/architecture.md): the doors hand every
  // event to runHostEvent and none repeats a step of it. A step is a call of an adapter's
  // read, render, notRun or route, or a trigger of the runner.
  it("the doors reach host dispatch only through runHostEvent", () => {
    const steps = /\.(read|render|notRun|route|trigger)\(/g;
    const repeated: string[] = [];
    for (const file of graph.keys()) {
      if (file === "hosts/runHostEvent.ts") continue;
      const text = readFileSync(path.join(SRC, file), "utf8");
      for (const m of text.matchAll(steps)) repeated.push(`${file}: .${m[1]}(`);
    }
    expect(repeated).toEqual([]);
    // The doors that fire events call it: hooks run and hooks test (run.ts), hooks serve (handleRequest.ts), the library (index.ts).
    for (const door of ["cli/actions/run.ts", "server/handleRequest.ts", "index.ts"]) expect(graph.get(door), door).toContain("hosts/runHostEvent.ts");
    expect(graph.get("cli/actions/test.ts")).toContain("cli/actions/run.ts");
    expect(readFileSync(path.join(SRC, "cli/actions/test.ts"), "utf8")).toMatch(/\bdispatchEvent\(/);
  });

  // A cold `hooks run --host HOST` loads and runs HOST's runtime part alone (docs/architecture.md):
  // the run action reaches host code through the host table's lazy loaders, and no runtime part
  // loads install, import or doctor code, another host's whole adapter, or YAML/TOML/JSONC.
  it("hooks run loads no host module but through the table, and a host's runtime part no setup code", () => {
    const read = (f: string): string | undefined => (graph.has(f) ? readFileSync(path.join(SRC, f), "utf8") : undefined);
    const runtimes = [...graph.keys()].filter((f) => /^hosts\/\w+Run\.ts$/.test(f));
    const adapters = runtimes.map((f) => f.replace(/Run\.ts$/, ".ts")).filter((f) => graph.has(f));
    expect(runtimes.length).toBeGreaterThanOrEqual(18);
    expect(loadsBeyondRuntime(loadedBy("cli/actions/run.ts", read), adapters, false)).toEqual([]);
    for (const f of runtimes) expect(loadsBeyondRuntime(loadedBy(f, read), adapters, true), f).toEqual([]);
  });

  it("finds a runtime part that loads setup code when there is one (the check can fail)", () => {
    const files: Record<string, string> = {
      "hosts/aRun.ts": 'import { b } from "./bRun.js";\nimport type { X } from "./install.js";',
      "hosts/bRun.ts": 'import { parse } from "yaml";\nimport { jsonFile } from "./setup.js";\nexport { c } from "./c.js";',
      "hosts/c.ts": "",
      "hosts/setup.ts": "",
    };
    const loaded = loadedBy("hosts/aRun.ts", (f) => files[f]);
    expect(loadsBeyondRuntime(loaded, ["hosts/c.ts"], true)).toEqual(["hosts/c.ts", "hosts/setup.ts", "yaml"]);
    expect(loadsBeyondRuntime(loaded, ["hosts/c.ts"], false)).toEqual(["hosts/aRun.ts", "hosts/bRun.ts", "hosts/c.ts", "hosts/setup.ts", "yaml"]);
  });

  // A host's setup is one interface (src/hosts/setup.ts builds the three kinds): callers never ask
  // which kind it is, by its old shapes (`.install`, `.scripts`, a TOML format flag) or by its
  // kind, except the doctor's one table of parsers (prove/doctor.ts).
  const SHAPE = /\b(?:host|h|adapter|setup)[!?]?\.(install|scripts|format|kind)\b|format\s*===\s*"toml"|\bisToml\b/g;
  const shapeBranches = (files: Iterable<string>, read: (file: string) => string): string[] => {
    const out: string[] = [];
    for (const file of files) {
      if (file === "hosts/setup.ts" || file === "prove/doctor.ts") continue;
      for (const m of read(file).matchAll(SHAPE)) out.push(`${file}: ${m[0]}`);
    }
    return out;
  };

  it("callers of a host's setup do not branch on its shape", () => {
    expect(shapeBranches(graph.keys(), (file) => readFileSync(path.join(SRC, file), "utf8"))).toEqual([]);
    expect(readFileSync(path.join(SRC, "prove/doctor.ts"), "utf8")).toMatch(/CHECKS\[host\.setup\.kind\]/);
  });

  it("finds a branch on a setup's shape when there is one (the check can fail)", () => {
    const files: Record<string, string> = {
      "cli/actions/a.ts": "if (host.scripts) removeScripts();",
      "prove/b.ts": 'if (install.format === "toml") return;',
      "hosts/c.ts": 'const ok = h.setup.kind === "json-file";',
      "hosts/setup.ts": "host.install",
    };
    expect(shapeBranches(Object.keys(files), (f) => files[f])).toEqual(["cli/actions/a.ts: host.scripts", 'prove/b.ts: format === "toml"', "hosts/c.ts: setup.kind"]);
  });

  it("finds a cycle and an upward import when there is one (the check can fail)", () => {
    const g = new Map([
      ["config/a.ts", ["config/b.ts"]],
      ["config/b.ts", ["config/a.ts"]],
      ["fs/c.ts", ["runner/d.ts"]],
      ["runner/d.ts", []],
    ]);
    expect(cycles(g)).toEqual([["config/a.ts", "config/b.ts"]]);
    expect(layerOf("runner/d.ts")).toBeLessThan(layerOf("fs/c.ts"));
  });
});
