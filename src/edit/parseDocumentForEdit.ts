import { parseDocument, type Document } from "yaml";
import { ConfigError } from "../errors.js";

/** Parse config text (YAML or JSON) keeping node ranges; a syntax error is a ConfigError. */
export function parseDocumentForEdit(text: string, file: string): Document {
  const doc = parseDocument(text, { merge: true, keepSourceTokens: false });
  if (doc.errors.length > 0) {
    const diagnostics = doc.errors.map((e) => ({
      file,
      line: e.linePos?.[0]?.line ?? 1,
      col: e.linePos?.[0]?.col ?? 1,
      severity: "error" as const,
      message: e.message.split("\n")[0],
    }));
    throw new ConfigError(`${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}; fix it (\`hooks validate\`) before editing it`, diagnostics);
  }
  return doc;
}
