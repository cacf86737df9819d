import { Context } from "effect"

/** One file of the built web admin, held in memory (the whole admin is a few hundred kilobytes). */
export interface AdminAsset {
  readonly contentType: string
  readonly body: Uint8Array
  /** The body gzipped, when that is smaller (text files). */
  readonly gzip: Uint8Array | undefined
  /** A strong validator of the content, for If-None-Match. */
  readonly etag: string
  /** Content-hashed names (assets/…) never change: they are cached for a year; the rest revalidate. */
  readonly immutable: boolean
}

/** The web admin the server serves under /admin: its files by path ("index.html", "assets/index-…js"). */
export interface AdminAppService {
  /** None: the admin was not built (/admin says how to build it). */
  readonly assets: ReadonlyMap<string, AdminAsset> | undefined
}

/** The web admin's files. The default (an embedded HttpLive) has none: /admin answers 404 with how to build it. */
export class AdminApp extends Context.Reference<AdminApp>()("@mailroom/http/AdminApp", {
  defaultValue: (): AdminAppService => ({ assets: undefined })
}) {}
