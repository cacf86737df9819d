/** The URL with one more server setting sent when each connection starts (`-c name=value`, after any it has). */
export const withStartupOption = (url: string, option: string): string => {
  const parsed = new URL(url)
  const before = parsed.searchParams.get("options")
  parsed.searchParams.set("options", before === null || before.trim() === "" ? option : `${before} ${option}`)
  return parsed.toString()
}
