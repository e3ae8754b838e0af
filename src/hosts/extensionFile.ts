import { existsSync, lstatSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import type { HostSetup, SetupPlan } from "./types.js";

/**
 * A host that runs no commands but loads code of its own kind (pi's TypeScript extensions): `hooks
 * install` writes one file that calls hookrun's library in the host's process
 * (src/hosts/inProcess.ts). The file is generated whole from one template; it is hookrun's only
 * when its first line is the template's (`mark`), so a file of the user's at that place is never
 * overwritten nor removed. It does not depend on hooks.yaml: it is current when its bytes are the
 * template's.
 */
export interface ExtensionFileSpec {
  /** The file, relative to the project root (`.pi/extensions/hookrun.ts`). */
  readonly projectFile: string;
  /** The file, relative to the home directory, for `--user`. */
  readonly userFile: string;
  /** The folder whose presence says a project uses the host (`.pi`). */
  readonly folder: string;
  /** The file's text; its first line marks it as hookrun's. */
  text(): string;
  readonly note?: string;
}

/** The first line of a text. */
const firstLine = (text: string): string => text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));

/** The file's text, or null when absent; a WriteError when it cannot be read within the limit. */
function readExtension(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    if (!lstatSync(file).isFile() && !lstatSync(file).isSymbolicLink()) throw new WriteError(`${file} is not a file; nothing was written`, file);
    return readBoundedText(file, READ_LIMITS.config, { what: "extension file" });
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

export function extensionFile(spec: ExtensionFileSpec): HostSetup {
  const place = (base: string, user: boolean) => path.join(base, user ? spec.userFile : spec.projectFile);
  const name = path.basename(spec.projectFile);
  const mark = firstLine(spec.text());
  const own = (text: string | null): boolean => text !== null && firstLine(text) === mark;
  return {
    kind: "extension-file",
    folder: spec.folder,
    summary: `\`${spec.projectFile}\` (an extension calling hookrun in process)`,
    root: null,
    inProcess: true,
    note: spec.note,
    place,
    wanted: () => ({ [name]: spec.text() }),
    async plan(wanted, at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const before = readExtension(file);
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
        changes: stale.length ? [{ file, target: file, text, why: "hookrun's" }] : [],
      };
    },
    async removal(at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const before = readExtension(file);
      const mine = own(before);
      return { where: file, exists: before !== null, before, installed: mine, stale: mine ? [name] : [], foreign: [], changes: mine ? [{ file, target: file, text: null, why: "hookrun's" }] : [] };
    },
    async installed(base, user) {
      const file = place(base, user);
      return own(readExtension(file)) ? { [name]: file } : {};
    },
  };
}
