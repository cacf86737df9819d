import * as Module from "node:module"

// Node 22+ keeps V8's compiled code of the modules loaded below between runs (a no-op on Node 20)
;(Module as { enableCompileCache?: () => unknown }).enableCompileCache?.()
await import("./run.js")
