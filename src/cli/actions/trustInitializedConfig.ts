import type { CliContext } from "../context.js";

/** Records trust in the file `hooks init` just wrote (SPEC §8); wired by the trust feature. */
export async function trustInitializedConfig(_ctx: CliContext, _file: string): Promise<void> {}
