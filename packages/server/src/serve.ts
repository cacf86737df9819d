import { Effect, Layer } from "effect"
import { idleCollection } from "./idleCollection.js"
import { MailroomServer } from "./MailroomServer.js"
import type { ServerConfig } from "./ServerConfig.js"
import { announce } from "./startup/announce.js"
import { startupWarnings } from "./startup/startupWarnings.js"

/** The HTTP server and its workers until interrupted, announced (with `afterStart`) once it listens. */
export const serve = (config: ServerConfig, afterStart: Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(MailroomServer(config))
    yield* Effect.provide(Effect.zipRight(announce(config), afterStart), context)
    yield* Effect.forkScoped(startupWarnings(config))
    yield* Effect.forkScoped(idleCollection())
    return yield* Effect.never
  }))
