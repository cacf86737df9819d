import type { JSX } from "preact"
import { h } from "preact"
import { useEffect, useState } from "preact/hooks"

/** Where the admin is served. */
export const BASE = "/admin"

const current = (): string => {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname
  return (path === "" ? "/" : path) + location.search
}

const listeners = new Set<() => void>()

/** Goes to an admin path ("/campaigns/…"), adding a history entry unless `replace`. */
export const navigate = (path: string, replace = false): void => {
  const url = BASE + path
  if (replace) history.replaceState(null, "", url)
  else history.pushState(null, "", url)
  listeners.forEach((listener) => listener())
  window.scrollTo(0, 0)
}

addEventListener("popstate", () => listeners.forEach((listener) => listener()))

/** The current admin path with its query ("/lists?page=2"); re-renders on every navigation. */
export const useLocation = (): string => {
  const [location, setLocation] = useState(current)
  useEffect(() => {
    const listener = () => setLocation(current())
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return location
}

/** The query parameters of the current location. */
export const useSearchParams = (): URLSearchParams => new URLSearchParams(useLocation().split("?")[1] ?? "")

/** Replaces some query parameters of the current path without a new history entry (filters, paging). */
export const setSearchParams = (changes: Record<string, string | number | null>): void => {
  const [path, search] = current().split("?")
  const params = new URLSearchParams(search ?? "")
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key)
    else params.set(key, String(value))
  }
  const text = params.toString()
  navigate(`${path}${text === "" ? "" : `?${text}`}`, true)
}

/** Matches a path against a pattern with `:name` segments; the parameters, or null. */
export const match = (pattern: string, path: string): Record<string, string> | null => {
  const patternParts = pattern.split("/").filter(Boolean)
  const pathParts = path.split("?")[0]!.split("/").filter(Boolean)
  if (patternParts.length !== pathParts.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < patternParts.length; i++) {
    const part = patternParts[i]!
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(pathParts[i]!)
    else if (part !== pathParts[i]) return null
  }
  return params
}

/** An in-app link: a real `<a href>` (new tabs work) that navigates without a reload. */
export const Link = (props: JSX.HTMLAttributes<HTMLAnchorElement> & { href: string }) =>
  h("a", {
    ...props,
    href: BASE + props.href,
    onClick: (event: MouseEvent) => {
      ;(props.onClick as ((event: MouseEvent) => void) | undefined)?.(event)
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      event.preventDefault()
      navigate(props.href)
    }
  })
