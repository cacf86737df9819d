import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "./Api.js"

/** A typed client of the Mailroom API, derived from the same HttpApi definition as the server. Needs an HttpClient. */
export const makeMailroomClient = (options: { readonly baseUrl: string; readonly token: string }) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
  })

/** The client's type: one method per endpoint, grouped as in the API (templates, emailLists, suppressions). */
export type MailroomClient = Effect.Effect.Success<ReturnType<typeof makeMailroomClient>>
