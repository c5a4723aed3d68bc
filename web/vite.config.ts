import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

// The built page goes into the Python package, so a user with only Python needs no Node.
export default defineConfig({
  base: "/",
  build: {
    outDir: fileURLToPath(new URL("../src/kortbord/server/static", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2020",
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
});
