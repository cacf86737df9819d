import { Effect, Option } from "effect"
import { NotFound } from "../errors/NotFound.js"
import { isUuid } from "../domain/Ids.js"

const MAX_INT_ID = 2_147_483_647

/** Parses a path reference as an integer id (1 .. 2^31-1), or none. */
export const parseIntId = (ref: string): Option.Option<number> => {
  if (!/^\d{1,10}$/.test(ref)) return Option.none()
  const id = Number(ref)
  return id >= 1 && id <= MAX_INT_ID ? Option.some(id) : Option.none()
}

/** Parses a path reference as a lower-cased UUID, or none. */
export const parseUuid = (ref: string): Option.Option<string> =>
  isUuid(ref) ? Option.some(ref.toLowerCase()) : Option.none()

/** Fails with NotFound naming the resource when the lookup found nothing. */
export const orNotFound = (resource: string) => <A, E, R>(self: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(self, Option.match({ onNone: () => Effect.fail(NotFound.of(resource)), onSome: Effect.succeed }))

/** Finds a resource by a path reference that is either its uuid or its integer id; NotFound otherwise. */
export const findByRef = <A, Uuid extends string, Id extends number>(
  resource: string,
  ref: string,
  byUuid: (uuid: Uuid) => Effect.Effect<Option.Option<A>>,
  byId: (id: Id) => Effect.Effect<Option.Option<A>>
): Effect.Effect<A, NotFound> =>
  Option.match(parseUuid(ref), {
    onSome: (uuid) => byUuid(uuid as Uuid),
    onNone: () => Option.match(parseIntId(ref), { onSome: (id) => byId(id as Id), onNone: () => Effect.succeedNone })
  }).pipe(orNotFound(resource))

/** Like findByRef, for a resource of one list: NotFound also when it belongs to another list. */
export const findInList = <A extends { readonly emailListId: number }, Uuid extends string, Id extends number>(
  resource: string,
  ref: string,
  emailListId: number,
  byUuid: (uuid: Uuid) => Effect.Effect<Option.Option<A>>,
  byId: (id: Id) => Effect.Effect<Option.Option<A>>
): Effect.Effect<A, NotFound> =>
  findByRef(resource, ref, byUuid, byId).pipe(
    Effect.filterOrFail((found) => found.emailListId === emailListId, () => NotFound.of(resource))
  )
