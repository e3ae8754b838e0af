/**
 * A canonical Write / Edit / MultiEdit input as the `edits` list Cursor's afterFileEdit and
 * Windsurf's write_code send: `[{old_string, new_string}]`, a new file as one edit with an empty
 * `old_string`.
 */
export function editsOf(input: Record<string, unknown>): unknown[] {
  if (Array.isArray(input.edits)) return input.edits;
  if (typeof input.old_string === "string" || typeof input.new_string === "string") return [{ old_string: input.old_string ?? "", new_string: input.new_string ?? "" }];
  if (typeof input.content === "string") return [{ old_string: "", new_string: input.content }];
  return [];
}
