import { defineConfig } from "vitest/config";
import preact from "@preact/preset-vite";

const server = process.env.DIXIT_SERVER ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [preact()],
  build: { outDir: "dist", target: "es2020", sourcemap: false, assetsInlineLimit: 0 },
  server: {
    proxy: {
      "/api": server,
      "/cards": server,
      "/ws": { target: server.replace(/^http/, "ws"), ws: true },
    },
  },
  test: { environment: "node", include: ["tests/**/*.test.ts"] },
});
