import { defineConfig } from "vite"

/** The admin is served by the Mailroom server under /admin; everything it loads is bundled (no CDN). */
export default defineConfig({
  base: "/admin/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  logLevel: "warn"
})
