/** The stored sort and search key of a name: lower-cased in JavaScript, since SQLite's lower() only folds ASCII. */
export const nameKey = (name: string): string => name.toLowerCase()

/** The row with its `nameKey` column filled from `name`. */
export const withNameKey = <A extends { readonly name: string }>(row: A): A & { readonly nameKey: string } => ({
  ...row,
  nameKey: nameKey(row.name)
})
