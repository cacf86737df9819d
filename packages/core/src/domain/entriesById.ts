/** A map's entries in ascending id order: the one order in which writers take shared rows (no deadlocks between them). */
export const entriesById = <K extends number, V>(map: ReadonlyMap<K, V>): Array<[K, V]> => [...map].sort(([a], [b]) => a - b)
