// The client builds into ../static (web/static), which the Python package ships and the server serves.
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "./",
  build: {
    outDir: "../static",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
