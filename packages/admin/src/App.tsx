import { useEffect, useState } from "preact/hooks"
import { storedToken, storeToken, whenUnauthorized } from "./api/client"
import { type Session, SessionContext, whoAmI } from "./api/session"
import { Login } from "./Login"
import { Link, navigate, useLocation } from "./router"
import { routes } from "./routes"

const NAV: ReadonlyArray<readonly [string, string]> = [
  ["/", "Dashboard"],
  ["/campaigns", "Campaigns"],
  ["/lists", "Email lists"],
  ["/imports", "Imports"],
  ["/templates", "Templates"],
  ["/suppressions", "Suppressions"],
  ["/transactional", "Transactional"],
  ["/automations", "Automations"],
  ["/automation-mails", "Automation mails"],
  ["/webhooks", "Webhooks"],
  ["/tokens", "API tokens"]
]

const isCurrent = (href: string, path: string) => (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`))

/** The admin: the log-in form until a token is accepted, then the navigation and the screen of the current path. */
export const App = () => {
  const [session, setSession] = useState<Session | null>(null)
  const [checking, setChecking] = useState(storedToken() !== null)
  const [reason, setReason] = useState<string | undefined>(undefined)
  const location = useLocation()
  const path = location.split("?")[0]!

  useEffect(() => {
    whenUnauthorized(() => {
      storeToken(null)
      setSession(null)
      setReason("The token is no longer valid: sign in again.")
    })
    const token = storedToken()
    if (token === null) return
    whoAmI(token).then(
      (found) => {
        setSession(found)
        setChecking(false)
      },
      () => {
        storeToken(null)
        setChecking(false)
      }
    )
  }, [])

  useEffect(() => {
    document.getElementById("page-title")?.focus({ preventScroll: true })
  }, [path])

  if (checking) return <p class="muted" aria-busy="true">Loading…</p>
  if (session === null) return <Login onSession={(found) => { setSession(found); setReason(undefined) }} reason={reason} />

  const screen = routes(path)
  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class="layout">
        <header class="topbar">
          <Link href="/" class="brand">
            Mailroom
          </Link>
          <details class="menu">
            <summary>Menu</summary>
            <Nav path={path} />
          </details>
          <span class="who" title={`Abilities: ${session.abilities.join(", ")}`}>
            {session.name} <span class="muted">({session.abilities.join(", ")})</span>
          </span>
          <button
            type="button"
            class="link"
            onClick={() => {
              storeToken(null)
              setSession(null)
              navigate("/")
            }}
          >
            Sign out
          </button>
        </header>
        <aside class="sidebar">
          <Nav path={path} />
        </aside>
        <main id="main" class="content">
          {screen}
        </main>
      </div>
    </SessionContext.Provider>
  )
}

const Nav = ({ path }: { path: string }) => (
  <nav aria-label="Main">
    <ul>
      {NAV.map(([href, label]) => (
        <li key={href}>
          <Link href={href} aria-current={isCurrent(href, path) ? "page" : undefined} onClick={closeMenu}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  </nav>
)

const closeMenu = () => document.querySelectorAll("details.menu").forEach((menu) => menu.removeAttribute("open"))
