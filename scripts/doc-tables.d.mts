// Types of scripts/doc-tables.mjs, for test/readme.test.ts.
export interface DocBlock {
  file: string;
  name: string;
  table(modules: { eventTableMarkdown(): string; ENV_VARS: readonly { name: string; description: string }[] }): string;
}
export function envTableMarkdown(vars: readonly { name: string; description: string }[]): string;
export const BLOCKS: readonly DocBlock[];
export function readBlock(text: string, name: string): string | undefined;
export function writeBlock(text: string, name: string, body: string): string;
