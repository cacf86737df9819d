import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const META_KEYS = ["current_page", "from", "last_page", "links", "path", "per_page", "to", "total"]

interface PageLink {
  readonly url: string | null
  readonly label: string
  readonly active: boolean
}

/** The page number a link URL points at. */
const pageOf = (url: string | null): string | null => url === null ? null : new URL(url).searchParams.get("page")

/** Labels of meta.links without the Previous/Next ends. */
const pageLabels = (links: ReadonlyArray<PageLink>): Array<string> => links.slice(1, -1).map((l) => l.label)

/** Checks the ends of meta.links and that exactly the current page is active. */
const expectPageLinks = (body: any, current: number): void => {
  const links: ReadonlyArray<PageLink> = body.meta.links
  expect(links[0]).toEqual({ url: body.links.prev, label: "&laquo; Previous", active: false })
  expect(links[links.length - 1]).toEqual({ url: body.links.next, label: "Next &raquo;", active: false })
  const active = links.filter((l) => l.active)
  expect(active.length).toBe(1)
  expect(active[0]!.label).toBe(String(current))
  for (const link of links.slice(1, -1)) {
    if (link.label === "...") expect(link).toEqual({ url: null, label: "...", active: false })
    else expect(pageOf(link.url)).toBe(link.label)
  }
}

describe.each(stores)("collection envelope on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })("empty database", (it) => {
    it.effect("an empty collection has one page and null from/to", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const r = yield* call("GET", "/api/templates")
        expectStatus(r, 200)
        expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"])
        expect(r.body.data).toEqual([])
        expect(Object.keys(r.body.meta).sort()).toEqual(META_KEYS)
        expect(r.body.meta).toMatchObject({
          current_page: 1,
          from: null,
          last_page: 1,
          path: `${url}/api/templates`,
          per_page: 15,
          to: null,
          total: 0
        })
        expect(pageOf(r.body.links.first)).toBe("1")
        expect(pageOf(r.body.links.last)).toBe("1")
        expect(r.body.links.prev).toBeNull()
        expect(r.body.links.next).toBeNull()
        expectPageLinks(r.body, 1)
        expect(pageLabels(r.body.meta.links)).toEqual(["1"])
      }))

    it.effect("email lists and suppressions use the same envelope", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        for (const path of ["/api/email-lists", "/api/suppressions"]) {
          const r = yield* call("GET", `${path}?per_page=7`)
          expectStatus(r, 200)
          expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"])
          expect(Object.keys(r.body.meta).sort()).toEqual(META_KEYS)
          expect(r.body.meta).toMatchObject({
            current_page: 1,
            from: null,
            last_page: 1,
            path: `${url}${path}`,
            per_page: 7,
            to: null,
            total: 0
          })
          expect(new URL(r.body.links.first).searchParams.get("per_page")).toBe("7")
          expectPageLinks(r.body, 1)
        }
      }))
  })

  layer(TestServerLive(store), { excludeTestServices: true })("23 templates", (it) => {
    /** Makes sure the database holds exactly 23 templates, named t01…t23. */
    const seed = Effect.gen(function*() {
      const { call } = yield* TestServer
      const total: number = (yield* call("GET", "/api/templates")).body.meta.total
      for (let i = total + 1; i <= 23; i++) {
        expectStatus(yield* call("POST", "/api/templates", { body: { name: `t${String(i).padStart(2, "0")}` } }), 201)
      }
    })

    it.effect("15 per page by default; from/to/last_page/total describe the page", () =>
      Effect.gen(function*() {
        yield* seed
        const { call, url } = yield* TestServer
        const one = yield* call("GET", "/api/templates")
        expect(one.body.data.length).toBe(15)
        expect(one.body.data[0].name).toBe("t01")
        expect(one.body.meta).toMatchObject({ current_page: 1, from: 1, to: 15, last_page: 2, per_page: 15, total: 23 })
        expect(one.body.meta.path).toBe(`${url}/api/templates`)
        expect(one.body.links.prev).toBeNull()
        expect(pageOf(one.body.links.next)).toBe("2")
        expect(pageOf(one.body.links.first)).toBe("1")
        expect(pageOf(one.body.links.last)).toBe("2")
        expectPageLinks(one.body, 1)
        expect(pageLabels(one.body.meta.links)).toEqual(["1", "2"])

        const two = yield* call("GET", "/api/templates?page=2")
        expect(two.body.data.map((t: { name: string }) => t.name)).toEqual(
          Array.from({ length: 8 }, (_, i) => `t${i + 16}`)
        )
        expect(two.body.meta).toMatchObject({ current_page: 2, from: 16, to: 23, last_page: 2, total: 23 })
        expect(pageOf(two.body.links.prev)).toBe("1")
        expect(two.body.links.next).toBeNull()
        expectPageLinks(two.body, 2)

        const past = yield* call("GET", "/api/templates?page=3")
        expectStatus(past, 200)
        expect(past.body.data).toEqual([])
        expect(past.body.meta).toMatchObject({ current_page: 3, from: null, to: null, last_page: 2, total: 23 })
        expect(past.body.links.next).toBeNull()
      }))

    it.effect("links are absolute URLs that keep the other query parameters", () =>
      Effect.gen(function*() {
        yield* seed
        const { call, url } = yield* TestServer
        const r = yield* call("GET", "/api/templates?sort=-name&filter[search]=t&per_page=5&page=2")
        expectStatus(r, 200)
        expect(r.body.meta.path).toBe(`${url}/api/templates`)
        expect(r.body.meta).toMatchObject({ current_page: 2, per_page: 5, last_page: 5, from: 6, to: 10, total: 23 })
        expect(r.body.data[0].name).toBe("t18")
        const expected = { first: "1", last: "5", prev: "1", next: "3" }
        for (const [key, page] of Object.entries(expected)) {
          const link = new URL(r.body.links[key])
          expect(`${link.origin}${link.pathname}`).toBe(`${url}/api/templates`)
          expect(link.searchParams.get("page")).toBe(page)
          expect(link.searchParams.get("sort")).toBe("-name")
          expect(link.searchParams.get("filter[search]")).toBe("t")
          expect(link.searchParams.get("per_page")).toBe("5")
        }
        const next = yield* call("GET", r.body.links.next.slice(url.length))
        expect(next.body.data[0].name).toBe("t13")
        expect(next.body.meta).toMatchObject({ current_page: 3, per_page: 5, from: 11, to: 15 })
        expectPageLinks(r.body, 2)
        expect(pageLabels(r.body.meta.links)).toEqual(["1", "2", "3", "4", "5"])
        for (const link of r.body.meta.links.slice(1, -1) as Array<PageLink>) {
          expect(new URL(link.url!).searchParams.get("sort")).toBe("-name")
        }
      }))

    it.effect("per_page is capped at 100 and falls back to 15 when invalid", () =>
      Effect.gen(function*() {
        yield* seed
        const { call } = yield* TestServer
        const five = yield* call("GET", "/api/templates?per_page=5")
        expect(five.body.data.length).toBe(5)
        expect(five.body.meta).toMatchObject({ per_page: 5, last_page: 5, from: 1, to: 5 })
        const capped = yield* call("GET", "/api/templates?per_page=1000")
        expectStatus(capped, 200)
        expect(capped.body.meta.per_page).toBe(100)
        expect(capped.body.data.length).toBe(23)
        expect(capped.body.meta).toMatchObject({ last_page: 1, from: 1, to: 23 })
        expect((yield* call("GET", "/api/templates?per_page=100")).body.meta.per_page).toBe(100)
        for (const bad of ["0", "-3", "abc", "", "2.5x"]) {
          const r = yield* call("GET", `/api/templates?per_page=${bad}`)
          expect(r.status, `per_page=${bad}: ${r.text}`).toBe(200)
          expect(r.body.meta.per_page, `per_page=${bad}`).toBe(15)
          expect(r.body.data.length).toBe(15)
        }
      }))

    it.effect("a per_page too large for an integer is capped at 100 too", () =>
      Effect.gen(function*() {
        yield* seed
        const { call } = yield* TestServer
        for (const huge of ["101", "2147483648", "99999999999999999999"]) {
          const r = yield* call("GET", `/api/templates?per_page=${huge}`)
          expect(r.status, `per_page=${huge}: ${r.text}`).toBe(200)
          expect(r.body.meta.per_page, `per_page=${huge}`).toBe(100)
        }
      }))

    it.effect("an invalid page answers page 1", () =>
      Effect.gen(function*() {
        yield* seed
        const { call } = yield* TestServer
        for (const bad of ["0", "-1", "x", ""]) {
          const r = yield* call("GET", `/api/templates?page=${bad}`)
          expect(r.status, `page=${bad}: ${r.text}`).toBe(200)
          expect(r.body.meta.current_page, `page=${bad}`).toBe(1)
          expect(r.body.data.length).toBe(15)
          expect(r.body.meta.from).toBe(1)
        }
        const huge = yield* call("GET", "/api/templates?page=99999999999999999999")
        expect(huge.status, huge.text).toBeLessThan(500)
      }))

    it.effect("up to 13 pages every page is listed in meta.links", () =>
      Effect.gen(function*() {
        yield* seed
        const { call } = yield* TestServer
        const r = yield* call("GET", "/api/templates?per_page=2&page=6")
        expect(r.body.meta.last_page).toBe(12)
        expectPageLinks(r.body, 6)
        expect(pageLabels(r.body.meta.links)).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)))
      }))

    it.effect("past 13 pages meta.links shows a window with ... gaps", () =>
      Effect.gen(function*() {
        yield* seed
        const { call } = yield* TestServer
        const middle = yield* call("GET", "/api/templates?per_page=1&page=12")
        expect(middle.body.meta.last_page).toBe(23)
        expectPageLinks(middle.body, 12)
        expect(pageLabels(middle.body.meta.links)).toEqual(
          ["1", "2", "...", "9", "10", "11", "12", "13", "14", "15", "...", "22", "23"]
        )
        for (const page of [1, 23]) {
          const edge = yield* call("GET", `/api/templates?per_page=1&page=${page}`)
          expectPageLinks(edge.body, page)
          const labels = pageLabels(edge.body.meta.links)
          expect(labels.filter((l) => l === "...").length).toBe(1)
          expect(labels[0]).toBe("1")
          expect(labels[labels.length - 1]).toBe("23")
          expect(labels.length).toBeLessThan(23)
        }
      }))
  })
})
