import { existsSync, lstatSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import type { HostSetup, Payload, SetupPlan } from "./types.js";

/**
 * A host that runs no commands but loads code of its own kind (pi's TypeScript extensions,
 * opencode's plugins): `hooks install` writes one file that imports hookrun from the project's
 * node_modules and hands each event to its library in the host's process (src/hosts/inProcess.ts).
 * The file is generated whole from one template; it is hookrun's only when its first line is the
 * template's, so a file of the user's at that place is never overwritten nor removed. It does not
 * depend on hooks.yaml (the code reads it on every event): it is current when its bytes are this
 * hookrun's template, and stale after hookrun itself changed it.
 */
export interface InProcessFileSpec {
  /** The file, relative to the project root (`.pi/extensions/hookrun.ts`). */
  readonly projectFile: string;
  /** The file, relative to the home directory, for `--user`. */
  readonly userFile: string;
  /** The folder whose presence says a project uses the host (`.pi`). */
  readonly folder: string;
  /** What the host calls such a file, in what hookrun says of it: `extension`, `plugin`. */
  readonly noun: string;
  /** The file's text; its first line marks it as hookrun's. */
  readonly text: string;
  /** The library export the file calls: the doctor checks the project's hookrun has it. */
  readonly calls: string;
  /** The host's event and payload for the doctor's probe: a shell call `true` before it runs. */
  probe(projectDir: string): { event: string; payload: Payload };
  readonly note?: string;
  warnings?: HostSetup["warnings"];
}

/** What `inProcessFile` adds to a setup: what the doctor needs to check it. */
export interface InProcessSetup extends HostSetup {
  readonly kind: "in-process-file";
  readonly inProcess: true;
  readonly file: InProcessFileSpec;
}

/** The first line of a text. */
const firstLine = (text: string): string => text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));

/** The file's text, or null when absent; a WriteError when it is not a file or cannot be read within the limit. */
function readOwnFile(file: string, noun: string): string | null {
  if (!existsSync(file)) return null;
  try {
    if (!lstatSync(file).isFile() && !lstatSync(file).isSymbolicLink()) throw new WriteError(`${file} is not a file; nothing was written`, file);
    return readBoundedText(file, READ_LIMITS.config, { what: `${noun} file` });
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

/** Where the bytes go: the symlink's target when the file is a link (the link stays), as for every setup. */
function targetOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * The package.json of the hookrun the generated file imports from `projectDir` (node's lookup
 * from the project up, as both files do), or null when there is none.
 */
export function projectHookrun(projectDir: string): string | null {
  try {
    return createRequire(path.join(projectDir, "package.json")).resolve("hookrun/package.json");
  } catch {
    return null;
  }
}

export function inProcessFile(spec: InProcessFileSpec): InProcessSetup {
  const place = (base: string, user: boolean) => path.join(base, user ? spec.userFile : spec.projectFile);
  const name = path.basename(spec.projectFile);
  const mark = firstLine(spec.text);
  const own = (text: string | null): boolean => text !== null && firstLine(text) === mark;
  return {
    kind: "in-process-file",
    inProcess: true,
    file: spec,
    folder: spec.folder,
    summary: `\`${spec.projectFile}\` (${/^[aeiou]/.test(spec.noun) ? "an" : "a"} ${spec.noun} calling hookrun in process)`,
    root: null,
    note: spec.note,
    warnings: spec.warnings,
    place,
    wanted: () => ({ [name]: spec.text }),
    async plan(wanted, at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const before = readOwnFile(file, spec.noun);
      const text = Object.hasOwn(wanted, name) ? String(wanted[name]) : null;
      const foreign = before !== null && !own(before) ? [file] : [];
      const stale = foreign.length || before === text ? [] : [name];
      return {
        where: file,
        exists: before !== null,
        before,
        installed: own(before),
        stale,
        foreign,
        changes: stale.length ? [{ file, target: targetOf(file), text, why: "hookrun's" }] : [],
      };
    },
    async removal(at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const before = readOwnFile(file, spec.noun);
      const mine = own(before);
      return {
        where: file,
        exists: before !== null,
        before,
        installed: mine,
        stale: mine ? [name] : [],
        foreign: [],
        changes: mine ? [{ file, target: targetOf(file), text: null, why: `hookrun's ${spec.noun}` }] : [],
      };
    },
    async installed(base, user) {
      const file = place(base, user);
      return own(readOwnFile(file, spec.noun)) ? { [name]: file } : {};
    },
  };
}
