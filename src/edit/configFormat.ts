/** JSON files are edited with JSON quoting; everything else is YAML. */
export type ConfigFormat = "yaml" | "json";

export function configFormat(file: string): ConfigFormat {
  return file.toLowerCase().endsWith(".json") ? "json" : "yaml";
}
