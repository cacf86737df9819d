/** How complex a JSON request body may be: nesting depth, keys per object, items per array, values in all. */
export interface JsonLimits {
  readonly depth: number
  readonly keys: number
  readonly items: number
  readonly values: number
}

/** The limits of every JSON body the API takes (README, "Limits"). */
export const DEFAULT_JSON_LIMITS: JsonLimits = { depth: 32, keys: 1_000, items: 1_000, values: 100_000 }

interface Node {
  readonly value: unknown
  readonly parent: Node | null
  readonly key: string | number
  readonly depth: number
}

/** In unicode mode a surrogate matches only when it is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

const native = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed

/**
 * Whether a string is well-formed UTF-16 (no lone surrogates, which neither UTF-8 nor the stores can hold). Node 20's
 * own `isWellFormed` scans in place; the unicode regular expression (older runtimes) made a two-byte copy of a large
 * one-byte string first (16 MB for an 8 MB CSV part).
 */
export const isWellFormed = (text: string): boolean => (native !== undefined ? native.call(text) : !LONE_SURROGATE.test(text))

const pathOf = (node: Node): string => {
  const keys: Array<string | number> = []
  for (let at: Node | null = node; at !== null && at.parent !== null; at = at.parent) keys.push(at.key)
  return keys.length === 0 ? "body" : keys.reverse().join(".")
}

/**
 * What is wrong with a parsed JSON body beyond the limits, as field errors keyed by path (`tags`, `fields.title`),
 * or null when nothing is: too deep, too many keys, items or values, or a string (or key) that is not well-formed
 * Unicode (a lone surrogate, which no store can keep). Walks without recursion, in time linear in the body.
 */
export const jsonProblems = (value: unknown, limits: JsonLimits = DEFAULT_JSON_LIMITS): Record<string, Array<string>> | null => {
  const errors: Record<string, Array<string>> = {}
  const add = (node: Node, message: (field: string) => string) => {
    const path = pathOf(node)
    if (!(path in errors)) errors[path] = [message(path === "body" ? "request body" : `${path} field`)]
  }
  const stack: Array<Node> = [{ value, parent: null, key: "", depth: 0 }]
  let seen = 0
  while (stack.length > 0) {
    const node = stack.pop()!
    if (++seen > limits.values) return { body: [`The request body may hold at most ${limits.values} values.`] }
    const current = node.value
    if (typeof current === "string") {
      if (!isWellFormed(current)) add(node, (path) => `The ${path} must be valid Unicode text.`)
      continue
    }
    if (typeof current !== "object" || current === null) continue
    if (node.depth >= limits.depth) return { body: [`The request body may nest at most ${limits.depth} levels deep.`] }
    if (Array.isArray(current)) {
      if (current.length > limits.items) add(node, (path) => `The ${path} may have at most ${limits.items} items.`)
      else for (let i = 0; i < current.length; i++) stack.push({ value: current[i], parent: node, key: i, depth: node.depth + 1 })
      continue
    }
    const keys = Object.keys(current)
    if (keys.length > limits.keys) {
      add(node, (path) => `The ${path} may have at most ${limits.keys} keys.`)
      continue
    }
    for (const key of keys) {
      if (!isWellFormed(key)) add(node, (path) => `The keys of the ${path} must be valid Unicode text.`)
      else stack.push({ value: (current as Record<string, unknown>)[key], parent: node, key, depth: node.depth + 1 })
    }
  }
  return Object.keys(errors).length === 0 ? null : errors
}
