import { recordTrust } from "../../trust/store.js";
import type { CliContext } from "../context.js";

/** `hooks init` wrote this file itself, so it starts trusted (SPEC §8, §11). */
export async function trustInitializedConfig(ctx: CliContext, file: string): Promise<void> {
  await recordTrust([file], ctx.env);
}
