import { lstatSync } from "node:fs";
import path from "node:path";
import { findNodeAtLocation, type ParseError, parse, parseTree } from "jsonc-parser";
import { nestingTooDeepAt } from "../config/limits.js";
import { isJsonObject } from "../config/scanJson.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import type { HostAdapter } from "../hosts/types.js";
import { type DoctorRun, lineOf } from "./doctorReport.js";

/**
 * The host's off switches (HostProbe.switches): a setting in any file the host layers that
 * keeps hookrun's entries from running, each an error at its FILE:LINE. Files are read as
 * the host file is: bounded, regular files only; one that cannot be read says nothing here.
 */
export function checkSwitches(d: DoctorRun, host: HostAdapter): void {
  const judge = host.probe?.switches;
  // Only where hookrun's entries are: elsewhere there is nothing for a switch to stop.
  if (!judge || !d.entryNames.has(host.name)) return;
  // Each file read and parsed once, however often the host asks; a file that does not parse
  // is dropped by the host: it switches nothing off.
  const files = new Map<string, { text: string; value: Record<string, unknown> | null } | null>();
  const load = (file: string) => {
    if (!files.has(file)) {
      let text: string | null = null;
      try {
        if (lstatSync(file, { throwIfNoEntry: false })) text = readBoundedText(file, READ_LIMITS.config, { what: `${host.title} settings` });
      } catch {
        // a FIFO, a device, too big: the host file's own check reports the one install writes
      }
      const errors: ParseError[] = [];
      // a file nested past the limit is read as no settings (the host file's own check reports it)
      const value = text === null || nestingTooDeepAt(text, "json") !== null ? null : (parse(text, errors, { allowTrailingComma: true }) as unknown);
      files.set(file, text === null ? null : { text, value: errors.length === 0 && isJsonObject(value) ? value : null });
    }
    return files.get(file)!;
  };
  const read = (file: string): Record<string, unknown> | null => load(file)?.value ?? null;
  const places = { projectDir: d.config.projectDir, home: d.options.home, env: d.options.env, root: d.options.root ?? "/" };
  for (const off of judge(places, read, [...(d.entryNames.get(host.name) ?? [])])) {
    const text = load(off.file)?.text ?? "";
    // a switch was read from this file, so it parsed: not nested past the limit
    const root = parseTree(text);
    const node = root && findNodeAtLocation(root, off.key);
    const where = d.shown(off.file, node ? lineOf(text, node.parent?.type === "property" ? node.parent.offset : node.offset) : undefined);
    d.add({ host: host.name, layer: off.file.startsWith(d.config.projectDir + path.sep) ? "project" : "user", level: "error", what: off.what, where, fix: off.fix });
  }
}
