import { Context } from "effect"

/** Public base URL of the service (no trailing slash): the root of confirmation, tracking and unsubscribe links. */
export class AppUrl extends Context.Reference<AppUrl>()("@mailroom/AppUrl", {
  defaultValue: () => "http://127.0.0.1:3000"
}) {}
