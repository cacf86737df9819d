import { readFileSync } from "node:fs"
import { checkDkimKey, type DkimKey, pemKeys } from "@mailroom/smtp"
import { Config, Effect, Option, Redacted } from "effect"
import { CliError } from "./CliError.js"

/** The DKIM settings as the environment gives them. */
export const DkimSettings = Config.all({
  domain: Config.option(Config.string("DKIM_DOMAIN")),
  selector: Config.option(Config.string("DKIM_SELECTOR")),
  privateKey: Config.option(Config.redacted("DKIM_PRIVATE_KEY")),
  privateKeyFile: Config.option(Config.string("DKIM_PRIVATE_KEY_FILE"))
})

/**
 * The signing keys of `DKIM_DOMAIN`, `DKIM_SELECTOR` and `DKIM_PRIVATE_KEY` or `DKIM_PRIVATE_KEY_FILE` (one PEM key,
 * or an RSA and an Ed25519 key for dual signing, with one selector or one per key, comma-separated). None when no
 * DKIM variable is set; a CliError naming the variable and the cause when one is missing or a key is unusable.
 */
export const dkimKeys = (settings: Config.Config.Success<typeof DkimSettings>) =>
  Effect.gen(function*() {
    const { domain, privateKey, privateKeyFile, selector } = settings
    if (Option.isNone(domain) && Option.isNone(selector) && Option.isNone(privateKey) && Option.isNone(privateKeyFile)) {
      return [] as ReadonlyArray<DkimKey>
    }
    const fail = (message: string) => new CliError({ message })
    if (Option.isNone(domain)) return yield* fail("DKIM_DOMAIN is missing (DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and a key)")
    if (Option.isNone(selector)) return yield* fail("DKIM_SELECTOR is missing (DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and a key)")
    const source = Option.isSome(privateKey) ? "DKIM_PRIVATE_KEY" : "DKIM_PRIVATE_KEY_FILE"
    const text = Option.isSome(privateKey)
      ? Redacted.value(privateKey.value).replace(/\\n/g, "\n")
      : Option.isSome(privateKeyFile)
      ? yield* Effect.try({
        try: () => readFileSync(privateKeyFile.value, "utf8"),
        catch: (error) => fail(`DKIM_PRIVATE_KEY_FILE: cannot read ${privateKeyFile.value} (${(error as Error).message})`)
      })
      : yield* fail("DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE is missing")
    const pems = pemKeys(text)
    if (pems.length === 0 || pems.length > 2) return yield* fail(`${source}: expected one or two PEM private keys, found ${pems.length}`)
    const selectors = selector.value.split(",").map((s) => s.trim())
    if (selectors.length !== 1 && selectors.length !== pems.length) {
      return yield* fail(`DKIM_SELECTOR: give one selector, or one per key (${pems.length}), comma-separated`)
    }
    const keys = pems.map((pem, i): DkimKey => ({ domain: domain.value.trim(), selector: selectors[i] ?? selectors[0]!, privateKey: pem }))
    for (const key of keys) {
      yield* Effect.try({ try: () => checkDkimKey(key), catch: (error) => fail(`${source}: ${(error as Error).message}`) })
    }
    return keys
  })
