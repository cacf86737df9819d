import { String } from "effect"

/** Most distinct names a mapping remembers: columns and aliases are a small fixed set, this only bounds a mistake. */
const MOST = 4_096

/** `f`, remembered per name: the result mapping runs for every column of every row read, and built a new string each time. */
const remembered = (f: (name: string) => string) => {
  const known = new Map<string, string>()
  return (name: string): string => {
    let mapped = known.get(name)
    if (mapped === undefined) {
      mapped = f(name)
      if (known.size < MOST) known.set(name, mapped)
    }
    return mapped
  }
}

/** A result column's field name (`created_at` → `createdAt`), for `transformResultNames`. */
export const fieldName = remembered(String.snakeToCamel)

/** A field's column name (`createdAt` → `created_at`), for `transformQueryNames`. */
export const columnName = remembered(String.camelToSnake)
