/** The import benchmark's rows: the CSV the server imports and the same rows for the store's bare loop. */

/** The tags column's patterns, one per row in turn (separators `;`, `|` and `,` as the importer accepts them). */
const TAGS = ["news", "vip;news", "customers|beta", "", "events,news"]

/** The CSV's header line. */
export const HEADER = "email,first_name,last_name,tags,company,city"

/** Row i's address: in an order unrelated to the file's (as in a list exported by signup date), or sorted. */
export const emailOf = (i: number, sorted: boolean): string =>
  sorted ? `user${i}@example.com` : `${(Math.imul(i, 2654435761) >>> 0).toString(36)}.${i}@example.com`

/** Row i (from 1) as the importer reads it. */
export const rowOf = (i: number, sorted: boolean) => ({
  email: emailOf(i, sorted),
  firstName: `First${i}`,
  lastName: `Last${i}`,
  tags: TAGS[i % TAGS.length]!.split(/[;|,]/).filter((tag) => tag !== ""),
  company: `Company ${i % 1000}`,
  city: `City ${i % 97}`
})

/** Row i's CSV line. */
export const csvLine = (i: number, sorted: boolean): string =>
  `${emailOf(i, sorted)},First${i},Last${i},"${TAGS[i % TAGS.length]}",Company ${i % 1000},City ${i % 97}\n`
