import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/summaryReporter.ts"],
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real processes; two workers match the two cores CI has.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
