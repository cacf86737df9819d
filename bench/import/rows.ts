/** The import benchmark's rows: the CSV the server imports and the same rows for the store's bare loop. */

/** The tags column's patterns, one per row in turn (separators `;`, `|` and `,` as the importer accepts them). */
const TAGS = ["news", "vip;news", "customers|beta", "", "events,news"]

/** The CSV's header line. */
export const HEADER = "email,first_name,last_name,tags,company,city"

/** Row i's address: in an order unrelated to the file's (as in a list exported by signup date), or sorted. */
export const emailOf = (i: number, sorted: boolean): string =>
  sorted ? `user${i}@example.com` : `${(Math.imul(i, 2654435761) >>> 0).toString(36)}.${i}@example.com`

/** Row i's fields in the CSV's column order. */
const fieldsOf = (i: number, sorted: boolean) =>
  [emailOf(i, sorted), `First${i}`, `Last${i}`, TAGS[i % TAGS.length]!, `Company ${i % 1000}`, `City ${i % 97}`] as const

/** Row i (from 1) as the importer reads it. */
export const rowOf = (i: number, sorted: boolean) => {
  const [email, firstName, lastName, tags, company, city] = fieldsOf(i, sorted)
  return { email, firstName, lastName, tags: tags.split(/[;|,]/).filter((tag) => tag !== ""), company, city }
}

/** Row i's CSV line (the tags quoted, since one pattern holds a comma). */
export const csvLine = (i: number, sorted: boolean): string =>
  `${fieldsOf(i, sorted).map((field, column) => (column === 3 ? `"${field}"` : field)).join(",")}\n`
