import { HttpApiBuilder } from "@effect/platform"
import { SegmentCollection, Segments } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toSegmentResource } from "../resources/SegmentResource.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/email-lists/{emailList}/segments. */
export const SegmentsLive = HttpApiBuilder.group(Api, "segments", (handlers) =>
  Effect.map(Segments, (segments) =>
    handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(SegmentCollection)
          const { list, page } = yield* segments.list(path.emailList, query)
          return yield* toCollection(page, query, toSegmentResource(list, query.includes.includes("emailList")))
        }))
      .handle("create", ({ path, payload }) =>
        Effect.map(segments.create(path.emailList, payload), ({ list, segment }) => ({
          data: toSegmentResource(list)(segment)
        })))
      .handle("get", ({ path }) =>
        Effect.map(segments.get(path.emailList, path.segment), ({ list, segment }) => ({
          data: toSegmentResource(list)(segment)
        })))
      .handle("update", ({ path, payload }) =>
        Effect.map(segments.update(path.emailList, path.segment, payload), ({ list, segment }) => ({
          data: toSegmentResource(list)(segment)
        })))
      .handle("delete", ({ path }) => segments.remove(path.emailList, path.segment))))
