import { createContext } from "preact"
import { useContext } from "preact/hooks"
import { request } from "./client"

/** What a token may do, as the server grants it. */
export type Ability = "all" | "read" | "write" | "send"

/** The signed-in token: its name and abilities. */
export interface Session {
  readonly uuid: string
  readonly name: string
  readonly abilities: ReadonlyArray<Ability>
}

/** Asks the server who a token is; fails with an ApiError (401 for an unknown token). */
export const whoAmI = (token: string): Promise<Session> =>
  request<{ data: Session }>("GET", "/token", undefined, token).then((response) => response.data)

/** Whether a session may do what needs `ability` (`all` grants everything). */
export const allows = (session: Session | null, ability: Ability): boolean =>
  session !== null && (session.abilities.includes("all") || session.abilities.includes(ability))

/** The session of the app (null before log-in). */
export const SessionContext = createContext<Session | null>(null)

/** Whether the signed-in token may do what needs `ability`: screens hide the buttons it may not press. */
export const useCan = (ability: Ability): boolean => allows(useContext(SessionContext), ability)
